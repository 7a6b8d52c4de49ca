import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * Ghadis gain how many people must enter the same value before it is published (1, as before, or
 * 2), and submissions held for a second person wait in pending_declarations: one row per person,
 * ghadi and date (a person's new entry replaces theirs), nothing of it public (decision 0020). Keys
 * are counted per user and day, so they gain an index by user and time.
 */
export async function up(db: AnyDb): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('ghadis')
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('pending_declarations')
    .addColumn('pending_id', 'integer', (column) =>
      isPostgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement(),
    )
    .addColumn('gid', 'integer', (c) => c.notNull())
    .addColumn('result_date', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pending_declarations_gid_date_user')
    .on('pending_declarations')
    .columns(['gid', 'result_date', 'user_id'])
    .unique()
    .execute();
  // A keyed submission counts its user's keys of the last day (a cap per user).
  await db.schema
    .createIndex('idempotency_keys_user_created')
    .on('idempotency_keys')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('idempotency_keys_user_created').execute();
  await db.schema.dropTable('pending_declarations').execute();
  await db.schema.alterTable('ghadis').dropColumn('confirmations').execute();
}
