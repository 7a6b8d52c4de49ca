import { type Database, type Executor, inLockedTransaction } from '../../db/database.js';

export interface NewNotification {
  gid: number;
  date: string;
  value: string;
  corrected: boolean;
  declaredAt: string;
}

const FAN_OUT_LOCK = 'notification-fan-out';
/** Subscriptions a fan-out step writes deliveries for (one transaction, one statement). */
const FAN_OUT_STEP = 500;

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
   * One step of turning the oldest pending notification into deliveries: its Telegram delivery at
   * the first step, then the next FAN_OUT_STEP subscriptions following its ghadi, in a transaction
   * that excludes other processes' steps. A notification to 10 000 is written in steps so that none
   * holds the event loop (SQLite) or the lock for long, and its first deliveries go while the rest
   * are written. Returns 0 when nothing was pending.
   */
  fanOutStep(channels: { push: boolean; telegram: boolean }, now: string): Promise<number> {
    return inLockedTransaction(this.database, FAN_OUT_LOCK, async (trx) => {
      const next = await trx
        .selectFrom('notifications')
        .select(['notification_id', 'gid', 'fanned_through'])
        .where('state', '=', 'pending')
        .orderBy('notification_id')
        .limit(1)
        .executeTakeFirst();
      if (!next) return 0;
      const { notification_id, gid } = next;
      const pending = {
        notification_id,
        state: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
      };
      if (next.fanned_through === null && channels.telegram)
        await trx
          .insertInto('notification_deliveries')
          .values({ ...pending, channel: 'telegram', subscription_id: null })
          .execute();
      let through = next.fanned_through ?? 0;
      let done = true;
      if (channels.push) {
        const step = await trx
          .selectFrom('push_subscription_ghadis')
          .select('subscription_id')
          .where('gid', '=', gid)
          .where('subscription_id', '>', through)
          .orderBy('subscription_id')
          .limit(FAN_OUT_STEP)
          .execute();
        if (step.length > 0)
          await trx
            .insertInto('notification_deliveries')
            .values(
              step.map(({ subscription_id }) => ({ ...pending, channel: 'push' as const, subscription_id })),
            )
            .execute();
        through = step.at(-1)?.subscription_id ?? through;
        done = step.length < FAN_OUT_STEP;
      }
      await trx
        .updateTable('notifications')
        .set({ state: done ? 'fanned' : 'pending', fanned_through: through })
        .where('notification_id', '=', notification_id)
        .execute();
      return 1;
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
