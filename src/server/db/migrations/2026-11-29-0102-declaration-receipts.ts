import type { Kysely } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * A receipt is the first 10 characters of an entry's hash, looked up as the range
 * `hash >= receipt and hash < receipt || 'g'`: this index makes that a seek on both databases (and a
 * whole hash an equality). In PostgreSQL the index and the query share the column's collation; lower
 * case hex sorts alike in every collation, since its 16 characters and `g` differ at the first level.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('declarations_by_hash').on('declarations').column('hash').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('declarations_by_hash').execute();
}
