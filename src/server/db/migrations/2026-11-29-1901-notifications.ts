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
 * Web Push subscriptions and the notification outbox (decision 0025).
 *
 * push_subscriptions: one row per browser endpoint (unique), its RFC 8291 keys and the language its
 * notifications are written in. push_subscription_ghadis: which ghadis it follows.
 *
 * notifications: one row per declaration or correction to announce, written in the transaction of the
 * result's write. `state` is pending until one process fans it out (in a transaction of its own)
 * into notification_deliveries: one row per subscription and channel, claimed by a sender with a
 * lease (`lease_until`), retried at `next_attempt_at`, and finished as sent, failed, gone or superseded.
 *
 * telegram_messages: the message each ghadi's day was announced with, so that a correction edits it.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('subscription_id', 'integer', identity(db))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('push_subscription_ghadis')
    .addColumn('subscription_id', 'integer', (c) => c.notNull())
    .addColumn('gid', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('push_subscription_ghadis_pk', ['subscription_id', 'gid'])
    .execute();
  await db.schema
    .createIndex('push_subscription_ghadis_gid')
    .on('push_subscription_ghadis')
    .columns(['gid', 'subscription_id'])
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('notification_id', 'integer', identity(db))
    .addColumn('gid', 'integer', (c) => c.notNull())
    .addColumn('result_date', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('corrected', 'integer', (c) => c.notNull())
    .addColumn('declared_at', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_state')
    .on('notifications')
    .columns(['state', 'notification_id'])
    .execute();
  await db.schema
    .createIndex('notifications_result')
    .on('notifications')
    .columns(['gid', 'result_date', 'notification_id'])
    .execute();

  await db.schema
    .createTable('notification_deliveries')
    .addColumn('delivery_id', 'integer', identity(db))
    .addColumn('notification_id', 'integer', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    // Null for the Telegram channel's one delivery.
    .addColumn('subscription_id', 'integer')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('notification_deliveries_due')
    .on('notification_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('notification_deliveries_subscription')
    .on('notification_deliveries')
    .columns(['subscription_id', 'notification_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('notification_deliveries_notification')
    .on('notification_deliveries')
    .column('notification_id')
    .execute();

  await db.schema
    .createTable('telegram_messages')
    .addColumn('gid', 'integer', (c) => c.notNull())
    .addColumn('result_date', 'text', (c) => c.notNull())
    .addColumn('message_id', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('telegram_messages_pk', ['gid', 'result_date'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('telegram_messages').execute();
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('push_subscription_ghadis').execute();
  await db.schema.dropTable('push_subscriptions').execute();
}
