import type { Database, Executor } from '../../db/database.js';
import { KEY_GENERATION_SETTING } from '../settings/signing-key-store.js';
import type { UserRow } from '../users/users-repository.js';

export type SessionUserRow = Pick<
  UserRow,
  'user_id' | 'user_type' | 'username' | 'is_active' | 'token_version'
> & {
  /** Set when the token was ended by a logout. */
  revoked_token: string | null;
  /** The stored signing key's generation now (null with none): a token of another is refused. */
  key_generation: string | null;
};

export class SessionsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * The live user a token names, whether that token was revoked, and the signing key's generation
   * (so that a key replaced by another process ends the token here at once): one query over three
   * primary keys, made on every authenticated request.
   */
  findSessionUser(userId: number, tokenId: string): Promise<SessionUserRow | undefined> {
    return this.db
      .selectFrom('users')
      .leftJoin('revoked_tokens', (join) => join.on((eb) => eb('revoked_tokens.token_id', '=', tokenId)))
      .leftJoin('settings as signing_key', (join) =>
        join.on((eb) => eb('signing_key.key', '=', KEY_GENERATION_SETTING)),
      )
      .select([
        'users.user_id',
        'users.user_type',
        'users.username',
        'users.is_active',
        'users.token_version',
        'revoked_tokens.token_id as revoked_token',
        'signing_key.value as key_generation',
      ])
      .where('users.user_id', '=', userId)
      .where('users.is_deleted', '=', 0)
      .executeTakeFirst();
  }

  /**
   * Ends one token; rows of tokens that have expired anyway go at the same time, and `alsoWrite`
   * (the sign-out's activity entry) in the same transaction.
   */
  async revoke(
    tokenId: string,
    expiresAt: string,
    now: string,
    alsoWrite: (db: Executor) => Promise<void>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('revoked_tokens').where('expires_at', '<', now).execute();
      await trx
        .insertInto('revoked_tokens')
        .values({ token_id: tokenId, expires_at: expiresAt })
        .onConflict((conflict) => conflict.column('token_id').doNothing())
        .execute();
      await alsoWrite(trx);
    });
  }
}
