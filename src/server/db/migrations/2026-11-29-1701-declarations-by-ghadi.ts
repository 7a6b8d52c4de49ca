import type { Kysely } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * A ghadi's feeds read its latest entries (`where gid = ? order by seq desc limit 50`):
 * declarations_by_result sorts by date first, so without this index that read sorts every entry of
 * the ghadi.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('declarations_by_ghadi').on('declarations').columns(['gid', 'seq']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('declarations_by_ghadi').execute();
}
