import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * Ghadis gain their kind (jodi, panna, open-close), an open time (open/close markets) and the weekdays
 * they run (a bit set, bit d = weekday d, 127 = every day); every existing ghadi is a daily jodi ghadi
 * as before. Holidays close one ghadi (gid) or every ghadi (gid 0) on a date: 0 rather than null so
 * that one unique index refuses a duplicate in both databases.
 */
export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('ghadis')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('jodi'))
    .execute();
  await db.schema.alterTable('ghadis').addColumn('open_time', 'text').execute();
  await db.schema
    .alterTable('ghadis')
    .addColumn('days', 'integer', (c) => c.notNull().defaultTo(127))
    .execute();
  await db.schema
    .createTable('holidays')
    .addColumn('holiday_id', 'integer', (column) =>
      isPostgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement(),
    )
    .addColumn('holiday_date', 'text', (c) => c.notNull())
    .addColumn('gid', 'integer', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('holidays_date_gid')
    .on('holidays')
    .columns(['holiday_date', 'gid'])
    .unique()
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('holidays').execute();
  await db.schema.alterTable('ghadis').dropColumn('days').execute();
  await db.schema.alterTable('ghadis').dropColumn('open_time').execute();
  await db.schema.alterTable('ghadis').dropColumn('kind').execute();
}
