import { sql } from 'kysely';
import { type Database, type Executor, inLockedTransaction } from '../../db/database.js';
import type { AttemptVerdict, AttemptWindow } from '../../lib/login-throttle.js';

/** Whose attempt: the lower-cased user name and the client address group. */
export interface AttemptKey {
  account: string;
  address: string;
}

/** An admitted attempt carries its row, recorded as a failure until its password is found to match. */
export type Admission = { admit: true; attemptId: number } | Extract<AttemptVerdict, { admit: false }>;

type Count = number | string | bigint | null;

/** Every decision on a login takes this lock: deciding and recording are one step across processes. */
const LOCK_NAME = 'ghadi:login-attempts';

async function readWindow(db: Executor, key: AttemptKey, since: string): Promise<AttemptWindow> {
  const pair = sql`account = ${key.account} and address = ${key.address}`;
  const failure = sql`kind = 'failure'`;
  const row = await db
    .selectFrom('login_attempts')
    .where('attempted_at', '>', since)
    .where((eb) => eb.or([eb('account', '=', key.account), eb('address', '=', key.address)]))
    .select([
      sql<Count>`sum(case when ${pair} and ${failure} then 1 else 0 end)`.as('pair_failures'),
      sql<string | null>`min(case when ${pair} and ${failure} then attempted_at end)`.as('pair_oldest'),
      sql<string | null>`max(case when ${pair} then attempted_at end)`.as('pair_last'),
      sql<string | null>`max(case when ${pair} and kind = 'success' then attempted_at end)`.as(
        'pair_last_success',
      ),
      sql<Count>`sum(case when address = ${key.address} and ${failure} then 1 else 0 end)`.as(
        'address_failures',
      ),
      sql<string | null>`min(case when address = ${key.address} and ${failure} then attempted_at end)`.as(
        'address_oldest',
      ),
      sql<Count>`sum(case when account = ${key.account} and ${failure} then 1 else 0 end)`.as(
        'account_failures',
      ),
    ])
    .executeTakeFirstOrThrow();
  const time = (value: string | null) => (value === null ? null : Date.parse(value));
  return {
    pairFailures: Number(row.pair_failures ?? 0),
    pairOldestFailure: time(row.pair_oldest),
    pairLastAttempt: time(row.pair_last),
    pairLastSucceeded: row.pair_last !== null && row.pair_last === row.pair_last_success,
    addressFailures: Number(row.address_failures ?? 0),
    addressOldestFailure: time(row.address_oldest),
    accountFailures: Number(row.account_failures ?? 0),
  };
}

/** The login throttle's memory, in the database so that every process counts every attempt. */
export class LoginAttemptsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Decides on an attempt from the window's record and records it, as one step under a lock taken
   * by every process: of N parallel attempts, each sees all the ones decided before it. An admitted
   * attempt is recorded as a failure before its password is checked. Rows older than the window go.
   */
  admit(
    key: AttemptKey,
    now: Date,
    windowMs: number,
    decide: (window: AttemptWindow) => AttemptVerdict,
  ): Promise<Admission> {
    const since = new Date(now.getTime() - windowMs).toISOString();
    return inLockedTransaction(this.database, LOCK_NAME, async (db) => {
      await db.deleteFrom('login_attempts').where('attempted_at', '<=', since).execute();
      const verdict = decide(await readWindow(db, key, since));
      if (!verdict.admit && !verdict.recordKnock) return verdict;
      const row = await db
        .insertInto('login_attempts')
        .values({
          account: key.account,
          address: key.address,
          kind: verdict.admit ? 'failure' : 'knock',
          attempted_at: now.toISOString(),
        })
        .returning('attempt_id')
        .executeTakeFirstOrThrow();
      return verdict.admit ? { admit: true, attemptId: row.attempt_id } : verdict;
    });
  }

  /** The attempt's password matched: it and the pair's earlier failures stop counting. */
  async recordSuccess(attemptId: number, key: AttemptKey): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('login_attempts')
        .where('account', '=', key.account)
        .where('address', '=', key.address)
        .where('kind', '=', 'failure')
        .where('attempt_id', '<', attemptId)
        .execute();
      await trx
        .updateTable('login_attempts')
        .set({ kind: 'success' })
        .where('attempt_id', '=', attemptId)
        .execute();
    });
  }
}
