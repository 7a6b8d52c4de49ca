import fs from 'node:fs';
import path from 'node:path';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush, { type WebPushError } from 'web-push';
import { PushService, pushTls } from './push-service.js';

// The service judges VAPID expiry by this clock, and the tokens are made for it: no wall clock.
const NOW = new Date('2026-03-01T10:00:00Z');
const NOW_S = NOW.getTime() / 1000;
const vapidKeys = webPush.generateVAPIDKeys();
const tls = pushTls();
let service: PushService;

beforeAll(async () => {
  service = await PushService.start({ tls, now: () => NOW });
});
afterAll(async () => {
  await service.close();
  fs.rmSync(path.dirname(tls.caFile), { recursive: true, force: true });
});

function vapidAuthorization(audience: string, expiration = NOW_S + 12 * 3600): string {
  const headers = webPush.getVapidHeaders(
    audience,
    'mailto:ops@example.test',
    vapidKeys.publicKey,
    vapidKeys.privateKey,
    'aes128gcm',
    expiration,
  );
  return headers.Authorization;
}

function send(
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  payload: string,
  authorization = vapidAuthorization(service.origin),
) {
  return webPush.sendNotification(subscription, payload, {
    TTL: 10800,
    urgency: 'high',
    topic: 'gali',
    headers: { Authorization: authorization },
    agent: service.agent,
  });
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 201;
  } catch (error) {
    return (error as WebPushError).statusCode;
  }
}

describe('local push service', () => {
  it('decrypts what web-push encrypts, checks its VAPID token and records the headers', async () => {
    const subscription = service.subscription({ applicationServerKey: vapidKeys.publicKey });
    const payload = { title: 'Gali: 42', body: 'Declared at 11:30', url: '/satta-results/gali', tag: 'g' };
    const arrived = service.waitForMessage((m) => m.subscriptionId === subscription.id);
    const answer = await send(subscription, JSON.stringify(payload));
    expect(answer.statusCode).toBe(201);
    expect(answer.headers.location).toMatch(new RegExp(`^${service.origin}/message/`));
    const message = await arrived;
    expect(message).toMatchObject({ payload, topic: 'gali', urgency: 'high', ttl: 10800, vapidOk: true });
    expect(message.error).toBeNull();
  });

  it('reads a payload near the size limit', async () => {
    const subscription = service.subscription();
    const text = 'x'.repeat(3000);
    await send(subscription, JSON.stringify({ text }));
    const message = await service.waitForMessage((m) => m.subscriptionId === subscription.id);
    expect(message.payload).toEqual({ text });
  });

  it('rejects a tampered token, another audience, a token living past a day, and another key', async () => {
    const subscription = service.subscription({ applicationServerKey: vapidKeys.publicKey });
    const good = vapidAuthorization(service.origin);
    const [, claims = ''] = /t=[^.]+\.([^.]+)\./.exec(good) ?? [];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(claims, 'base64url').toString()), sub: 'mailto:x@y.test' }),
    ).toString('base64url');
    expect(await statusOf(send(subscription, '{}', good.replace(claims, forged)))).toBe(401);
    expect(await statusOf(send(subscription, '{}', vapidAuthorization('https://127.0.0.1:1')))).toBe(401);

    const raw = Buffer.from(vapidKeys.publicKey, 'base64url');
    const key = await importJWK(
      {
        kty: 'EC',
        crv: 'P-256',
        x: raw.subarray(1, 33).toString('base64url'),
        y: raw.subarray(33).toString('base64url'),
        d: vapidKeys.privateKey,
      },
      'ES256',
    );
    const longLived = await new SignJWT({ sub: 'mailto:ops@example.test' })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setAudience(service.origin)
      .setExpirationTime(NOW_S + 25 * 3600)
      .sign(key);
    expect(await statusOf(send(subscription, '{}', `vapid t=${longLived}, k=${vapidKeys.publicKey}`))).toBe(
      401,
    );

    const other = webPush.generateVAPIDKeys();
    const byOther = webPush.getVapidHeaders(
      service.origin,
      'mailto:ops@example.test',
      other.publicKey,
      other.privateKey,
      'aes128gcm',
      NOW_S + 3600,
    ).Authorization;
    expect(await statusOf(send(subscription, '{}', byOther))).toBe(403);

    const recorded = service.messages.filter((m) => m.subscriptionId === subscription.id);
    expect(recorded.map((m) => m.vapidOk)).toEqual([false, false, false, false]);
    expect(recorded[0]?.error).toMatch(/signature/);
    expect(recorded[1]?.error).toMatch(/aud/);
    expect(recorded[2]?.error).toMatch(/24 hours/);
  });

  it('answers as a test tells it: gone, missing, throttled, held', async () => {
    const gone = service.subscription();
    service.behave(gone.id, { status: 410 });
    expect(await statusOf(send(gone, '{}'))).toBe(410);
    service.forget(gone.id);
    expect(await statusOf(send(gone, '{}'))).toBe(404);

    const busy = service.subscription();
    service.behave(busy.id, { status: 429, retryAfter: 120 });
    const error = await send(busy, '{}').catch((e: WebPushError) => e);
    expect((error as WebPushError).headers['retry-after']).toBe('120');

    const slow = service.subscription();
    let release = () => {};
    service.behave(slow.id, { until: new Promise<void>((r) => (release = r)) });
    let answered = false;
    const sending = send(slow, '{"n":1}').then(() => (answered = true));
    const message = await service.waitForMessage((m) => m.subscriptionId === slow.id);
    expect(message.payload).toEqual({ n: 1 });
    expect(answered).toBe(false);
    release();
    await sending;
    expect(answered).toBe(true);
  });

  it('reuses the certificate in a directory, so a process can trust it before the service starts', () => {
    const again = pushTls(path.dirname(tls.caFile));
    expect(again.certPem).toBe(tls.certPem);
  });
});
