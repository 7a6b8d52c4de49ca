import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/** The login throttle's window and bucket width on this date (lib/login-throttle.ts). */
const WINDOW_MS = 15 * 60 * 1000;
const BUCKET_MS = WINDOW_MS / 15;

const INSERT_CHUNK = 500;

interface Counter {
  counter: string;
  failures: [number, number][];
  touched_at: number;
  last_attempt: number | null;
  last_succeeded: number;
  admitted: number;
}

function addFailure(counter: Counter, time: number): void {
  const newest = counter.failures.at(-1);
  if (newest && Math.floor(newest[0] / BUCKET_MS) >= Math.floor(time / BUCKET_MS)) {
    newest[0] = Math.max(newest[0], time);
    newest[1] += 1;
  } else {
    counter.failures.push([time, 1]);
  }
}

/**
 * The login throttle's counts: one row per account, per address group and per pair of them, each
 * holding its failures of the window in a few buckets, so that a login reads three rows by key
 * instead of scanning the account's and the address's rows in login_attempts (which stays, as the
 * window's log). The log's window is counted in, so an upgrade forgets no failure.
 */
export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('login_attempt_counts')
    .addColumn('counter', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'text', (c) => c.notNull())
    .addColumn('touched_at', 'bigint', (c) => c.notNull())
    .addColumn('last_attempt', 'bigint')
    .addColumn('last_succeeded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('admitted', 'integer', (c) => c.notNull().defaultTo(0))
    // SQLite keeps the rows in the key's own tree: one tree less to write per login.
    .$call((table) => (isPostgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  await db.schema
    .createIndex('login_attempt_counts_touched')
    .on('login_attempt_counts')
    .column('touched_at')
    .execute();

  const since = new Date(Date.now() - WINDOW_MS).toISOString();
  const attempts: { account: string; address: string; kind: string; attempted_at: string }[] = await db
    .selectFrom('login_attempts')
    .select(['account', 'address', 'kind', 'attempted_at'])
    .where('attempted_at', '>', since)
    .orderBy('attempted_at')
    .orderBy('attempt_id')
    .execute();
  const counters = new Map<string, Counter>();
  const counterOf = (key: unknown[]): Counter => {
    const name = JSON.stringify(key);
    let counter = counters.get(name);
    if (!counter) {
      counter = {
        counter: name,
        failures: [],
        touched_at: 0,
        last_attempt: null,
        last_succeeded: 0,
        admitted: 0,
      };
      counters.set(name, counter);
    }
    return counter;
  };
  for (const attempt of attempts) {
    const time = Date.parse(attempt.attempted_at);
    const pair = counterOf(['pair', attempt.address, attempt.account]);
    pair.last_attempt = time;
    pair.last_succeeded = attempt.kind === 'success' ? 1 : 0;
    pair.touched_at = time;
    if (attempt.kind === 'knock') continue;
    pair.admitted += 1;
    if (attempt.kind !== 'failure') continue;
    for (const counter of [
      pair,
      counterOf(['address', attempt.address]),
      counterOf(['account', attempt.account]),
    ]) {
      addFailure(counter, time);
      counter.touched_at = Math.max(counter.touched_at, time);
    }
  }
  const rows = [...counters.values()].map((counter) => ({
    ...counter,
    failures: JSON.stringify(counter.failures),
  }));
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await db
      .insertInto('login_attempt_counts')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('login_attempt_counts').execute();
}
