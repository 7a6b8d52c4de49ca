import type { Kysely } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * Decision 0026: a notification is fanned out in steps (`fanned_through`, the last subscription
 * written so far); the next due delivery is the first row of (state, next_attempt_at, delivery_id);
 * a notification's Telegram delivery is found without reading its push ones.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('fanned_through', 'integer').execute();
  await db.schema.dropIndex('notification_deliveries_due').execute();
  await db.schema
    .createIndex('notification_deliveries_due')
    .on('notification_deliveries')
    .columns(['state', 'next_attempt_at', 'delivery_id'])
    .execute();
  await db.schema.dropIndex('notification_deliveries_notification').execute();
  await db.schema
    .createIndex('notification_deliveries_notification')
    .on('notification_deliveries')
    .columns(['notification_id', 'channel', 'state'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('notification_deliveries_notification').execute();
  await db.schema
    .createIndex('notification_deliveries_notification')
    .on('notification_deliveries')
    .column('notification_id')
    .execute();
  await db.schema.dropIndex('notification_deliveries_due').execute();
  await db.schema
    .createIndex('notification_deliveries_due')
    .on('notification_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema.alterTable('notifications').dropColumn('fanned_through').execute();
}
