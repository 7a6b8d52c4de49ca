import type { Selectable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { UserTwoFactorTable } from '../../db/schema.js';

export type TwoFactorRow = Selectable<UserTwoFactorTable>;

/**
 * A user's TOTP secret, its replay guard and backup codes (decision 0023). Every check that must hold
 * across processes (a step used once, a backup code consumed once, a pending secret enabled once) is
 * one conditional statement, which the database decides alone.
 */
export class TwoFactorRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  find(userId: number): Promise<TwoFactorRow | undefined> {
    return this.db.selectFrom('user_two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** Whether two-factor is in force for the user. */
  async isOn(userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('user_two_factor')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('secret', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Stores a setup's secret as pending, replacing any earlier one; false when two-factor is on. */
  async setPending(userId: number, secret: string, at: string): Promise<boolean> {
    const result = await this.db
      .insertInto('user_two_factor')
      .values({
        user_id: userId,
        secret: null,
        pending_secret: secret,
        last_step: null,
        enabled_at: null,
        updated_at: at,
      })
      .onConflict((conflict) =>
        conflict
          .column('user_id')
          .doUpdateSet({ pending_secret: secret, updated_at: at })
          .where('user_two_factor.secret', 'is', null),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /**
   * Puts the pending secret `secret` in force with `step` as its last used step and `codeHashes` as
   * the backup codes (replacing any others). False, writing nothing, when that secret is no longer
   * the pending one (another setup replaced it, another enable took it).
   */
  async enable(
    trx: Executor,
    userId: number,
    secret: string,
    step: number,
    codeHashes: string[],
    at: string,
  ) {
    const result = await trx
      .updateTable('user_two_factor')
      .set({ secret, pending_secret: null, last_step: step, enabled_at: at, updated_at: at })
      .where('user_id', '=', userId)
      .where('pending_secret', '=', secret)
      .where('secret', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await trx.deleteFrom('two_factor_backup_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('two_factor_backup_codes')
      .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: at, used_at: null })))
      .execute();
    return true;
  }

  /**
   * Records `step` as the user's last used one, if it is later than the stored one and two-factor is
   * on: of two requests with the same code, on any processes, one gets true.
   */
  async acceptStep(userId: number, step: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('user_two_factor')
      .set({ last_step: step, updated_at: at })
      .where('user_id', '=', userId)
      .where('secret', 'is not', null)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks the user's unused backup code with this hash used: true for the one request that does. */
  async consumeBackupCode(userId: number, codeHash: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('two_factor_backup_codes')
      .set({ used_at: at })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Unused backup codes the user has left. */
  async backupCodesLeft(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('two_factor_backup_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Turns two-factor off: the secrets, the replay guard and the backup codes go. True when it was on. */
  async disable(trx: Executor, userId: number, at: string): Promise<boolean> {
    const result = await trx
      .updateTable('user_two_factor')
      .set({ secret: null, pending_secret: null, last_step: null, enabled_at: null, updated_at: at })
      .where('user_id', '=', userId)
      .where('secret', 'is not', null)
      .executeTakeFirst();
    await trx.deleteFrom('two_factor_backup_codes').where('user_id', '=', userId).execute();
    return Number(result.numUpdatedRows) > 0;
  }
}
