import { type Kysely, sql } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * The result lists are paged newest first (date, then declaration order). `results_listing` yields
 * rows in that order and holds every column a list filters on (ghadi, author, value, date), so a page,
 * a broad search and a count read the index alone, never the table; only the rows of one page are then
 * joined. A search that names few ghadis or authors, or a value, starts from an index of its own
 * (a ghadi's results keep the unique (gid, result_date) index). (docs/decisions/0007)
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('results_date').execute();
  await db.schema
    .createIndex('results_listing')
    .on('results')
    .columns(['result_date', 'result_id', 'is_active', 'gid', 'created_by', 'value'])
    .execute();
  await db.schema
    .createIndex('results_by_author')
    .on('results')
    .columns(['created_by', 'result_date'])
    .execute();
  await sql`create index results_by_value on results (lower(value), result_date)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('results_by_value').execute();
  await db.schema.dropIndex('results_by_author').execute();
  await db.schema.dropIndex('results_listing').execute();
  await db.schema.createIndex('results_date').on('results').column('result_date').execute();
}
