import type { Kysely } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * The declaration log as an RFC 6962 Merkle tree: the hash of every perfect subtree (2^level leaves
 * from node_index * 2^level on), so that a root or proof reads O(log n) rows; and the signed
 * checkpoints, one per tree size. The nodes of entries already logged are written by the server at
 * its start (the leaf hash is the app's code, which a migration never imports).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('log_nodes')
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('node_index', 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('log_nodes_pkey', ['level', 'node_index'])
    .execute();
  await db.schema
    .createTable('log_checkpoints')
    .addColumn('size', 'integer', (c) => c.primaryKey())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('log_checkpoints').execute();
  await db.schema.dropTable('log_nodes').execute();
}
