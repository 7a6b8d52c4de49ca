import { type Kysely, sql } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * The public, hash-chained declaration log (one entry per value declared or corrected), and on each
 * result the value it replaced and when it was declared, so public answers show corrections without
 * reading the log. Existing results get those two from result_history here; their log entries are
 * written by the server at its first start (the hash is the app's code, which a migration never imports).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('declarations')
    .addColumn('seq', 'integer', (c) => c.primaryKey())
    .addColumn('gid', 'integer', (c) => c.notNull().references('ghadis.gid'))
    .addColumn('result_date', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('previous', 'text')
    .addColumn('declared_at', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('declared_by', 'integer', (c) => c.references('users.user_id'))
    .execute();
  await db.schema
    .createIndex('declarations_by_result')
    .on('declarations')
    .columns(['gid', 'result_date', 'seq'])
    .execute();
  await db.schema
    .createIndex('declarations_by_date')
    .on('declarations')
    .columns(['result_date', 'seq'])
    .execute();

  await db.schema.alterTable('results').addColumn('previous_value', 'text').execute();
  await db.schema.alterTable('results').addColumn('declared_at', 'text').execute();
  // A history row whose value did not change (a value sent again) is no correction.
  await sql`
    update results set
      previous_value = (
        select h.old_value from result_history h
        where h.result_id = results.result_id and h.old_value <> h.new_value
        order by h.changed_at desc, h.history_id desc limit 1),
      declared_at = coalesce((
        select max(h.changed_at) from result_history h
        where h.result_id = results.result_id and h.old_value <> h.new_value), results.created_at)
  `.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('results').dropColumn('declared_at').execute();
  await db.schema.alterTable('results').dropColumn('previous_value').execute();
  await db.schema.dropTable('declarations').execute();
}
