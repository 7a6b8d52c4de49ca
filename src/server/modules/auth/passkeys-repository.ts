import type { Insertable, Selectable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { ChallengePurpose, PasskeysTable } from '../../db/schema.js';

export type PasskeyRow = Selectable<PasskeysTable>;

/** Expired challenges deleted by each options request: more than the one it adds. */
export const CHALLENGE_PRUNE_BATCH = 50;

/**
 * Passkeys and the WebAuthn challenges (decision 0024). What must hold once across processes (a
 * challenge used once, a signature counter that only rises) is one conditional statement each.
 */
export class PasskeysRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Stores a challenge handed out now, and deletes a batch of expired ones (by `at`), so that the
   * table holds about five minutes of options requests.
   */
  async addChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    userId: number | null,
    at: string,
    expiresAt: string,
  ): Promise<void> {
    await this.db
      .deleteFrom('webauthn_challenges')
      .where('challenge', 'in', (eb) =>
        eb
          .selectFrom('webauthn_challenges')
          .select('challenge')
          .where('expires_at', '<=', at)
          .orderBy('expires_at')
          .limit(CHALLENGE_PRUNE_BATCH),
      )
      .execute();
    await this.db
      .insertInto('webauthn_challenges')
      .values({ challenge, purpose, user_id: userId, expires_at: expiresAt })
      .execute();
  }

  /**
   * Consumes a live challenge of this purpose (and, for a registration, of this user): true for the
   * one request, on any process, whose delete found it; false when it is unknown, used or expired.
   */
  async consumeChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    userId: number | null,
    at: string,
  ): Promise<boolean> {
    const result = await this.db
      .deleteFrom('webauthn_challenges')
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', at)
      .$if(userId !== null, (query) => query.where('user_id', '=', userId))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  findByCredential(credentialId: string): Promise<PasskeyRow | undefined> {
    return this.db
      .selectFrom('passkeys')
      .selectAll()
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
  }

  /** The user's passkeys, oldest first. */
  listFor(userId: number): Promise<PasskeyRow[]> {
    return this.db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('passkey_id')
      .execute();
  }

  async countFor(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Stores a new passkey; undefined when its credential id is already registered (to anyone). */
  async add(trx: Executor, row: Insertable<PasskeysTable>): Promise<number | undefined> {
    const added = await trx
      .insertInto('passkeys')
      .values(row)
      .onConflict((conflict) => conflict.column('credential_id').doNothing())
      .returning('passkey_id')
      .executeTakeFirst();
    return added?.passkey_id;
  }

  /**
   * Records a verified assertion: the counter becomes `counter` if it is above the stored one (or
   * both are 0, an authenticator without a counter), and the passkey was used at `at`. False when
   * another request raised it first, or the passkey is gone: the assertion is then refused.
   */
  async recordUse(passkeyId: number, counter: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('passkeys')
      .set({ counter, last_used_at: at })
      .where('passkey_id', '=', passkeyId)
      .where((eb) => (counter === 0 ? eb('counter', '=', 0) : eb('counter', '<', counter)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Removes one of the user's passkeys: false when it is not theirs or no longer exists. */
  async remove(trx: Executor, userId: number, passkeyId: number): Promise<boolean> {
    const result = await trx
      .deleteFrom('passkeys')
      .where('passkey_id', '=', passkeyId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
