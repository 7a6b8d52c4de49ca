import { type Database, type Executor, inLockedTransaction } from '../../db/database.js';
import type { LoginAttemptCountsTable } from '../../db/schema.js';
import type {
  AttemptVerdict,
  FailureBucket,
  FailureCounter,
  LoginCounters,
  LoginThrottle,
} from '../../lib/login-throttle.js';

/** Whose attempt: the lower-cased user name and the client address group. */
export interface AttemptKey {
  account: string;
  address: string;
}

/**
 * An admitted attempt, counted as a failure until its password is found to match: its row in the
 * log, when it was admitted, and how many attempts the pair had been admitted when it was (so that a
 * success can tell the pair's attempts admitted after it, which stay counted).
 */
export interface AdmittedAttempt {
  admit: true;
  attemptId: number;
  at: number;
  pairAdmissions: number;
}

export type Admission = AdmittedAttempt | Extract<AttemptVerdict, { admit: false }>;

/**
 * Expired rows deleted by each attempt that writes, from the log and from the counters: work bounded
 * per login, yet more than such an attempt adds (one log row, at most three counters), so that the
 * rows an attack leaves drain after it.
 */
export const PRUNE_BATCH = 50;

/** Names the SQLite decision's lock, which is the file's one writer lock (BEGIN IMMEDIATE). */
const SQLITE_LOCK_NAME = 'ghadi:login-attempts';

type CounterName = keyof LoginCounters;

/** A counter as stored: its row's key and what the pair's row adds. */
interface StoredCounter extends FailureCounter {
  key: string;
  touchedAt: number;
  admissions: number;
}

type StoredCounters = Record<CounterName, StoredCounter>;

/** Each counter's row key; JSON, since a user name may hold any character. */
function counterKeys(key: AttemptKey): Record<CounterName, string> {
  return {
    pair: JSON.stringify(['pair', key.address, key.account]),
    address: JSON.stringify(['address', key.address]),
    account: JSON.stringify(['account', key.account]),
  };
}

function fromRow(row: LoginAttemptCountsTable): StoredCounter {
  const failures = (JSON.parse(row.failures) as [number, number][]).map(([last, count]) => ({ last, count }));
  return {
    key: row.counter,
    failures,
    // PostgreSQL answers a bigint as text.
    touchedAt: Number(row.touched_at),
    lastAttempt: row.last_attempt === null ? null : Number(row.last_attempt),
    lastSucceeded: row.last_succeeded === 1,
    admissions: row.admitted,
  };
}

function toRow(counter: StoredCounter, now: number): LoginAttemptCountsTable {
  const failures: [number, number][] = counter.failures.map((bucket: FailureBucket) => [
    bucket.last,
    bucket.count,
  ]);
  return {
    counter: counter.key,
    failures: JSON.stringify(failures),
    // Never behind anything the row holds, so that pruning by it drops nothing still counting.
    touched_at: Math.max(counter.touchedAt, now),
    last_attempt: counter.lastAttempt,
    last_succeeded: counter.lastSucceeded ? 1 : 0,
    admitted: counter.admissions,
  };
}

/**
 * Reads the login's three counters, creating those that do not exist, and locks them to the end of
 * the transaction: on PostgreSQL the upsert takes each row's lock (a concurrent attempt on the same
 * account, address or pair waits for this one to commit, then reads what it wrote), in key order so
 * that two logins never wait on each other; SQLite's transaction excludes every other writer anyway.
 */
async function lockCounters(db: Executor, key: AttemptKey, now: number): Promise<StoredCounters> {
  const keys = counterKeys(key);
  const sorted = Object.values(keys).sort();
  const rows = await db
    .insertInto('login_attempt_counts')
    .values(
      sorted.map((counter) => ({
        counter,
        failures: '[]',
        touched_at: now,
        last_attempt: null,
        last_succeeded: 0,
        admitted: 0,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .column('counter')
        .doUpdateSet((eb) => ({ touched_at: eb.ref('login_attempt_counts.touched_at') })),
    )
    .returningAll()
    .execute();
  const byKey = new Map(rows.map((row) => [row.counter, fromRow(row)]));
  const counter = (name: CounterName): StoredCounter => {
    const found = byKey.get(keys[name]);
    if (!found) throw new Error(`The login counter ${keys[name]} was not returned`);
    return found;
  };
  return { pair: counter('pair'), address: counter('address'), account: counter('account') };
}

async function writeCounters(db: Executor, counters: StoredCounter[], now: number): Promise<void> {
  await db
    .insertInto('login_attempt_counts')
    .values(counters.map((counter) => toRow(counter, now)))
    .onConflict((conflict) =>
      conflict.column('counter').doUpdateSet((eb) => ({
        failures: eb.ref('excluded.failures'),
        touched_at: eb.ref('excluded.touched_at'),
        last_attempt: eb.ref('excluded.last_attempt'),
        last_succeeded: eb.ref('excluded.last_succeeded'),
        admitted: eb.ref('excluded.admitted'),
      })),
    )
    .execute();
}

/**
 * Deletes a batch of the log's rows and of the counters that the window has left. On PostgreSQL it
 * skips rows another transaction holds, so it never waits: it runs while this one holds counters,
 * and a wait there could close a cycle with a login that holds one of ours.
 */
async function pruneExpired(db: Executor, isPostgres: boolean, since: number): Promise<void> {
  await db
    .deleteFrom('login_attempts')
    .where('attempt_id', 'in', (eb) =>
      eb
        .selectFrom('login_attempts')
        .select('attempt_id')
        .where('attempted_at', '<=', new Date(since).toISOString())
        .orderBy('attempted_at')
        .limit(PRUNE_BATCH)
        .$if(isPostgres, (query) => query.forUpdate().skipLocked()),
    )
    .execute();
  await db
    .deleteFrom('login_attempt_counts')
    .where('counter', 'in', (eb) =>
      eb
        .selectFrom('login_attempt_counts')
        .select('counter')
        .where('touched_at', '<=', since)
        .orderBy('touched_at')
        .limit(PRUNE_BATCH)
        .$if(isPostgres, (query) => query.forUpdate().skipLocked()),
    )
    .execute();
}

/** Thrown to roll a refusal's transaction back: it writes nothing, not even the counters it made. */
class Refusal extends Error {
  constructor(readonly verdict: Extract<AttemptVerdict, { admit: false }>) {
    super('refused');
  }
}

/**
 * The login throttle's memory, in the database so that every process counts every attempt: three
 * counters per login (lib/login-throttle.ts), and a log of the window's attempts (`login_attempts`,
 * kept in backups; never read to decide).
 */
export class LoginAttemptsRepository {
  constructor(private readonly database: Database) {}

  /** One transaction over the login's counters: see lockCounters. */
  private inTransaction<T>(work: (db: Executor) => Promise<T>): Promise<T> {
    if (this.database.dialect === 'sqlite') return inLockedTransaction(this.database, SQLITE_LOCK_NAME, work);
    return this.database.db.transaction().execute(work);
  }

  /**
   * Decides on an attempt from its counters and counts it, in one transaction holding those
   * counters: of N parallel attempts, each sees all the ones decided before it. An admitted attempt
   * counts as a failure before its password is checked, and a batch of expired rows goes with it. A
   * refusal writes nothing.
   */
  async admit(key: AttemptKey, now: number, throttle: LoginThrottle): Promise<Admission> {
    try {
      return await this.inTransaction(async (db) => {
        const counters = await lockCounters(db, key, now);
        const verdict = throttle.verdict(throttle.windowOf(counters, now), now);
        if (!verdict.admit && !verdict.recordKnock) throw new Refusal(verdict);
        // The pair's latest attempt is this one, admitted or knocking.
        const pair = { ...counters.pair, lastAttempt: now, lastSucceeded: false };
        const failed = (counter: StoredCounter) => ({
          ...counter,
          failures: throttle.withFailure(counter.failures, now),
        });
        const changed = verdict.admit
          ? [
              { ...failed(pair), admissions: pair.admissions + 1 },
              failed(counters.address),
              failed(counters.account),
            ]
          : [pair];
        await writeCounters(db, changed, now);
        const row = await db
          .insertInto('login_attempts')
          .values({
            account: key.account,
            address: key.address,
            kind: verdict.admit ? 'failure' : 'knock',
            attempted_at: new Date(now).toISOString(),
          })
          .returning('attempt_id')
          .executeTakeFirstOrThrow();
        await pruneExpired(db, this.database.dialect === 'postgres', now - throttle.windowMs);
        if (!verdict.admit) return verdict;
        return { admit: true, attemptId: row.attempt_id, at: now, pairAdmissions: pair.admissions + 1 };
      });
    } catch (error) {
      if (error instanceof Refusal) return error.verdict;
      throw error;
    }
  }

  /**
   * The attempt's password matched: it and the pair's failures before it stop counting, for the
   * pair and for its address and account. The pair's attempts admitted after it (still being
   * checked, or failed since) stay counted.
   */
  async recordSuccess(
    attempt: AdmittedAttempt,
    key: AttemptKey,
    throttle: LoginThrottle,
    /** Written in the same transaction: the sign-in's activity entry. */
    alsoWrite: (db: Executor) => Promise<void> = async () => {},
  ): Promise<void> {
    const now = attempt.at;
    await this.inTransaction(async (db) => {
      const { pair, address, account } = await lockCounters(db, key, now);
      const admittedSince = pair.admissions - attempt.pairAdmissions;
      const { kept, rest } = throttle.splitNewest(throttle.counting(pair.failures, now), admittedSince);
      const cleared = (counter: StoredCounter) => ({
        ...counter,
        failures: throttle.withoutFailures(throttle.counting(counter.failures, now), rest),
      });
      await writeCounters(
        db,
        [
          // The pair's latest attempt is this one unless the pair was admitted again since.
          { ...pair, failures: kept, lastSucceeded: admittedSince <= 0 || pair.lastSucceeded },
          cleared(address),
          cleared(account),
        ],
        now,
      );
      await db
        .updateTable('login_attempts')
        .set({ kind: 'success' })
        .where('attempt_id', '=', attempt.attemptId)
        .execute();
      await alsoWrite(db);
    });
  }
}
