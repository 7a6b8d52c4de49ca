import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { PUSH_OFF_MESSAGE } from '../../src/server/modules/push/push-routes.js';
import {
  call,
  createGhadi,
  expectStatus,
  type Failure,
  loginAdmin,
  uniqueAddress,
} from '../support/factories.js';
import { createTestApp, DIALECTS, type TestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

const PUBLIC_URL = 'https://results.example';
const PER_MINUTE = 3;

function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
}

let endpointSequence = 0;
function newEndpoint(): string {
  endpointSequence += 1;
  return `https://push.example.net/send/${process.pid}-${endpointSequence}-${randomBytes(4).toString('hex')}`;
}

describe.each(DIALECTS)('push subscriptions [%s]', (dialect) => {
  const clock = new TestClock();
  let t: TestApp;
  let gids: number[];

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { PUBLIC_URL, PUSH_SUBSCRIPTIONS_PER_MINUTE: String(PER_MINUTE) },
      now: clock.now,
    });
    const rows = await t.database.db.selectFrom('ghadis').select('gid').orderBy('gid').execute();
    gids = rows.map((row) => row.gid);
  });
  afterAll(async () => {
    await t?.close();
  });

  const subscribe = (body: unknown, remoteAddress = '203.0.113.7') =>
    call(t.app, { method: 'POST', url: '/api/push/subscriptions', body, remoteAddress });
  const unsubscribe = (endpoint: string) =>
    call(t.app, { method: 'DELETE', url: '/api/push/subscriptions', body: { endpoint } });
  const storedCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('push_subscriptions')
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );
  const stored = (endpoint: string) =>
    t.database.db
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('endpoint', '=', endpoint)
      .executeTakeFirst();
  const followed = async (endpoint: string) => {
    const rows = await t.database.db
      .selectFrom('push_subscription_ghadis as g')
      .innerJoin('push_subscriptions as s', 's.subscription_id', 'g.subscription_id')
      .select('g.gid')
      .where('s.endpoint', '=', endpoint)
      .orderBy('g.gid')
      .execute();
    return rows.map((row) => row.gid);
  };
  const valid = (overrides: Record<string, unknown> = {}) => ({
    subscription: { endpoint: newEndpoint(), expirationTime: null, keys: browserKeys() },
    ghadis: [gids[0]],
    lang: 'en',
    ...overrides,
  });

  it('GET /api/push/key answers the VAPID public key, kept across restarts', async () => {
    const first = expectStatus<{ success: true; publicKey: string }>(
      await call(t.app, { url: '/api/push/key' }),
      200,
    );
    const key = Buffer.from(first.publicKey, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    await t.restart();
    const again = expectStatus<{ publicKey: string }>(await call(t.app, { url: '/api/push/key' }), 200);
    expect(again.publicKey).toBe(first.publicKey);
    const settings = await t.database.db
      .selectFrom('settings')
      .select('key')
      .where('key', 'like', 'vapid%')
      .execute();
    expect(settings.map((row) => row.key).sort()).toEqual(['vapid_private_key', 'vapid_public_key']);
  });

  it('a new endpoint answers 201; the same endpoint again 200, replacing its ghadis and language', async () => {
    clock.toNextMinute();
    const body = valid({ ghadis: [gids[0], gids[1]] });
    const created = expectStatus<Record<string, unknown>>(await subscribe(body), 201);
    // Nothing of the subscription (this one's or another's) comes back.
    expect(Object.keys(created).sort()).toEqual(['message', 'success']);
    expect(await followed(body.subscription.endpoint)).toEqual(
      [gids[0], gids[1]].sort((a, b) => (a ?? 0) - (b ?? 0)),
    );
    expect((await stored(body.subscription.endpoint))?.lang).toBe('en');

    const before = await storedCount();
    expectStatus(await subscribe({ ...body, ghadis: [gids[2]], lang: 'hi' }), 200);
    expect(await storedCount()).toBe(before);
    expect(await followed(body.subscription.endpoint)).toEqual([gids[2]]);
    expect((await stored(body.subscription.endpoint))?.lang).toBe('hi');
  });

  it('is public: no token is asked, and an invalid one is ignored', async () => {
    clock.toNextMinute();
    const body = valid();
    const answer = await call(t.app, {
      method: 'POST',
      url: '/api/push/subscriptions',
      body,
      token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.invalid-signature',
      remoteAddress: uniqueAddress(),
    });
    expectStatus(answer, 201);
    expectStatus(
      await call(t.app, {
        method: 'DELETE',
        url: '/api/push/subscriptions',
        body: { endpoint: body.subscription.endpoint },
        token: 'not-a-token',
      }),
      200,
    );
    expectStatus(await call(t.app, { url: '/api/push/key', token: 'not-a-token' }), 200);
  });

  it('DELETE removes the subscription and answers 200 again once it is gone', async () => {
    clock.toNextMinute();
    const body = valid();
    expectStatus(await subscribe(body), 201);
    expectStatus(await unsubscribe(body.subscription.endpoint), 200);
    expect(await stored(body.subscription.endpoint)).toBeUndefined();
    expect(await followed(body.subscription.endpoint)).toEqual([]);
    expectStatus(await unsubscribe(body.subscription.endpoint), 200);
    expectStatus(await unsubscribe(newEndpoint()), 200);
  });

  it('refuses each bad subscription with a 400 and stores nothing', async () => {
    clock.toNextMinute();
    const deleted = await createGhadi(t.app, await loginAdmin(t.app));
    expectStatus(
      await call(t.app, {
        method: 'DELETE',
        url: `/api/ghadis/${deleted.GID}`,
        token: await loginAdmin(t.app),
      }),
      200,
    );
    const base = valid();
    const cases: Array<[string, unknown]> = [
      [
        'an endpoint over 1000 characters',
        {
          ...base,
          subscription: { ...base.subscription, endpoint: `https://push.example.net/${'a'.repeat(1000)}` },
        },
      ],
      [
        'a plain http endpoint',
        { ...base, subscription: { ...base.subscription, endpoint: 'http://push.example.net/x' } },
      ],
      [
        'an endpoint that is no URL',
        { ...base, subscription: { ...base.subscription, endpoint: 'push.example.net/x' } },
      ],
      ['no ghadis', { ...base, ghadis: [] }],
      ['more than 100 ghadis', { ...base, ghadis: Array.from({ length: 101 }, (_, index) => index + 1) }],
      ['an unknown ghadi', { ...base, ghadis: [gids[0], 2_000_000] }],
      ['a deleted ghadi', { ...base, ghadis: [deleted.GID] }],
      ['another language', { ...base, lang: 'fr' }],
      ['no language', { subscription: base.subscription, ghadis: base.ghadis }],
      ['no keys', { ...base, subscription: { endpoint: base.subscription.endpoint } }],
      [
        'a short p256dh key',
        {
          ...base,
          subscription: { ...base.subscription, keys: { ...base.subscription.keys, p256dh: 'AAAA' } },
        },
      ],
    ];
    const before = await storedCount();
    for (const [what, body] of cases) {
      const answer = await subscribe(body);
      expect(answer.statusCode, what).toBe(400);
      expect(answer.json<Failure>().success, what).toBe(false);
    }
    expect(await storedCount()).toBe(before);
    expect(await stored(base.subscription.endpoint)).toBeUndefined();
  });

  it('refuses a body over 4 KB with 400, and one past 16 KB unread with 413', async () => {
    const base = valid();
    const big = await subscribe({ ...base, padding: 'x'.repeat(4200) });
    expect(big.statusCode).toBe(400);
    expect(big.json<Failure>().message).toContain('4 KB');
    const huge = await subscribe({ ...base, padding: 'x'.repeat(17_000) });
    expect(huge.statusCode).toBe(413);
    expect(await stored(base.subscription.endpoint)).toBeUndefined();
  });

  it('refuses endpoints on internal addresses, however they are spelled', async () => {
    clock.toNextMinute();
    const spellings = [
      'https://127.0.0.1/push',
      'https://2130706433/push',
      'https://0x7f.1/push',
      'https://0x7f000001/push',
      'https://017700000001/push',
      'https://127.1/push',
      'https://[::1]/push',
      'https://[::ffff:127.0.0.1]/push',
      'https://[::ffff:7f00:1]/push',
      'https://0.0.0.0/push',
      'https://0/push',
      'https://[::]/push',
      'https://10.1.2.3/push',
      'https://172.16.0.1/push',
      'https://192.168.1.1/push',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/push',
      'https://224.0.0.1/push',
      'https://255.255.255.255/push',
      'https://[fc00::1]/push',
      'https://[fd12:3456::1]/push',
      'https://[fe80::1]/push',
      'https://[ff02::1]/push',
      'https://[64:ff9b::a00:1]/push',
      'https://[2002:a00:1::]/push',
      'https://localhost/push',
      'https://push.localhost/push',
      'https://user:secret@push.example.net/push',
    ];
    const before = await storedCount();
    for (const endpoint of spellings) {
      const answer = await subscribe(valid({ subscription: { endpoint, keys: browserKeys() } }));
      expect(answer.statusCode, endpoint).toBe(400);
      expect(answer.json<Failure>().message, endpoint).toMatch(/subscription\.endpoint/);
    }
    expect(await storedCount()).toBe(before);
    // The documentation range is no push service's; a public address literal is one like any other.
    expectStatus(
      await subscribe(valid({ subscription: { endpoint: 'https://[2001:db8::1]/p', keys: browserKeys() } })),
      400,
    );
    expectStatus(
      await subscribe(valid({ subscription: { endpoint: 'https://8.8.8.8/p', keys: browserKeys() } })),
      201,
    );
  });

  it('limits new subscriptions per client address a minute with a 429, not re-posts', async () => {
    clock.toNextMinute();
    const address = uniqueAddress();
    const bodies = Array.from({ length: PER_MINUTE }, () => valid());
    for (const body of bodies) expectStatus(await subscribe(body, address), 201);
    const refused = await subscribe(valid(), address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<Failure>().message).toMatch(/Too many new push subscriptions/);
    // Its own subscription, posted again, is no new one; another address has its own count.
    expectStatus(await subscribe({ ...bodies[0], lang: 'hi' }, address), 200);
    expectStatus(await subscribe(valid(), uniqueAddress()), 201);
    clock.toNextMinute();
    expectStatus(await subscribe(valid(), address), 201);
  });
});

describe('push subscriptions without PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 on every push route, saying why', async () => {
    const keys = browserKeys();
    const answers = [
      await call(t.app, { url: '/api/push/key' }),
      await call(t.app, {
        method: 'POST',
        url: '/api/push/subscriptions',
        body: { subscription: { endpoint: newEndpoint(), keys }, ghadis: [1], lang: 'en' },
      }),
      await call(t.app, {
        method: 'DELETE',
        url: '/api/push/subscriptions',
        body: { endpoint: newEndpoint() },
      }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json<Failure>().message).toBe(PUSH_OFF_MESSAGE);
    }
  });
});

describe('push subscriptions with the VAPID keys given', () => {
  const keys = webPush.generateVAPIDKeys();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: { PUBLIC_URL, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the given public key and stores none', async () => {
    const answer = expectStatus<{ publicKey: string }>(await call(t.app, { url: '/api/push/key' }), 200);
    expect(answer.publicKey).toBe(keys.publicKey);
    const stored = await t.database.db
      .selectFrom('settings')
      .select('key')
      .where('key', 'like', 'vapid%')
      .execute();
    expect(stored).toEqual([]);
  });
});
