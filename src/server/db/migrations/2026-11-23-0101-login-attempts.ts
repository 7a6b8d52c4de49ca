import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

function identity(db: AnyDb) {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (column: ColumnDefinitionBuilder) =>
    isPostgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
}

/** Login attempts of the last 15 minutes, shared by every process: the login throttle's memory. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('login_attempts')
    .addColumn('attempt_id', 'integer', identity(db))
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('failure', 'success', 'knock')`))
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_attempts_account')
    .on('login_attempts')
    .columns(['account', 'attempted_at'])
    .execute();
  await db.schema
    .createIndex('login_attempts_address')
    .on('login_attempts')
    .columns(['address', 'attempted_at'])
    .execute();
  await db.schema.createIndex('login_attempts_time').on('login_attempts').column('attempted_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('login_attempts').execute();
}
