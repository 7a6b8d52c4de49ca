import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { removeSubscription } from '../push/push-repository.js';

export type Channel = 'push' | 'telegram';
export type FinishedState = 'sent' | 'failed' | 'superseded';

/** A delivery a sender holds the lease of, with what it needs to send it. */
export interface ClaimedDelivery {
  deliveryId: number;
  notificationId: number;
  channel: Channel;
  attempts: number;
  createdAt: string;
  gid: number;
  resultDate: string;
  value: string;
  corrected: boolean;
  declaredAt: string;
  nameEn: string;
  nameHn: string;
  /** Whether a later notification of the same ghadi and date exists (its push replaces this one's). */
  superseded: boolean;
  /** Whether an earlier Telegram delivery of the same ghadi and date is still unsent. */
  waitsForEarlier: boolean;
  subscription: { id: number; endpoint: string; p256dh: string; auth: string; lang: 'en' | 'hi' } | null;
}

/** The deliveries fanned out of notifications: claimed with a lease, then finished or postponed. */
export class NotificationDeliveriesRepository {
  constructor(private readonly database: Database) {}

  /**
   * Takes the lease of up to `limit` due deliveries nobody holds (or whose holder's lease ran out: it
   * crashed), in one statement: two senders never hold the same one. PostgreSQL skips rows another
   * sender is claiming rather than waiting for them; SQLite has one writer at a time.
   */
  async claim(limit: number, now: string, leaseUntil: string): Promise<ClaimedDelivery[]> {
    const db = this.database.db;
    let due = db
      .selectFrom('notification_deliveries')
      .select('delivery_id')
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      // The index's order (state, next_attempt_at, delivery_id): the first due rows, no sort of them all.
      .orderBy('next_attempt_at')
      .orderBy('delivery_id')
      .limit(limit);
    if (this.database.dialect === 'postgres') due = due.forUpdate().skipLocked();
    // A materialised CTE: read once. As an IN subquery PostgreSQL may plan it as a join whose
    // LIMIT does not bound the rows the update takes.
    const claimed = await db
      .with(
        (cte) => cte('due').materialized(),
        () => due,
      )
      .updateTable('notification_deliveries')
      // A held delivery falls due again when its lease runs out (its holder died): one column says
      // when each pending delivery is next due, so the next one is an index's first row.
      .set({ lease_until: leaseUntil, next_attempt_at: leaseUntil })
      .where('delivery_id', 'in', (eb) => eb.selectFrom('due').select('due.delivery_id'))
      // Checked again on the row itself: a PostgreSQL claimer that waited sees the winner's lease.
      .where('state', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returning('delivery_id')
      .execute();
    if (claimed.length === 0) return [];
    const rows = await db
      .selectFrom('notification_deliveries as d')
      .innerJoin('notifications as n', 'n.notification_id', 'd.notification_id')
      .innerJoin('ghadis as g', 'g.gid', 'n.gid')
      .leftJoin('push_subscriptions as s', 's.subscription_id', 'd.subscription_id')
      .select((eb) => [
        'd.delivery_id',
        'd.notification_id',
        'd.channel',
        'd.attempts',
        'd.created_at',
        'd.subscription_id',
        'n.gid',
        'n.result_date',
        'n.value',
        'n.corrected',
        'n.declared_at',
        'g.name_en',
        'g.name_hn',
        's.endpoint',
        's.p256dh',
        's.auth',
        's.lang',
        eb
          .exists(
            eb
              .selectFrom('notifications as later')
              .select('later.notification_id')
              .whereRef('later.gid', '=', 'n.gid')
              .whereRef('later.result_date', '=', 'n.result_date')
              .whereRef('later.notification_id', '>', 'n.notification_id'),
          )
          .as('superseded'),
        // Only a Telegram delivery waits (CASE: a push row never runs the search). From the result's
        // few notifications, each one's Telegram delivery by its index: never the push rows, of which
        // each notification has one per subscriber.
        eb
          .case()
          .when('d.channel', '=', 'telegram')
          .then(
            eb.exists(
              eb
                .selectFrom('notifications as en')
                .innerJoin(
                  'notification_deliveries as earlier',
                  'earlier.notification_id',
                  'en.notification_id',
                )
                .select('earlier.delivery_id')
                .whereRef('en.gid', '=', 'n.gid')
                .whereRef('en.result_date', '=', 'n.result_date')
                .whereRef('en.notification_id', '<', 'n.notification_id')
                .where('earlier.channel', '=', 'telegram')
                .where('earlier.state', '=', 'pending'),
            ),
          )
          .else(sql.lit(false))
          .end()
          .as('waits'),
      ])
      .where(
        'd.delivery_id',
        'in',
        claimed.map((row) => row.delivery_id),
      )
      .orderBy('d.delivery_id')
      .execute();
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      notificationId: row.notification_id,
      channel: row.channel,
      attempts: row.attempts,
      createdAt: row.created_at,
      gid: row.gid,
      resultDate: row.result_date,
      value: row.value,
      corrected: row.corrected === 1,
      declaredAt: row.declared_at,
      nameEn: row.name_en,
      nameHn: row.name_hn,
      superseded: Boolean(row.superseded),
      waitsForEarlier: row.channel === 'telegram' && Boolean(row.waits),
      subscription:
        row.subscription_id !== null && row.endpoint !== null
          ? {
              id: row.subscription_id,
              endpoint: row.endpoint,
              p256dh: row.p256dh ?? '',
              auth: row.auth ?? '',
              lang: row.lang ?? 'en',
            }
          : null,
    }));
  }

  /** Ends deliveries: sent, failed for good, or superseded by a later notification. */
  async finish(deliveryIds: readonly number[], state: FinishedState, now: string): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.database.db
      .updateTable('notification_deliveries')
      .set({ state, finished_at: now, lease_until: null })
      .where('delivery_id', 'in', deliveryIds)
      .execute();
  }

  /** Lets a delivery go until `at`, having tried it `attempts` times. */
  async postpone(deliveryId: number, attempts: number, at: string): Promise<void> {
    await this.database.db
      .updateTable('notification_deliveries')
      .set({ attempts, next_attempt_at: at, lease_until: null })
      .where('delivery_id', '=', deliveryId)
      .execute();
  }

  /** The push service says the subscription no longer exists: it goes, with what it still had to receive. */
  gone(deliveryId: number, subscriptionId: number, now: string): Promise<void> {
    return this.database.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('notification_deliveries')
        .set({ state: 'gone', finished_at: now, lease_until: null })
        .where('delivery_id', '=', deliveryId)
        .execute();
      await removeSubscription(trx, subscriptionId);
    });
  }

  /**
   * When the next delivery falls due (ISO), or null when none is waiting: a held one's lease end (the
   * claim makes it its next attempt), so a sender does not look for it before another's lease runs out.
   */
  async nextDue(): Promise<string | null> {
    const row = await this.database.db
      .selectFrom('notification_deliveries')
      .select('next_attempt_at')
      .where('state', '=', 'pending')
      .orderBy('next_attempt_at')
      .limit(1)
      .executeTakeFirst();
    return row?.next_attempt_at ?? null;
  }
}
