import type { Database } from '../../db/database.js';
import type { UserRow } from '../users/users-repository.js';

export type SessionUserRow = Pick<
  UserRow,
  'user_id' | 'user_type' | 'username' | 'is_active' | 'token_version'
> & {
  /** Set when the token was ended by a logout. */
  revoked_token: string | null;
};

export class SessionsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * The live user a token names, and whether that token was revoked: one query over two
   * primary keys, made on every authenticated request.
   */
  findSessionUser(userId: number, tokenId: string): Promise<SessionUserRow | undefined> {
    return this.db
      .selectFrom('users')
      .leftJoin('revoked_tokens', (join) => join.on((eb) => eb('revoked_tokens.token_id', '=', tokenId)))
      .select([
        'users.user_id',
        'users.user_type',
        'users.username',
        'users.is_active',
        'users.token_version',
        'revoked_tokens.token_id as revoked_token',
      ])
      .where('users.user_id', '=', userId)
      .where('users.is_deleted', '=', 0)
      .executeTakeFirst();
  }

  /** Ends one token; rows of tokens that have expired anyway go at the same time. */
  async revoke(tokenId: string, expiresAt: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('revoked_tokens').where('expires_at', '<', now).execute();
      await trx
        .insertInto('revoked_tokens')
        .values({ token_id: tokenId, expires_at: expiresAt })
        .onConflict((conflict) => conflict.column('token_id').doNothing())
        .execute();
    });
  }
}
