import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

function identity(db: AnyDb) {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (column: ColumnDefinitionBuilder) =>
    isPostgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
}

/**
 * Passkeys (decision 0024).
 *
 * passkeys: one row per registered credential. `credential_id` (base64url) is what an assertion
 * names, unique across users; `public_key` the COSE key (base64url); `counter` the authenticator's
 * signature counter (unsigned 32-bit: a bigint), raised by one conditional update per sign-in;
 * `transports` a JSON array, handed back in excludeCredentials.
 *
 * webauthn_challenges: the challenges handed out by the options routes, single-use (consumed by one
 * conditional delete) and expiring after five minutes of the app's clock. `user_id` is set for a
 * registration's (the caller's) and null for a sign-in's.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('passkey_id', 'integer', identity(db))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webauthn_challenges_expires')
    .on('webauthn_challenges')
    .column('expires_at')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
