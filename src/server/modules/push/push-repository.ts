import type { Database, Executor } from '../../db/database.js';
import { countRows } from '../../db/database.js';

export interface StoredSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: 'en' | 'hi';
  gids: number[];
}

/** Web Push subscriptions and the ghadis each follows. */
export class PushRepository {
  constructor(private readonly database: Database) {}

  /** How many of `gids` are ghadis that exist (not deleted). */
  async countLiveGhadis(gids: number[]): Promise<number> {
    return countRows(
      this.database.db.selectFrom('ghadis').where('gid', 'in', gids).where('is_deleted', '=', 0),
    );
  }

  async exists(endpoint: string): Promise<boolean> {
    const row = await this.database.db
      .selectFrom('push_subscriptions')
      .select('subscription_id')
      .where('endpoint', '=', endpoint)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Stores a subscription, or replaces the keys, language and ghadis of the one with its endpoint;
   * true when it is new. One transaction: a reader never sees it with half its ghadis.
   */
  save(subscription: StoredSubscription, now: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('push_subscriptions')
        .values({
          endpoint: subscription.endpoint,
          p256dh: subscription.p256dh,
          auth: subscription.auth,
          lang: subscription.lang,
          created_at: now,
          updated_at: now,
        })
        .onConflict((conflict) => conflict.column('endpoint').doNothing())
        .returning('subscription_id')
        .executeTakeFirst();
      let id = inserted?.subscription_id;
      if (id === undefined) {
        const updated = await trx
          .updateTable('push_subscriptions')
          .set({
            p256dh: subscription.p256dh,
            auth: subscription.auth,
            lang: subscription.lang,
            updated_at: now,
          })
          .where('endpoint', '=', subscription.endpoint)
          .returning('subscription_id')
          .executeTakeFirstOrThrow();
        id = updated.subscription_id;
        await trx.deleteFrom('push_subscription_ghadis').where('subscription_id', '=', id).execute();
      }
      const subscriptionId = id;
      await trx
        .insertInto('push_subscription_ghadis')
        .values([...new Set(subscription.gids)].map((gid) => ({ subscription_id: subscriptionId, gid })))
        .execute();
      return inserted !== undefined;
    });
  }

  /** Removes the subscription with this endpoint, if any, with what it was still to be sent. */
  removeByEndpoint(endpoint: string): Promise<void> {
    return this.database.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('push_subscriptions')
        .select('subscription_id')
        .where('endpoint', '=', endpoint)
        .executeTakeFirst();
      if (row) await removeSubscription(trx, row.subscription_id);
    });
  }

  count(): Promise<number> {
    return countRows(this.database.db.selectFrom('push_subscriptions'));
  }
}

/**
 * Removes a subscription, the ghadis it follows and its unsent deliveries, in the caller's
 * transaction (the route's, or a sender's that was told the endpoint is gone).
 */
export async function removeSubscription(trx: Executor, subscriptionId: number): Promise<void> {
  await trx
    .deleteFrom('notification_deliveries')
    .where('subscription_id', '=', subscriptionId)
    .where('state', '=', 'pending')
    .execute();
  await trx.deleteFrom('push_subscription_ghadis').where('subscription_id', '=', subscriptionId).execute();
  await trx.deleteFrom('push_subscriptions').where('subscription_id', '=', subscriptionId).execute();
}
