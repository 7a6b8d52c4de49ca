import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/** The same fold the app applies (JavaScript's, the same on every database); repeated here on purpose. */
function fold(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const pk = (column: ColumnDefinitionBuilder) =>
    isPostgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();

  // Every write the public site shows, in commit order: the id is the live event's id.
  await db.schema
    .createTable('change_log')
    .addColumn('change_id', 'integer', pk)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // A day change is recorded once, whichever process notices midnight first.
  await sql`create unique index change_log_day on change_log (payload) where kind = 'day'`.execute(db);
  await db.schema.createIndex('change_log_created').on('change_log').column('created_at').execute();

  // SQLite's lower() folds only ASCII; PostgreSQL's folds all of Unicode. A stored fold made in code
  // finds "Éclair" or "गली" the same way on both.
  await db.schema
    .alterTable('ghadis')
    .addColumn('name_folded', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const rows = await db.selectFrom('ghadis').select(['gid', 'name_en']).execute();
  for (const row of rows as Array<{ gid: number; name_en: string }>) {
    await db
      .updateTable('ghadis')
      .set({ name_folded: fold(row.name_en) })
      .where('gid', '=', row.gid)
      .execute();
  }
  await sql`drop index ghadis_name_live`.execute(db);
  await sql`create unique index ghadis_name_live on ghadis (name_folded) where is_deleted = 0`.execute(db);

  // totalUsers as a running total, so that old sessions can be pruned without lowering it.
  await db.schema
    .createTable('visitor_totals')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into visitor_totals (name, total) select 'sessions', count(*) from visitors`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('visitor_totals').execute();
  await sql`drop index ghadis_name_live`.execute(db);
  await sql`create unique index ghadis_name_live on ghadis (lower(name_en)) where is_deleted = 0`.execute(db);
  await db.schema.alterTable('ghadis').dropColumn('name_folded').execute();
  await db.schema.dropTable('change_log').execute();
}
