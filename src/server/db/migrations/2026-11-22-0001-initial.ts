import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

function identity(db: AnyDb) {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (column: ColumnDefinitionBuilder) =>
    isPostgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
}

export async function up(db: AnyDb): Promise<void> {
  const pk = identity(db);

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('user_id', 'integer', pk)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('user_type', 'text', (c) => c.notNull().check(sql`user_type in ('admin', 'agent')`))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index users_username_live on users (lower(username)) where is_deleted = 0`.execute(
    db,
  );

  await db.schema
    .createTable('ghadis')
    .addColumn('gid', 'integer', pk)
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('name_hn', 'text', (c) => c.notNull())
    .addColumn('r_time', 'text', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index ghadis_name_live on ghadis (lower(name_en)) where is_deleted = 0`.execute(db);

  await db.schema
    .createTable('results')
    .addColumn('result_id', 'integer', pk)
    .addColumn('gid', 'integer', (c) => c.notNull().references('ghadis.gid'))
    .addColumn('result_date', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.user_id'))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('results_gid_date', ['gid', 'result_date'])
    .execute();
  await db.schema.createIndex('results_date').on('results').column('result_date').execute();

  await db.schema
    .createTable('result_history')
    .addColumn('history_id', 'integer', pk)
    .addColumn('result_id', 'integer', (c) => c.notNull().references('results.result_id'))
    .addColumn('old_value', 'text', (c) => c.notNull())
    .addColumn('new_value', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'integer', (c) => c.references('users.user_id'))
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('result_history_result').on('result_history').column('result_id').execute();

  await db.schema
    .createTable('usermaps')
    .addColumn('usermap_id', 'integer', pk)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.user_id'))
    .addColumn('gid', 'integer', (c) => c.notNull().references('ghadis.gid'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('usermaps_user_gid', ['user_id', 'gid'])
    .execute();

  await db.schema
    .createTable('content_blocks')
    .addColumn('block_id', 'integer', pk)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('visitors')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('first_seen', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('visitors_last_seen').on('visitors').column('last_seen').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'visitors',
    'content_blocks',
    'usermaps',
    'result_history',
    'results',
    'ghadis',
    'users',
    'settings',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
