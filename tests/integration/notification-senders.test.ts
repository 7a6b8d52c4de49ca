import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type PushService, startPushService, type TestSubscription } from '../../bench/lib/push-service.js';
import {
  call,
  createGhadi,
  expectStatus,
  loginAdmin,
  postResult,
  today,
  uniqueAddress,
} from '../support/factories.js';
import { pollUntil } from '../support/poll-until.js';
import { createTestApp, DIALECTS, type TestApp, tempDir } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

const BOUND_MS = 15_000;

/**
 * The one-sender rule across processes (decision 0025): several apps on one database, each with its
 * own connection as another process would have, and an app stopped gracefully mid-delivery.
 */
describe.each(DIALECTS)('notification senders [%s]', (dialect) => {
  const dir = tempDir();
  const clock = new TestClock();
  let service: PushService | undefined;
  let t: TestApp | undefined;

  afterEach(async () => {
    await t?.close();
    await service?.close();
    t = undefined;
    service = undefined;
  });

  const start = async (
    name: string,
    options: { concurrency: number; onStopping?: () => void },
  ): Promise<{ t: TestApp; service: PushService }> => {
    service = await startPushService();
    t = await createTestApp(dialect, {
      sqliteFile: path.join(dir(), `${name}.db`),
      env: {
        PUBLIC_URL: 'https://results.example',
        PUSH_ALLOW_LOOPBACK: 'true',
        PUSH_SUBSCRIPTIONS_PER_MINUTE: '100000',
      },
      now: clock.now,
      notifications: { pollMs: 20, pushTls: { ca: service.caPem }, ...options },
    });
    return { t, service };
  };

  const subscribeMany = async (app: TestApp, push: PushService, gid: number, count: number) => {
    const publicKey = expectStatus<{ publicKey: string }>(
      await call(app.app, { url: '/api/push/key' }),
      200,
    ).publicKey;
    const subscriptions: TestSubscription[] = [];
    for (let index = 0; index < count; index++) {
      const subscription = push.subscription({ applicationServerKey: publicKey });
      expectStatus(
        await call(app.app, {
          method: 'POST',
          url: '/api/push/subscriptions',
          body: { subscription, ghadis: [gid], lang: 'en' },
          remoteAddress: uniqueAddress(),
        }),
        201,
      );
      subscriptions.push(subscription);
    }
    return subscriptions;
  };

  const deliveryStates = async (app: TestApp) => {
    const rows = await app.database.db
      .selectFrom('notification_deliveries')
      .select(['state', 'lease_until'])
      .execute();
    return rows;
  };

  const receivedOnce = (push: PushService, subscriptions: TestSubscription[]) =>
    subscriptions.map(
      (subscription) => push.messages.filter((message) => message.subscriptionId === subscription.id).length,
    );

  it('two apps on one database deliver each notification exactly once', async () => {
    const { t: app, service: push } = await start('two-apps', { concurrency: 3 });
    const another = await app.startAnother({ ownConnection: true });
    const adminToken = await loginAdmin(app.app);
    const ghadi = await createGhadi(app.app, adminToken);
    const subscriptions = await subscribeMany(app, push, ghadi.GID, 24);
    // Slow answers keep each app's few places busy, so the other claims too.
    for (const subscription of subscriptions) push.behave(subscription.id, { delayMs: 5 });

    expectStatus(
      await postResult(another, adminToken, { ghadiId: ghadi.GID, result: '45', dateTime: today() }),
      200,
    );
    await pollUntil('every subscription to be sent to', BOUND_MS, async () => {
      const rows = await deliveryStates(app);
      return rows.length === subscriptions.length && rows.every((row) => row.state === 'sent')
        ? true
        : undefined;
    });
    expect(receivedOnce(push, subscriptions)).toEqual(subscriptions.map(() => 1));
    expect(push.messages.every((message) => message.status === 201)).toBe(true);
  });

  it('a graceful stop mid-delivery finishes what it holds; a new app sends the rest, none twice', async () => {
    let stopping: (() => void) | undefined;
    const stopped = new Promise<void>((resolve) => {
      stopping = resolve;
    });
    const { t: app, service: push } = await start('graceful-stop', {
      concurrency: 2,
      onStopping: () => stopping?.(),
    });
    const adminToken = await loginAdmin(app.app);
    const ghadi = await createGhadi(app.app, adminToken);
    const subscriptions = await subscribeMany(app, push, ghadi.GID, 6);
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const subscription of subscriptions) push.behave(subscription.id, { until: held });

    expectStatus(
      await postResult(app.app, adminToken, { ghadiId: ghadi.GID, result: '45', dateTime: today() }),
      200,
    );
    // Both places are taken: two requests wait at the push service for their answer.
    await pollUntil('two pushes in flight', BOUND_MS, async () =>
      push.messages.length === 2 ? true : undefined,
    );
    const closing = app.app.close();
    await stopped;
    // Claiming has stopped with the two still held: their answers come now, and the close waits for them.
    release?.();
    await closing;
    expect(push.messages).toHaveLength(2);
    const afterStop = await deliveryStates(app);
    expect(afterStop.filter((row) => row.state === 'sent')).toHaveLength(2);
    expect(afterStop.filter((row) => row.state === 'pending')).toHaveLength(4);
    expect(afterStop.every((row) => row.lease_until === null)).toBe(true);

    // The next start (a new process on the same database) sends the rest.
    await app.startAnother({ ownConnection: true });
    await pollUntil('the rest to be sent', BOUND_MS, async () => {
      const rows = await deliveryStates(app);
      return rows.every((row) => row.state === 'sent') ? true : undefined;
    });
    expect(receivedOnce(push, subscriptions)).toEqual(subscriptions.map(() => 1));
  });

  it('a sender that died holding deliveries loses none: its lease runs out and another sends them', async () => {
    const { t: app, service: push } = await start('crash', { concurrency: 5 });
    const adminToken = await loginAdmin(app.app);
    const ghadi = await createGhadi(app.app, adminToken);
    const subscriptions = await subscribeMany(app, push, ghadi.GID, 3);
    await app.app.close();
    // What a process that crashed mid-delivery leaves: a fanned-out notification whose deliveries it
    // had claimed (leased for a minute) and never finished.
    const now = clock.now();
    const iso = (offsetMs: number) => new Date(now + offsetMs).toISOString();
    const notification = await app.database.db
      .insertInto('notifications')
      .values({
        gid: ghadi.GID,
        result_date: today(),
        value: '77',
        corrected: 0,
        declared_at: iso(0),
        state: 'fanned',
        created_at: iso(0),
      })
      .returning('notification_id')
      .executeTakeFirstOrThrow();
    const stored = await app.database.db.selectFrom('push_subscriptions').select('subscription_id').execute();
    await app.database.db
      .insertInto('notification_deliveries')
      .values(
        stored.map((row) => ({
          notification_id: notification.notification_id,
          channel: 'push' as const,
          subscription_id: row.subscription_id,
          state: 'pending' as const,
          attempts: 0,
          // As a claim leaves them: held until the lease ends, and due again then.
          next_attempt_at: iso(60_000),
          lease_until: iso(60_000),
          created_at: iso(0),
        })),
      )
      .execute();
    await app.startAnother({ ownConnection: true });
    clock.advance(60_001);
    await pollUntil('the expired leases to be taken over', BOUND_MS, async () => {
      const rows = await deliveryStates(app);
      return rows.every((row) => row.state === 'sent') ? true : undefined;
    });
    expect(receivedOnce(push, subscriptions)).toEqual([1, 1, 1]);
  });
});
