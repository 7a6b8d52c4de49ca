/**
 * Issue 44's push, from outside: subscriptions made by the checker's own push service (it holds their
 * keys, decrypts RFC 8291 bodies and checks RFC 8292 VAPID against GET /api/push/key), posted through
 * the API in both languages; the refusals; then declarations and corrections, and each notification
 * counted, decrypted and read (title, body, url, tag, Topic, Urgency, TTL); a subscription answering
 * 410 removed; and a graceful restart in the middle of a delivery to many: none lost, none twice.
 */
import type { PushService, ReceivedPush, TestSubscription } from '../lib/push-service.js';
import { check } from './check.js';
import type { ReachGhadi, ReachSite } from './reach-site.js';
import type { CheckResult } from './types.js';

export interface PushScenario {
  site: ReachSite;
  push: PushService;
  daily: ReachGhadi;
  night: ReachGhadi;
  today: string;
  yesterday: string;
  longAgo: string;
  /** Runs the declarations the Telegram checks read too, in order. */
  declare(gid: number, value: string, date: string): Promise<void>;
  /** Waits until /metrics counts `count` push subscriptions removed (or `ms` pass); answers the count. */
  removedSubscriptions(count: number, ms: number): Promise<number>;
}

/** Private, link-local and unspecified addresses in several spellings: refused even with PUSH_ALLOW_LOOPBACK. */
const PRIVATE_ENDPOINTS = [
  'https://10.1.2.3/p',
  'https://0x0a.1/p',
  'https://167772161/p',
  'https://0.0.0.0/p',
  'https://169.254.169.254/p',
  'https://[fd00::1]/p',
  'https://[::ffff:192.168.0.1]/p',
  'https://[::]/p',
];
/** Loopback in every spelling: refused once PUSH_ALLOW_LOOPBACK is off (the default). */
export const LOOPBACK_ENDPOINTS = [
  'https://127.0.0.1/p',
  'https://2130706433/p',
  'https://0x7f.1/p',
  'https://0177.0.0.1/p',
  'https://127.1/p',
  'https://[::1]/p',
  'https://[::ffff:127.0.0.1]/p',
  'https://localhost/p',
];

const subscribe = (site: ReachSite, subscription: TestSubscription, ghadis: number[], lang: string) =>
  site.call('POST', '/api/push/subscriptions', {
    subscription: { endpoint: subscription.endpoint, keys: subscription.keys },
    ghadis,
    lang,
  });

const payloadOf = (message: ReceivedPush) =>
  message.payload as { title: string; body: string; url: string; tag: string } | null;

/** Waits until `count` messages match, or `ms` pass; answers what matched. */
async function settle(push: PushService, match: (m: ReceivedPush) => boolean, count: number, ms: number) {
  const deadline = Date.now() + ms;
  while (push.messages.filter(match).length < count && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return push.messages.filter(match);
}

async function refusalCheck(scenario: PushScenario, spare: TestSubscription): Promise<CheckResult> {
  return check(
    'bad subscriptions: 400 (http, private addresses, language, GIDs, sizes), nothing stored',
    async () => {
      const { site, daily } = scenario;
      const keys = spare.keys;
      const bodies: Array<[string, unknown]> = [
        [
          'http endpoint',
          { subscription: { endpoint: 'http://push.example.com/x', keys }, ghadis: [daily.GID], lang: 'en' },
        ],
        ...PRIVATE_ENDPOINTS.map((endpoint): [string, unknown] => [
          endpoint,
          { subscription: { endpoint, keys }, ghadis: [daily.GID], lang: 'en' },
        ]),
        ['lang fr', { subscription: { endpoint: spare.endpoint, keys }, ghadis: [daily.GID], lang: 'fr' }],
        ['no ghadis', { subscription: { endpoint: spare.endpoint, keys }, ghadis: [], lang: 'en' }],
        [
          '101 ghadis',
          {
            subscription: { endpoint: spare.endpoint, keys },
            ghadis: Array.from({ length: 101 }, (_, i) => i + 1),
            lang: 'en',
          },
        ],
        ['unknown GID', { subscription: { endpoint: spare.endpoint, keys }, ghadis: [987_654], lang: 'en' }],
        [
          '1 001-character endpoint',
          {
            subscription: { endpoint: `${spare.endpoint}?${'x'.repeat(1001)}`, keys },
            ghadis: [daily.GID],
            lang: 'en',
          },
        ],
      ];
      const seen: string[] = [];
      let ok = true;
      for (const [what, body] of bodies) {
        const answer = await site.call('POST', '/api/push/subscriptions', body);
        ok &&= answer.status === 400;
        if (answer.status !== 400) seen.push(`${what} → ${answer.status}`);
      }
      const big = await site.call('POST', '/api/push/subscriptions', { pad: 'x'.repeat(5000) });
      ok &&= big.status === 400;
      // The spare was never stored: a declaration reaches no one through it (checked in the counts).
      return {
        ok,
        detail: `${bodies.length} refused with 400${seen.length ? `, except ${seen.join(', ')}` : ''}; 5 KB body → ${big.status}`,
      };
    },
  );
}

export async function pushChecks(scenario: PushScenario): Promise<CheckResult[]> {
  const { site, push, daily, night, today, yesterday, longAgo } = scenario;
  const results: CheckResult[] = [];
  const key = await site.call('GET', '/api/push/key');
  const publicKey = String(key.body.publicKey);
  results.push({
    name: 'GET /api/push/key: a P-256 public key, base64url',
    ok: key.status === 200 && Buffer.from(publicKey, 'base64url').length === 65,
    detail: `${key.status}: ${publicKey.slice(0, 16)}… (${Buffer.from(publicKey, 'base64url').length} bytes)`,
  });
  const made = (name: string) => ({ name, sub: push.subscription({ applicationServerKey: publicKey }) });
  const [english, hindi, gone, moved, dropped, spare] = ['en', 'hi', 'gone', 'moved', 'dropped', 'spare'].map(
    made,
  ) as Array<ReturnType<typeof made>>;
  if (!english || !hindi || !gone || !moved || !dropped || !spare) throw new Error('no subscriptions');
  const statuses = [
    await subscribe(site, english.sub, [daily.GID], 'en'),
    await subscribe(site, hindi.sub, [daily.GID, night.GID], 'hi'),
    await subscribe(site, gone.sub, [night.GID], 'en'),
    await subscribe(site, moved.sub, [daily.GID], 'en'),
    await subscribe(site, moved.sub, [night.GID], 'en'),
    await subscribe(site, dropped.sub, [daily.GID], 'en'),
    await site.call('DELETE', '/api/push/subscriptions', { endpoint: dropped.sub.endpoint }),
    await site.call('DELETE', '/api/push/subscriptions', { endpoint: dropped.sub.endpoint }),
  ].map((answer) => answer.status);
  results.push({
    name: 'subscribe 201, the same endpoint again 200 (its ghadis replaced), DELETE 200 twice',
    ok: JSON.stringify(statuses) === JSON.stringify([201, 201, 201, 201, 200, 201, 200, 200]),
    detail: statuses.join(', '),
  });
  results.push(await refusalCheck(scenario, spare.sub));
  push.behave(gone.sub.id, { status: 410 });

  // Each value is awaited before the next: a correction that finds its original still unsent
  // replaces it (one Topic per ghadi), which is right, but would leave nothing to count.
  const arrived = (value: string, count: number) =>
    settle(push, (m) => payloadOf(m)?.title.endsWith(`: ${value}`) ?? false, count, 30_000);
  await scenario.declare(daily.GID, '45', today);
  await arrived('45', 2);
  await scenario.declare(daily.GID, '54', today);
  await arrived('54', 2);
  await scenario.declare(night.GID, '67', yesterday);
  await arrived('67', 3);
  const removedAfter410 = await scenario.removedSubscriptions(1, 30_000);
  await scenario.declare(daily.GID, '77', longAgo);
  await scenario.declare(night.GID, '68', today);
  await arrived('68', 2);
  // 2 + 2 (Daily: en, hi; declared then corrected), 3 + 2 (Night yesterday: hi, gone, moved; today: hi, moved).
  const expected = 9;
  await settle(push, () => true, expected + 1, 2000);
  const by = (sub: TestSubscription) => push.messages.filter((message) => message.subscriptionId === sub.id);
  const titles = (sub: TestSubscription) =>
    by(sub).map((message) => `${payloadOf(message)?.title}|${payloadOf(message)?.body}`);
  const problems: string[] = [];
  for (const message of push.messages) {
    const payload = payloadOf(message);
    if (!message.vapidOk) problems.push(`VAPID failed: ${message.error}`);
    if (!payload) problems.push(`undecryptable: ${message.error}`);
    if (message.urgency !== 'high') problems.push(`Urgency ${message.urgency}`);
    if (message.ttl !== 10_800) problems.push(`TTL ${message.ttl}`);
    if (!message.topic || message.topic.length > 32 || !/^[\w-]+$/.test(message.topic))
      problems.push(`Topic ${message.topic}`);
  }
  const topics = (gid: ReachGhadi) =>
    new Set(
      push.messages
        .filter((m) => (payloadOf(m)?.title.match(/^(Reach Daily|रीच डेली):/) ? gid === daily : gid === night))
        .map((m) => m.topic),
    );
  results.push({
    name: 'every notification: VAPID signed by the site key, decrypts, Urgency high, TTL 3 h, a Topic per ghadi',
    ok:
      problems.length === 0 &&
      topics(daily).size === 1 &&
      topics(night).size === 1 &&
      [...topics(daily)][0] !== [...topics(night)][0],
    detail:
      problems.join('; ') ||
      `${push.messages.length} messages; topics ${[...topics(daily)]} / ${[...topics(night)]}`,
  });
  const englishTitles = titles(english.sub);
  const hindiTitles = titles(hindi.sub);
  const englishPayloads = by(english.sub).map(payloadOf);
  const hindiPayloads = by(hindi.sub).map(payloadOf);
  results.push({
    name: 'English and Hindi payloads: "name: value", the date, a correction said, the page under PUBLIC_URL',
    ok:
      englishTitles.length === 2 &&
      englishPayloads.some((p) => p?.title === 'Reach Daily: 45' && !/corrected/.test(p.body)) &&
      englishPayloads.some((p) => p?.title === 'Reach Daily: 54' && /corrected/.test(p.body)) &&
      englishPayloads.every(
        (p) => p?.url.startsWith(`${site.url}/satta-results/`) && p.tag === englishPayloads[0]?.tag,
      ) &&
      hindiTitles.length === 4 &&
      hindiPayloads.some((p) => p?.title === 'रीच डेली: 54' && /सुधार/.test(p.body)) &&
      hindiPayloads.some((p) => p?.title === 'रीच नाइट: 68') &&
      hindiPayloads.every((p) => p?.url.startsWith(`${site.url}/hi/satta-results/`)),
    detail: `en: ${englishTitles.join(' / ')} → ${englishPayloads[0]?.url}; hi: ${hindiTitles.join(' / ')} → ${hindiPayloads[0]?.url}`,
  });
  const pages = await Promise.all(
    [englishPayloads[0]?.url, hindiPayloads[0]?.url].map((url) => site.get(new URL(String(url)).pathname)),
  );
  results.push({
    name: 'a notification opens its ghadi’s page (the url answers 200)',
    ok: pages.every((page) => page.status === 200),
    detail: pages.map((page) => page.status).join(', '),
  });
  results.push({
    name: 'nothing for an old date, a moved or a deleted subscription; each once',
    ok:
      by(dropped.sub).length === 0 &&
      by(spare.sub).length === 0 &&
      by(moved.sub).length === 2 &&
      by(moved.sub).every((m) => payloadOf(m)?.title.startsWith('Reach Night')) &&
      !push.messages.some((m) => payloadOf(m)?.title.endsWith(': 77')) &&
      push.messages.length === expected,
    detail: `${push.messages.length} messages in all (${expected} expected); moved: ${titles(moved.sub).join(' / ')}; deleted: ${by(dropped.sub).length}`,
  });
  // Its one delivery answered 410 and it was removed before 68 was declared: 68 did not try it.
  results.push({
    name: 'a subscription answering 410 is removed after one delivery',
    ok: removedAfter410 === 1 && by(gone.sub).length === 1 && by(gone.sub)[0]?.status === 410,
    detail: `removed (metrics): ${removedAfter410}; it was sent ${by(gone.sub).length} message(s), answered ${by(gone.sub).map((m) => m.status)}`,
  });
  results.push(await restartCheck(scenario, publicKey));
  return results;
}

/** Many subscribers, slow ones among them; SIGTERM while their notification is on its way. */
async function restartCheck(scenario: PushScenario, publicKey: string): Promise<CheckResult> {
  return check('a graceful restart mid-delivery: every subscriber gets the value once', async () => {
    const { site, push, night, today } = scenario;
    const many = Array.from({ length: 300 }, () => push.subscription({ applicationServerKey: publicKey }));
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const [index, sub] of many.entries()) {
      const answer = await subscribe(site, sub, [night.GID], index % 2 ? 'hi' : 'en');
      if (answer.status !== 201) throw new Error(`subscriber ${index} answered ${answer.status}`);
      if (index % 10 === 0) push.behave(sub.id, { until: held });
    }
    const ids = new Set(many.map((sub) => sub.id));
    const mine = (m: ReceivedPush) =>
      ids.has(m.subscriptionId) && (payloadOf(m)?.title.endsWith(': 70') ?? false);
    await scenario.declare(night.GID, '70', today);
    await settle(push, mine, 60, 30_000);
    const before = push.messages.filter(mine).length;
    const restarting = site.restart();
    // The held ones answer only once the stop has begun: their sends are in flight at SIGTERM.
    setTimeout(release, 200);
    await restarting;
    const received = await settle(push, mine, many.length, 60_000);
    await settle(push, mine, many.length + 1, 2000);
    const counts = new Map<string, number>();
    for (const message of push.messages.filter(mine))
      counts.set(message.subscriptionId, (counts.get(message.subscriptionId) ?? 0) + 1);
    const twice = [...counts.values()].filter((count) => count > 1).length;
    const missing = many.filter((sub) => !counts.has(sub.id)).length;
    return {
      ok: twice === 0 && missing === 0,
      detail: `${many.length} subscribers, ${before} delivered before SIGTERM, ${received.length} after the restart; ${missing} missing, ${twice} twice`,
    };
  });
}
