import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationsRepository } from '../../src/server/modules/notifications/notifications-repository.js';
import { createGhadi, loginAdmin } from '../support/factories.js';
import { createTestApp, DIALECTS, type TestApp } from '../support/test-app.js';

const NOW = '2026-11-28T17:30:00.000Z';

/**
 * A notification to many subscribers is fanned out in steps (one transaction each), so that no step
 * holds the event loop or the fan-out lock for long: every subscriber still gets one delivery, the
 * Telegram chat one, and the notification is fanned once the last step found fewer than a step's worth.
 */
describe.each(DIALECTS)('fanning a notification out in steps [%s]', (dialect) => {
  let t: TestApp;
  let gid: number;
  const subscribers = 1234;

  beforeAll(async () => {
    // No PUBLIC_URL and no Telegram: no sender runs, so the steps here are the only ones.
    t = await createTestApp(dialect);
    gid = (await createGhadi(t.app, await loginAdmin(t.app))).GID;
    const db = t.database.db;
    const rows = Array.from({ length: subscribers }, (_, index) => ({
      endpoint: `https://push.example.com/fan-out/${dialect}/${index}`,
      p256dh: 'k',
      auth: 'a',
      lang: index % 2 ? ('hi' as const) : ('en' as const),
      created_at: NOW,
      updated_at: NOW,
    }));
    for (let start = 0; start < rows.length; start += 500) {
      const made = await db
        .insertInto('push_subscriptions')
        .values(rows.slice(start, start + 500))
        .returning('subscription_id')
        .execute();
      await db
        .insertInto('push_subscription_ghadis')
        .values(made.map(({ subscription_id }) => ({ subscription_id, gid })))
        .execute();
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes one delivery per subscriber and one for Telegram, step by step, then marks it fanned', async () => {
    const repository = new NotificationsRepository(t.database);
    await t.database.db
      .transaction()
      .execute((trx) =>
        repository.enqueue(
          trx,
          { gid, date: '2026-11-28', value: '45', corrected: false, declaredAt: NOW },
          NOW,
        ),
      );
    const deliveries = () =>
      t.database.db.selectFrom('notification_deliveries').select(['channel', 'subscription_id']).execute();
    const steps: number[] = [];
    while ((await repository.fanOutStep({ push: true, telegram: true }, NOW)) > 0) {
      steps.push((await deliveries()).length);
      expect(steps.length).toBeLessThan(10);
    }
    // 500 + Telegram's, then 500 more, then the last 234: each step adds at most a step's worth.
    expect(steps).toEqual([501, 1001, 1235]);
    const written = await deliveries();
    const pushed = written.filter((row) => row.channel === 'push').map((row) => row.subscription_id);
    expect(new Set(pushed).size).toBe(subscribers);
    expect(written.filter((row) => row.channel === 'telegram')).toHaveLength(1);
    expect(await repository.hasPendingNotifications()).toBe(false);
  });
});
