import type { Kysely } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/** Session tokens ended by a logout before their expiry, kept until they would have expired. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('revoked_tokens')
    .addColumn('token_id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revoked_tokens_expiry').on('revoked_tokens').column('expires_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('revoked_tokens').execute();
}
