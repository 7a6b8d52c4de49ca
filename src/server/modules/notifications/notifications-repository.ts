import { sql } from 'kysely';
import { type Database, type Executor, inLockedTransaction } from '../../db/database.js';

export interface NewNotification {
  gid: number;
  date: string;
  value: string;
  corrected: boolean;
  declaredAt: string;
}

const FAN_OUT_LOCK = 'notification-fan-out';
/** Notifications fanned out per transaction. */
const FAN_OUT_BATCH = 20;

/** The outbox: notifications written with results, their fan-out into deliveries, the Telegram messages sent. */
export class NotificationsRepository {
  constructor(private readonly database: Database) {}

  /** In the caller's transaction: the one that writes the result. */
  async enqueue(trx: Executor, notification: NewNotification, now: string): Promise<void> {
    await trx
      .insertInto('notifications')
      .values({
        gid: notification.gid,
        result_date: notification.date,
        value: notification.value,
        corrected: notification.corrected ? 1 : 0,
        declared_at: notification.declaredAt,
        state: 'pending',
        created_at: now,
      })
      .execute();
  }

  /**
   * Turns pending notifications into one delivery per subscription following the ghadi (and one for
   * Telegram), each batch in one transaction that excludes other processes' fan-outs: a notification
   * is fanned out once, whole or not at all. Returns how many it fanned out.
   */
  fanOut(channels: { push: boolean; telegram: boolean }, now: string): Promise<number> {
    return inLockedTransaction(this.database, FAN_OUT_LOCK, async (trx) => {
      const pending = await trx
        .selectFrom('notifications')
        .select(['notification_id', 'gid'])
        .where('state', '=', 'pending')
        .orderBy('notification_id')
        .limit(FAN_OUT_BATCH)
        .execute();
      for (const { notification_id, gid } of pending) {
        if (channels.push)
          await trx
            .insertInto('notification_deliveries')
            .columns([
              'notification_id',
              'channel',
              'subscription_id',
              'state',
              'attempts',
              'next_attempt_at',
              'created_at',
            ])
            .expression(
              trx
                .selectFrom('push_subscription_ghadis')
                .select([
                  sql.lit(notification_id).as('notification_id'),
                  sql.lit('push').as('channel'),
                  'subscription_id',
                  sql.lit('pending').as('state'),
                  sql.lit(0).as('attempts'),
                  sql.val(now).as('next_attempt_at'),
                  sql.val(now).as('created_at'),
                ])
                .where('gid', '=', gid),
            )
            .execute();
        if (channels.telegram)
          await trx
            .insertInto('notification_deliveries')
            .values({
              notification_id,
              channel: 'telegram',
              subscription_id: null,
              state: 'pending',
              attempts: 0,
              next_attempt_at: now,
              created_at: now,
            })
            .execute();
        await trx
          .updateTable('notifications')
          .set({ state: 'fanned' })
          .where('notification_id', '=', notification_id)
          .execute();
      }
      return pending.length;
    });
  }

  async hasPendingNotifications(): Promise<boolean> {
    const row = await this.database.db
      .selectFrom('notifications')
      .select('notification_id')
      .where('state', '=', 'pending')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async telegramMessageOf(gid: number, date: string): Promise<number | null> {
    const row = await this.database.db
      .selectFrom('telegram_messages')
      .select('message_id')
      .where('gid', '=', gid)
      .where('result_date', '=', date)
      .executeTakeFirst();
    return row ? Number(row.message_id) : null;
  }

  async keepTelegramMessage(gid: number, date: string, messageId: number, now: string): Promise<void> {
    await this.database.db
      .insertInto('telegram_messages')
      .values({ gid, result_date: date, message_id: messageId, sent_at: now })
      .onConflict((conflict) =>
        conflict.columns(['gid', 'result_date']).doUpdateSet({ message_id: messageId, sent_at: now }),
      )
      .execute();
  }

  /**
   * Forgets what is done: deliveries finished before `finishedBefore`, notifications with none left
   * unsent, and Telegram messages sent before `messagesBefore` (no correction edits them any more).
   */
  async prune(finishedBefore: string, messagesBefore: string): Promise<void> {
    const db = this.database.db;
    await db
      .deleteFrom('notification_deliveries')
      .where('state', '!=', 'pending')
      .where('finished_at', '<', finishedBefore)
      .execute();
    await db
      .deleteFrom('notifications')
      .where('state', '=', 'fanned')
      .where('created_at', '<', finishedBefore)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('notification_deliveries as d')
              .select('d.delivery_id')
              .whereRef('d.notification_id', '=', 'notifications.notification_id'),
          ),
        ),
      )
      .execute();
    await db.deleteFrom('telegram_messages').where('sent_at', '<', messagesBefore).execute();
  }
}
