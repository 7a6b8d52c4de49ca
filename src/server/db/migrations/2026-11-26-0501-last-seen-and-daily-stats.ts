import { type Kysely, sql } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/** Rows inserted per statement: 4 parameters a row stays well under both databases' limits. */
const INSERT_CHUNK = 500;

interface DayCounts {
  declarations: number;
  corrections: number;
}

/**
 * Counts per minute of an ISO instant column, as [minute ("YYYY-MM-DDTHH:MM"), count]. By the minute
 * because every zone's offset is whole minutes (India's is +5:30, Nepal's +5:45): each minute falls
 * in one day of the site's zone, and results come in at a few minutes a day.
 */
async function perMinute(db: AnyDb, table: string, column: string, where = sql`true`) {
  const minute = sql`substr(${sql.ref(column)}, 1, 16)`;
  const { rows } = await sql<{ minute: string; count: number | string }>`
    select ${minute} as minute, count(*) as count from ${sql.table(table)} where ${where} group by ${minute}`.execute(
    db,
  );
  return rows.map((row) => [row.minute, Number(row.count)] as const);
}

/**
 * Users get last_seen_at, the last authenticated request (ISO text, written at most once a minute),
 * and daily_stats keeps running totals per day of the site's zone: visitor sessions first seen,
 * first declarations, corrections. Each event adds to its day in the transaction that makes it, so
 * no request scans sessions or results. Filled here from what the database holds: declarations by
 * each result's creation, corrections by result_history (a value sent again is none). Visitor
 * sessions keep no first-seen time since 2026-11-25, so their past days stay at zero.
 */
export async function up(db: AnyDb, site: { timeZone: string }): Promise<void> {
  await db.schema.alterTable('users').addColumn('last_seen_at', 'text').execute();
  await db.schema
    .createTable('daily_stats')
    .addColumn('date', 'text', (c) => c.primaryKey())
    .addColumn('visitors', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('declarations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('corrections', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: site.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const dayOf = (instant: number) => {
    const parts = format.formatToParts(instant);
    const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${part('year')}-${part('month')}-${part('day')}`;
  };
  const days = new Map<string, DayCounts>();
  const add = (minutes: ReadonlyArray<readonly [string, number]>, field: keyof DayCounts) => {
    for (const [minute, count] of minutes) {
      const instant = Date.parse(`${minute}:00Z`);
      if (Number.isNaN(instant)) continue;
      const day = dayOf(instant);
      const counts = days.get(day) ?? { declarations: 0, corrections: 0 };
      counts[field] += count;
      days.set(day, counts);
    }
  };
  add(await perMinute(db, 'results', 'created_at'), 'declarations');
  add(
    await perMinute(
      db,
      'result_history',
      'changed_at',
      sql`${sql.ref('old_value')} <> ${sql.ref('new_value')}`,
    ),
    'corrections',
  );
  const rows = [...days].map(([date, counts]) => ({ date, visitors: 0, ...counts }));
  for (let start = 0; start < rows.length; start += INSERT_CHUNK)
    await db
      .insertInto('daily_stats')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('daily_stats').execute();
  await db.schema.alterTable('users').dropColumn('last_seen_at').execute();
}
