/**
 * `push`: Web Push at scale (issue 44). On a copy of the year's seed, 10 000 subscriptions (half
 * English, half Hindi) follow one ghadi, made by a real push service on loopback
 * (lib/push-service-process.ts, in a process of its own on core 1: it decrypts every message and
 * checks its VAPID) and posted through the API; 500 more answer 410. The server runs on core 0.
 *
 * 1. Public reads (the burst mix, a few paced Node clients) for 10 s: p99 before.
 * 2. A declaration: every subscription must get it within 60 s of the log entry's DeclaredAt, once,
 *    while the same reads' p99 stays ≤ 2× before; the 410 ones are removed (/metrics counts them).
 *    The reads' "before" is a declaration of another ghadi that notifies nobody, read as long: what
 *    push adds to a declaration's own cost (its dropped answers rebuilt). Reads alone are shown too.
 *    These make a round; BENCH_ROUNDS of them, the ratio of the median round.
 * 3. A correction; after 2 000 of its messages arrived the server gets SIGTERM and starts again on
 *    the same file: every subscription must get the correction once, and none of the 410 ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { addressSource, send, signIn } from '../lib/client.js';
import { declare, nextValue } from '../lib/declaration.js';
import type { TestSubscription } from '../lib/push-service.js';
import { PushServiceChild } from '../lib/push-service-child.js';
import type { Arrivals } from '../lib/push-service-process.js';
import { type Sampled, sampleReads } from '../lib/read-sampler.js';
import { readingSet, writeMixFile } from '../lib/reading-set.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { ascending, ms, percentile } from '../lib/stats.js';
import { jsonOf } from '../lib/timed-request.js';
import { METRICS_TOKEN, shownToday, siteToday } from './burst.js';
import { readAll } from './reading-load.js';
import { log, SETTINGS, type Seeded, serverEnv, type Verdict } from './setup.js';

export const PUSH = {
  subscriptions: Number(process.env.BENCH_PUSH_SUBSCRIPTIONS ?? 10_000),
  gone: Number(process.env.BENCH_PUSH_GONE ?? 500),
  /** Subscriptions posted at once. */
  posting: 20,
  readers: Number(process.env.BENCH_PUSH_READERS ?? 4),
  thinkMs: Number(process.env.BENCH_PUSH_THINK_MS ?? 10),
  beforeSeconds: 10,
  /** The correction's messages that arrive before the server is stopped. */
  restartAfter: Number(process.env.BENCH_PUSH_RESTART_AFTER ?? 2000),
  lagSeconds: 60,
  ratio: 2,
  /** How long a delivery may take before the scenario stops waiting. */
  boundSeconds: 300,
  /** Waited after the last expected message, for any doubled one to show. */
  settleMs: 3000,
};

function pushEnv(file: string, port: number, caFile: string): NodeJS.ProcessEnv {
  return serverEnv(file, port, {
    TRUST_PROXY: 'loopback',
    METRICS_TOKEN,
    LOG_LEVEL: 'warn',
    PUSH_ALLOW_LOOPBACK: 'true',
    NODE_EXTRA_CA_CERTS: caFile,
    VAPID_SUBJECT: 'mailto:bench@example.com',
    PUSH_SUBSCRIPTIONS_PER_MINUTE: '1000000',
  });
}

/** notifications_removed_total{channel="push"} from GET /metrics. */
async function removedCount(url: string): Promise<number> {
  const answer = await send(url, '/metrics', {
    method: 'GET',
    address: '10.255.255.2',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  if (answer.status !== 200) throw new Error(`GET /metrics answered ${answer.status}`);
  const match = /^notifications_removed_total\{channel="push"\} (\d+)/m.exec(answer.body.toString('utf8'));
  return Number(match?.[1] ?? 0);
}

/** The log entry's DeclaredAt (epoch ms) of the latest declaration of `value`. */
async function declaredAt(url: string, gid: number, date: string, value: string): Promise<number> {
  const answer = await send(url, `/api/declarations?gid=${gid}&date=${date}&limit=1000`, {
    method: 'GET',
    address: '10.255.255.3',
  });
  const { data } = jsonOf<{ data: Array<{ Result: string; DeclaredAt: string }> }>(answer, 'declarations');
  const entry = data.filter((candidate) => candidate.Result === value).at(-1);
  if (!entry) throw new Error(`no log entry of ${value} for ghadi ${gid} on ${date}`);
  return Date.parse(entry.DeclaredAt);
}

async function subscribeAll(
  url: string,
  subscriptions: TestSubscription[],
  gid: number,
  nextAddress: () => string,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PUSH.posting }, async () => {
      for (let index = next++; index < subscriptions.length; index = next++) {
        const { endpoint, keys } = subscriptions[index] as TestSubscription;
        const answer = await send(url, '/api/push/subscriptions', {
          method: 'POST',
          address: nextAddress(),
          json: { subscription: { endpoint, keys }, ghadis: [gid], lang: index % 2 ? 'hi' : 'en' },
        });
        if (answer.status !== 201) throw new Error(`subscribing answered ${answer.status}: ${answer.body}`);
      }
    }),
  );
}

/** Polls until `count` subscriptions got `value`, `onCount` seeing each tally; false past the bound. */
async function waitForArrivals(
  service: PushServiceChild,
  value: string,
  count: number,
  onCount: (arrived: number) => Promise<void> | void = () => undefined,
): Promise<boolean> {
  const deadline = performance.now() + PUSH.boundSeconds * 1000;
  for (;;) {
    const { subscriptions } = await service.tally(value);
    await onCount(subscriptions);
    if (subscriptions >= count) return true;
    if (performance.now() > deadline) return false;
    await sleep(100);
  }
}

interface Delivery {
  missing: number;
  doubled: number;
  lags: number[];
  flaws: number;
}

/** What the `wanted` subscriptions got of `value`: each once, and when (from `since`, epoch ms). */
function deliveryOf(arrivals: Record<string, Arrivals>, wanted: TestSubscription[], since: number): Delivery {
  const delivery: Delivery = { missing: 0, doubled: 0, lags: [], flaws: 0 };
  for (const { id } of wanted) {
    const got = arrivals[id];
    if (!got || got.delivered === 0) delivery.missing++;
    else delivery.lags.push(got.firstAt - since);
    if (got && got.delivered > 1) delivery.doubled++;
    if (got && got.refused > 0) delivery.flaws++;
  }
  delivery.lags = ascending(delivery.lags);
  return delivery;
}

function seconds(value: number): string {
  return `${(value / 1000).toFixed(1)} s`;
}

export async function pushScenario(seeded: Seeded, dir: string): Promise<Verdict> {
  // A copy: the other scenarios reuse the year's file and want it without subscriptions.
  const file = path.join(dir, 'bench-push.db');
  fs.copyFileSync(seeded.file, file);
  const [ghadi, other] = seeded.seed.ghadis;
  if (!ghadi || !other) throw new Error('the seed has fewer than two ghadis');
  const service = await PushServiceChild.start(path.join(dir, 'push-tls'), '1');
  const port = await freePort();
  const start = () =>
    startServer({ port, env: pushEnv(file, port, service.caFile), cpus: '0', keepOutput: true });
  let server: ServerProcess = await start();
  try {
    const nextAddress = addressSource();
    const keyAnswer = await send(server.url, '/api/push/key', { method: 'GET', address: nextAddress() });
    const { publicKey } = jsonOf<{ publicKey: string }>(keyAnswer, 'GET /api/push/key');
    const wanted = await service.subscriptions(PUSH.subscriptions, publicKey);
    const gone = await service.subscriptions(PUSH.gone, publicKey);
    await service.behave(
      gone.map((subscription) => subscription.id),
      { status: 410 },
    );
    let started = performance.now();
    await subscribeAll(server.url, [...wanted, ...gone], ghadi.gid, nextAddress);
    log(
      `${wanted.length} + ${gone.length} (answering 410) subscriptions to ${ghadi.name} in ${seconds(performance.now() - started)}`,
    );

    const today = await siteToday(server.url);
    const mix = fs
      .readFileSync(writeMixFile(dir, readingSet(seeded.seed, today)), 'utf8')
      .split('\n')
      .filter(Boolean);
    const warm = await readAll(server.url, [...new Set(mix)], 4, nextAddress);
    log(`warmed: ${warm.ok} pages answered 200; others: ${warm.others.join(', ') || 'none'}`);
    const sampling = { readers: PUSH.readers, thinkMs: PUSH.thinkMs, nextAddress };
    const token = await signIn(server.url, SEED_ADMIN, nextAddress());

    // Rounds of: reads alone, then a declaration with the same reads until every subscription has
    // it. The first round's declaration also meets the 410 subscriptions; the ratio is the median's.
    const rounds: Round[] = [];
    let value = await shownToday(server.url, ghadi.gid, today, nextAddress());
    let otherValue = await shownToday(server.url, other.gid, today, nextAddress());
    let removed = 0;
    let goneOnce = 0;
    for (let round = 0; round < Math.max(1, SETTINGS.rounds); round++) {
      const beforeSampler = sampleReads(server.url, mix, sampling);
      await sleep(PUSH.beforeSeconds * 1000);
      const before = await beforeSampler.stop();
      // The control: a declaration of a ghadi nobody follows, with the same reads for as long. Its
      // dropped answers are rebuilt as at any declaration (issue 46's burst); only push is not there.
      otherValue = nextValue(otherValue, round);
      const controlSampler = sampleReads(server.url, mix, sampling);
      await declare(server.url, token, { gid: other.gid, date: today, value: otherValue }, nextAddress());
      await sleep(PUSH.beforeSeconds * 1000);
      const control = await controlSampler.stop();
      value = nextValue(value, round);
      const duringSampler = sampleReads(server.url, mix, sampling);
      await declare(server.url, token, { gid: ghadi.gid, date: today, value }, nextAddress());
      const declaredMs = await declaredAt(server.url, ghadi.gid, today, value);
      await waitForArrivals(service, value, wanted.length);
      const during: Sampled = await duringSampler.stop();
      if (round === 0) {
        removed = await removedCount(server.url);
        for (let waited = 0; removed < gone.length && waited < 50; waited++) {
          await sleep(100);
          removed = await removedCount(server.url);
        }
      }
      await sleep(PUSH.settleMs);
      const arrivals = await service.arrivals(value);
      if (round === 0) goneOnce = gone.filter((s) => arrivals.arrivals[s.id]?.refused === 1).length;
      const delivery = deliveryOf(arrivals.arrivals, wanted, declaredMs);
      rounds.push({ before, control, during, delivery });
      log(
        `round ${round + 1}: reads p99 ${ms(before.p99Ms)} alone, ${ms(control.p99Ms)} after a declaration, ${ms(during.p99Ms)} with its notifications (×${(during.p99Ms / control.p99Ms).toFixed(2)}); delivery p99 ${seconds(percentile(delivery.lags, 0.99))}`,
      );
    }
    const first = value;

    // The correction, with a graceful restart in the middle of its delivery.
    const second = nextValue(first, 0);
    await declare(server.url, token, { gid: ghadi.gid, date: today, value: second }, nextAddress());
    const secondAt = await declaredAt(server.url, ghadi.gid, today, second);
    let stoppedAt = 0;
    let exit = '';
    started = performance.now();
    const arrived = await waitForArrivals(service, second, wanted.length, async (count) => {
      if (stoppedAt > 0 || count < PUSH.restartAfter) return;
      stoppedAt = count;
      const { code, signal } = await server.stop();
      exit = signal ?? `code ${code}`;
      const atStop = (await service.tally(second)).subscriptions;
      log(
        `server stopped (SIGTERM) with ${stoppedAt} arrived: exited ${exit}, ${atStop} had arrived by then`,
      );
      server = await start();
    });
    if (!arrived) log(`the correction had not reached every subscription in ${PUSH.boundSeconds} s`);
    const restartMs = performance.now() - started;
    await sleep(PUSH.settleMs);
    const secondArrivals = await service.arrivals(second);
    const secondDelivery = deliveryOf(secondArrivals.arrivals, wanted, secondAt);
    const goneContacted = gone.filter((s) => secondArrivals.arrivals[s.id] !== undefined).length;

    return report({
      rounds,
      removed,
      goneOnce,
      second: secondDelivery,
      restartMs,
      exit,
      goneContacted,
      flaws: secondArrivals.flaws,
    });
  } catch (error) {
    log(`server output:\n${server.output()}`);
    throw error;
  } finally {
    await server.stop();
    await service.close();
    fs.rmSync(file, { force: true });
  }
}

/** One round: the reads' figures before and during a declaration's delivery, and the delivery. */
interface Round {
  before: Sampled;
  /** The same reads after a declaration that notifies nobody. */
  control: Sampled;
  during: Sampled;
  delivery: Delivery;
}

interface Figures {
  rounds: Round[];
  removed: number;
  goneOnce: number;
  second: Delivery;
  restartMs: number;
  exit: string;
  goneContacted: number;
  flaws: { count: number; first: string[] };
}

function report(f: Figures): Verdict {
  // The median round by its ratio: its reads and its delivery are reported together.
  const byRatio = [...f.rounds].sort(
    (a, b) => a.during.p99Ms / a.control.p99Ms - b.during.p99Ms / b.control.p99Ms,
  );
  const median = byRatio[Math.floor((byRatio.length - 1) / 2)] as Round;
  const { before, control, during } = median;
  const lags = ascending(f.rounds.flatMap((round) => round.delivery.lags));
  const p99Lag = percentile(lags, 0.99);
  const maxLag = lags.at(-1) ?? Number.NaN;
  // Judged against a declaration without notifications: what push adds to the declaration's own cost.
  const ratio = during.p99Ms / control.p99Ms;
  const missing = f.rounds.reduce((sum, round) => sum + round.delivery.missing, 0);
  const doubled = f.rounds.reduce((sum, round) => sum + round.delivery.doubled, 0);
  const refused = f.rounds.reduce((sum, round) => sum + round.delivery.flaws, 0);
  const readFailures = f.rounds.flatMap((round) => [
    ...round.before.failures,
    ...round.control.failures,
    ...round.during.failures,
  ]);
  const rows: Array<[string, string, boolean]> = [
    [
      `declaration to ${PUSH.subscriptions} subscriptions (${f.rounds.length} rounds): p50 ${seconds(percentile(lags, 0.5))}, p99 ${seconds(p99Lag)}, last ${seconds(maxLag)}`,
      `≤ ${PUSH.lagSeconds} s`,
      missing === 0 && maxLag <= PUSH.lagSeconds * 1000,
    ],
    [
      `each exactly once: missing ${missing}, doubled ${doubled}, refused ${refused}`,
      '0, 0, 0',
      missing + doubled + refused === 0,
    ],
    [
      `public reads p99 (median round): ${ms(before.p99Ms)} alone (${before.count} reads), ${ms(control.p99Ms)} after a declaration notifying nobody (${control.count}), ${ms(during.p99Ms)} during 10 000 notifications (${during.count}; ×${(during.p99Ms / before.p99Ms).toFixed(2)} of alone); p50 ${ms(before.p50Ms)} → ${ms(during.p50Ms)}; failed: ${readFailures.join(', ') || 'none'}`,
      `ratio ${ratio.toFixed(2)} ≤ ${PUSH.ratio}`,
      ratio <= PUSH.ratio && readFailures.length === 0,
    ],
    [
      `410 subscriptions: notifications_removed_total{channel="push"} ${f.removed}, each contacted once ${f.goneOnce}, by the correction ${f.goneContacted}`,
      `${PUSH.gone}, ${PUSH.gone}, 0`,
      f.removed === PUSH.gone && f.goneOnce === PUSH.gone && f.goneContacted === 0,
    ],
    [
      `correction across a SIGTERM restart (exited ${f.exit || 'not stopped'}), all in ${seconds(f.restartMs)}: missing ${f.second.missing}, doubled ${f.second.doubled}, refused ${f.second.flaws}`,
      '0, 0, 0',
      f.exit !== '' && f.second.missing + f.second.doubled + f.second.flaws === 0,
    ],
  ];
  log('');
  for (const [what, target, met] of rows) log(`  ${met ? 'met ' : 'MISS'}  ${target.padEnd(18)} ${what}`);
  if (f.flaws.count > 0)
    log(`  messages failing VAPID or decryption: ${f.flaws.count} (${f.flaws.first.join('; ')})`);
  return {
    met: rows.every(([, , met]) => met) && f.flaws.count === 0,
    summary:
      `delivery p99 ${seconds(p99Lag)} (last ${seconds(maxLag)}, ≤ ${PUSH.lagSeconds} s); reads p99 ×${ratio.toFixed(2)} ` +
      `(≤ ${PUSH.ratio}); removed ${f.removed}/${PUSH.gone}; restart: missing ${f.second.missing}, doubled ${f.second.doubled}`,
  };
}
