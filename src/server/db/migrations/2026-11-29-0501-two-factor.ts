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
 * Two-factor sign-in (decision 0023), in tables of its own rather than columns of users, so that no
 * read of a user row carries a secret.
 *
 * user_two_factor: one row per user who has started a setup. `secret` (base32) is the one in force
 * (null: two-factor is off); `pending_secret` the one a setup handed out, until a code of it enables
 * it; `last_step` the latest 30-second step whose code was accepted: a code of that step or an
 * earlier one is refused (replays, across every process).
 *
 * two_factor_backup_codes: SHA-256 (hex) of each single-use backup code; `used_at` is set by the
 * one conditional update that consumes it.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('user_two_factor')
    .addColumn('user_id', 'integer', (c) => c.primaryKey())
    .addColumn('secret', 'text')
    .addColumn('pending_secret', 'text')
    .addColumn('last_step', 'integer')
    .addColumn('enabled_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('two_factor_backup_codes')
    .addColumn('code_id', 'integer', identity(db))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('two_factor_backup_codes_user_hash')
    .on('two_factor_backup_codes')
    .columns(['user_id', 'code_hash'])
    .unique()
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('two_factor_backup_codes').execute();
  await db.schema.dropTable('user_two_factor').execute();
}
