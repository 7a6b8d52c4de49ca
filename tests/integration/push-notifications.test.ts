import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PushService,
  type ReceivedPush,
  startPushService,
  type TestSubscription,
} from '../../bench/lib/push-service.js';
import { BACK_OFF_MS } from '../../src/server/modules/notifications/notification-dispatcher.js';
import { timeInZone } from '../../src/shared/dates.js';
import { foldName } from '../../src/shared/names.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { PushPayload } from '../../src/shared/schemas/push.js';
import { dayLabel } from '../support/day-label.js';
import {
  call,
  createGhadi,
  daysFromToday,
  expectStatus,
  importResults,
  loginAdmin,
  postResult,
  today,
  uniqueAddress,
} from '../support/factories.js';
import { pollUntil } from '../support/poll-until.js';
import { sample } from '../support/prometheus-text.js';
import { createTestApp, DIALECTS, SITE_TIMEZONE, type TestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

const PUBLIC_URL = 'https://results.example';
const BOUND_MS = 10_000;
const METRICS_TOKEN = 'push-metrics-token-0123456789';

function payloadOf(message: ReceivedPush): PushPayload {
  return message.payload as PushPayload;
}

describe.each(DIALECTS)('push notifications [%s]', (dialect) => {
  const clock = new TestClock();
  let service: PushService;
  let t: TestApp;
  let adminToken: string;
  let publicKey: string;

  beforeAll(async () => {
    service = await startPushService();
    t = await createTestApp(dialect, {
      env: {
        PUBLIC_URL,
        PUSH_ALLOW_LOOPBACK: 'true',
        PUSH_SUBSCRIPTIONS_PER_MINUTE: '100000',
        METRICS_TOKEN,
      },
      now: clock.now,
      notifications: { pollMs: 20, pushTls: { ca: service.caPem } },
    });
    adminToken = await loginAdmin(t.app);
    publicKey = expectStatus<{ publicKey: string }>(
      await call(t.app, { url: '/api/push/key' }),
      200,
    ).publicKey;
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });

  const subscribe = async (gid: number, lang: 'en' | 'hi' = 'en'): Promise<TestSubscription> => {
    const subscription = service.subscription({ applicationServerKey: publicKey });
    expectStatus(
      await call(t.app, {
        method: 'POST',
        url: '/api/push/subscriptions',
        body: { subscription, ghadis: [gid], lang },
        remoteAddress: uniqueAddress(),
      }),
      201,
    );
    return subscription;
  };
  const declare = async (gid: number, result: string, date = today()) =>
    expectStatus(await postResult(t.app, adminToken, { ghadiId: gid, result, dateTime: date }), 200);
  const messagesOf = (subscription: TestSubscription) =>
    service.messages.filter((message) => message.subscriptionId === subscription.id);
  const notificationsOf = (gid: number) =>
    t.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('gid', '=', gid)
      .orderBy('notification_id')
      .execute();
  /** Every notification of the ghadi is fanned out and each of its deliveries has ended. */
  const settled = (gid: number) =>
    pollUntil(`the deliveries of ghadi ${gid} to end`, BOUND_MS, async () => {
      const notifications = await notificationsOf(gid);
      if (notifications.some((notification) => notification.state === 'pending')) return undefined;
      const pending = await t.database.db
        .selectFrom('notification_deliveries as d')
        .innerJoin('notifications as n', 'n.notification_id', 'd.notification_id')
        .select('d.delivery_id')
        .where('n.gid', '=', gid)
        .where('d.state', '=', 'pending')
        .execute();
      return pending.length === 0 ? true : undefined;
    });
  const deliveryOf = (subscriptionEndpoint: string) =>
    t.database.db
      .selectFrom('notification_deliveries as d')
      .innerJoin('push_subscriptions as s', 's.subscription_id', 'd.subscription_id')
      .select(['d.state', 'd.attempts', 'd.next_attempt_at', 'd.lease_until'])
      .where('s.endpoint', '=', subscriptionEndpoint)
      .executeTakeFirst();

  it('notifies each subscriber of a declaration for today once, in its language', async () => {
    const ghadi: GhadiRecord = await createGhadi(t.app, adminToken);
    const other = await createGhadi(t.app, adminToken);
    const english = await subscribe(ghadi.GID, 'en');
    const hindi = await subscribe(ghadi.GID, 'hi');
    const elsewhere = await subscribe(other.GID, 'en');

    await declare(ghadi.GID, '45');
    await settled(ghadi.GID);
    const [notification] = await notificationsOf(ghadi.GID);
    if (!notification) throw new Error('no notification was enqueued');
    const time = timeInZone(notification.declared_at, SITE_TIMEZONE);
    const path = `/satta-results/${encodeURIComponent(foldName(ghadi.NameEn))}`;

    expect(messagesOf(english)).toHaveLength(1);
    expect(messagesOf(hindi)).toHaveLength(1);
    expect(messagesOf(elsewhere)).toHaveLength(0);
    const [en] = messagesOf(english);
    const [hi] = messagesOf(hindi);
    expect(en?.error).toBeNull();
    expect(en?.status).toBe(201);
    expect(en?.payload).toEqual({
      title: `${ghadi.NameEn}: 45`,
      body: `${dayLabel(today(), 'en-GB')}, ${time}`,
      url: `${PUBLIC_URL}${path}`,
      tag: `ghadi-${ghadi.GID}`,
    });
    expect(hi?.payload).toEqual({
      title: `${ghadi.NameHn}: 45`,
      body: `${dayLabel(today(), 'hi-IN')}, ${time}`,
      url: `${PUBLIC_URL}/hi${path}`,
      tag: `ghadi-${ghadi.GID}`,
    });
    for (const message of [en, hi]) {
      expect(message?.vapidOk).toBe(true);
      expect(message?.topic).toBe(`ghadi-${ghadi.GID}`);
      expect(message?.urgency).toBe('high');
      expect(message?.ttl).toBe(10_800);
    }
  });

  it('says so when a result is corrected, with the same topic', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const english = await subscribe(ghadi.GID, 'en');
    const hindi = await subscribe(ghadi.GID, 'hi');
    await declare(ghadi.GID, '12', daysFromToday(-1));
    await settled(ghadi.GID);
    await declare(ghadi.GID, '21', daysFromToday(-1));
    await settled(ghadi.GID);
    expect(messagesOf(english)).toHaveLength(2);
    const [first, corrected] = messagesOf(english).map(payloadOf);
    expect(first?.title).toBe(`${ghadi.NameEn}: 12`);
    expect(first?.body).not.toMatch(/corrected/);
    expect(corrected?.title).toBe(`${ghadi.NameEn}: 21`);
    expect(corrected?.body).toMatch(/ · corrected$/);
    expect(corrected?.body).toContain(dayLabel(daysFromToday(-1), 'en-GB'));
    expect(messagesOf(hindi).map(payloadOf)[1]?.body).toMatch(/ · सुधार$/);
    expect(messagesOf(english).map((message) => message.topic)).toEqual([
      `ghadi-${ghadi.GID}`,
      `ghadi-${ghadi.GID}`,
    ]);
  });

  it('does not notify a CSV import, nor a declaration for an older date', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    await subscribe(ghadi.GID);
    await importResults(t.app, adminToken, [[today(), ghadi.GID, '33']]);
    await declare(ghadi.GID, '44', daysFromToday(-2));
    expect(await notificationsOf(ghadi.GID)).toEqual([]);
    // The same ghadi's declaration for today is notified: the two above were not lost on the way.
    await declare(ghadi.GID, '55');
    expect(await notificationsOf(ghadi.GID)).toHaveLength(1);
  });

  it('removes a subscription its push service says is gone (410)', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const gone = await subscribe(ghadi.GID);
    const kept = await subscribe(ghadi.GID);
    service.behave(gone.id, { status: 410 });
    await declare(ghadi.GID, '67');
    await settled(ghadi.GID);
    expect(messagesOf(gone).map((message) => message.status)).toEqual([410]);
    expect(messagesOf(kept).map((message) => message.status)).toEqual([201]);
    const endpoints = await t.database.db.selectFrom('push_subscriptions').select('endpoint').execute();
    expect(endpoints.map((row) => row.endpoint)).not.toContain(gone.endpoint);
    expect(endpoints.map((row) => row.endpoint)).toContain(kept.endpoint);
  });

  it('tries again after a failure, with back-off, then delivers', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const flaky = await subscribe(ghadi.GID);
    service.behave(flaky.id, { status: 503 });
    await declare(ghadi.GID, '78');
    await service.waitForMessage((message) => message.subscriptionId === flaky.id);
    const postponed = await pollUntil('the failed delivery to be let go', BOUND_MS, async () => {
      const row = await deliveryOf(flaky.endpoint);
      return row && row.attempts === 1 && row.lease_until === null ? row : undefined;
    });
    expect(postponed.state).toBe('pending');
    expect(Date.parse(postponed.next_attempt_at)).toBe(clock.now() + (BACK_OFF_MS[0] ?? 0));
    service.behave(flaky.id, null);
    clock.advance(BACK_OFF_MS[0] ?? 0);
    await settled(ghadi.GID);
    expect(messagesOf(flaky).map((message) => message.status)).toEqual([503, 201]);
    expect((await deliveryOf(flaky.endpoint))?.state).toBe('sent');
  });

  it('waits as long as a 429’s Retry-After asks', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const throttled = await subscribe(ghadi.GID);
    service.behave(throttled.id, { status: 429, retryAfter: 120 });
    await declare(ghadi.GID, '89');
    await service.waitForMessage((message) => message.subscriptionId === throttled.id);
    const postponed = await pollUntil('the throttled delivery to be let go', BOUND_MS, async () => {
      const row = await deliveryOf(throttled.endpoint);
      return row && row.attempts === 1 && row.lease_until === null ? row : undefined;
    });
    expect(Date.parse(postponed.next_attempt_at)).toBe(clock.now() + 120_000);
    service.behave(throttled.id, null);
    clock.advance(120_000);
    await settled(ghadi.GID);
    expect(messagesOf(throttled).map((message) => message.status)).toEqual([429, 201]);
  });

  it('gives up after five attempts', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const broken = await subscribe(ghadi.GID);
    service.behave(broken.id, { status: 500 });
    await declare(ghadi.GID, '90');
    for (const [index, waitMs] of BACK_OFF_MS.entries()) {
      await pollUntil(`attempt ${index + 1} to end`, BOUND_MS, async () => {
        const row = await deliveryOf(broken.endpoint);
        return row && row.attempts === index + 1 && row.lease_until === null ? true : undefined;
      });
      clock.advance(waitMs);
    }
    await settled(ghadi.GID);
    expect(messagesOf(broken).map((message) => message.status)).toEqual([500, 500, 500, 500, 500]);
    expect((await deliveryOf(broken.endpoint))?.state).toBe('failed');
  });

  it('counts what was sent, failed and removed, and the subscriptions stored', async () => {
    const answer = await call(t.app, {
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(answer.statusCode).toBe(200);
    const text = answer.body;
    const delivered = service.messages.filter((message) => message.status === 201).length;
    expect(sample(text, 'notifications_sent_total', { channel: 'push' })).toBe(delivered);
    expect(sample(text, 'notifications_failed_total', { channel: 'push' })).toBe(1);
    expect(sample(text, 'notifications_removed_total', { channel: 'push' })).toBe(1);
    expect(sample(text, 'notification_delivery_lag_seconds_count', { channel: 'push' })).toBe(delivered);
    const stored = await t.database.db.selectFrom('push_subscriptions').select('subscription_id').execute();
    // The gauge is the database's count as of the last scrape that had it in time (a scrape never
    // waits long on the database): a later scrape shows it.
    await expect
      .poll(async () => {
        const again = await call(t.app, {
          url: '/metrics',
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        return sample(again.body, 'push_subscriptions');
      })
      .toBe(stored.length);
  });
});
