/**
 * Behind Debian's Varnish with docs/deployment.md's configuration (issue 46): the reading mix at the
 * highest rate the machine allows for 60 s through Varnish, the origin purging it (PURGE_URL), an
 * admin declaring a result every 10 s. Targets: the origin answers ≤ 1 % of the requests (counted
 * by the origin's own request metrics); every page that shows a declared value serves it through
 * Varnish within 1 s of the write; with the origin stopped, Varnish still serves every page of the
 * reading set, unchanged, after BENCH_GRACE_SECONDS (600 by default: the ten minutes).
 * The origin runs on core 0 and the wrks on core 1; Varnish where the kernel puts it.
 */
import { documentedVcl, pointedAt, startVarnish, VARNISH_INSTALLED } from '../../tests/support/varnish.js';
import { addressSource, send, signIn } from '../lib/client.js';
import { declare, nextValue, timesToShow } from '../lib/declaration.js';
import { PAGE_KINDS, type PageKind, readingSet, writePathsFile } from '../lib/reading-set.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, startServer } from '../lib/server-process.js';
import { ms } from '../lib/stats.js';
import { startWrk } from '../lib/wrk.js';
import { METRICS_TOKEN, shownToday, siteToday } from './burst.js';
import { readAll } from './reading-load.js';
import { log, type Seeded, serverEnv, type Verdict } from './setup.js';

const FRONT = {
  connections: Number(process.env.BENCH_VARNISH_CONNECTIONS ?? 100),
  seconds: 60,
  declareEveryMs: 10_000,
  originShare: 0.01,
  freshMs: 1000,
  graceSeconds: Number(process.env.BENCH_GRACE_SECONDS ?? 600),
};

/** Requests the origin answered, every route and status: the sum of its request histogram. */
async function originRequests(url: string): Promise<number> {
  const answer = await send(url, '/metrics', {
    method: 'GET',
    address: '10.255.255.3',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  let total = 0;
  for (const line of answer.body.toString('utf8').split('\n')) {
    const match = /^http_request_duration_seconds_count\{.*\} (\d+)/.exec(line);
    if (match) total += Number(match[1]);
  }
  return total;
}

export async function behindVarnishScenario(
  seeded: Seeded,
  dir: string,
  graceSeconds = FRONT.graceSeconds,
): Promise<Verdict> {
  if (!VARNISH_INSTALLED) {
    const summary = 'skipped: varnishd is not installed (apt-get install -y varnish varnish-modules)';
    log(summary);
    return { met: true, summary };
  }
  const frontPort = await freePort();
  const originPort = await freePort();
  const origin = await startServer({
    port: originPort,
    env: serverEnv(seeded.file, originPort, {
      TRUST_PROXY: 'loopback',
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
      PURGE_URL: `http://127.0.0.1:${frontPort}/`,
    }),
    cpus: '0',
    keepOutput: false,
  });
  let originUp = true;
  const varnish = await startVarnish(pointedAt(documentedVcl(), new URL(origin.url)), frontPort);
  try {
    const today = await siteToday(origin.url);
    const set = readingSet(seeded.seed, today);
    const everyPage = PAGE_KINDS.flatMap((kind) => set[kind]);
    const files = Object.fromEntries(
      PAGE_KINDS.map((kind) => [kind, writePathsFile(dir, kind, set[kind])]),
    ) as Record<PageKind, string>;
    const nextAddress = addressSource();
    const warm = await readAll(varnish.url, everyPage, 4, nextAddress);
    log(
      `warmed through Varnish: ${warm.ok} pages in ${(warm.ms / 1000).toFixed(1)} s; others: ${warm.others.join(', ') || 'none'}`,
    );
    const token = await signIn(origin.url, SEED_ADMIN, nextAddress());

    const originBefore = await originRequests(origin.url);
    const total = Object.values(set).reduce((sum, paths) => sum + paths.length, 0);
    const runs = PAGE_KINDS.map((kind) =>
      startWrk({
        url: varnish.url,
        connections: Math.max(1, Math.round((FRONT.connections * set[kind].length) / total) || 1),
        seconds: FRONT.seconds,
        script: 'reading-mix.lua',
        env: { BENCH_PATHS_FILE: files[kind] },
        cpus: '1',
        timeoutSeconds: 30,
      }),
    );
    const slowest: number[] = [];
    let probeRequests = 0;
    const started = performance.now();
    for (let round = 0; ; round++) {
      const at = FRONT.declareEveryMs / 2 + round * FRONT.declareEveryMs;
      if (at >= FRONT.seconds * 1000) break;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + at - performance.now())));
      const ghadi = seeded.seed.ghadis[round % seeded.seed.ghadis.length];
      if (!ghadi) throw new Error('the seed has no ghadi');
      const value = nextValue(await shownToday(varnish.url, ghadi.gid, today, nextAddress()), round);
      await declare(origin.url, token, { gid: ghadi.gid, date: today, value }, nextAddress());
      const declared = { gid: ghadi.gid, name: ghadi.name, date: today, value };
      const fresh = await timesToShow(varnish.url, declared, performance.now(), 5_000, nextAddress());
      slowest.push(Math.max(...Object.values(fresh)));
      probeRequests += Object.keys(fresh).length + 1;
    }
    const loads = await Promise.all(runs);
    const originAnswered = (await originRequests(origin.url)) - originBefore;
    const served = loads.reduce((sum, load) => sum + load.requests, 0) + probeRequests;
    const share = originAnswered / served;
    const rate = loads.reduce((sum, load) => sum + load.requestsPerSecond, 0);
    const failed = loads.reduce((sum, load) => sum + load.failures, 0);
    log(
      `through Varnish for ${FRONT.seconds} s: ${served} requests (${rate.toFixed(0)}/s), ${failed} failed; ` +
        `the origin answered ${originAnswered} (${(share * 100).toFixed(3)} %, target ≤ ${FRONT.originShare * 100} %)`,
    );
    log(
      `declared value through Varnish on every page that shows it, slowest per declaration: ${slowest.map(ms).join(', ')} (target ≤ ${FRONT.freshMs} ms)`,
    );

    const before = await readAll(varnish.url, everyPage, 4, nextAddress, true);
    await origin.stop();
    originUp = false;
    log(
      `origin stopped; reading the ${everyPage.length} pages through Varnish again after ${graceSeconds} s …`,
    );
    await new Promise((resolve) => setTimeout(resolve, graceSeconds * 1000));
    const after = await readAll(varnish.url, everyPage, 4, nextAddress, true);
    const bodies = new Map(before.answers.map(({ path, answer }) => [path, answer.body.toString('base64')]));
    const unchanged = after.answers.filter(
      ({ path, answer }) => answer.status === 200 && bodies.get(path) === answer.body.toString('base64'),
    ).length;
    log(
      `with the origin stopped for ${graceSeconds} s: ${unchanged} of ${everyPage.length} pages served as before; others: ${after.others.join(', ') || 'none'}`,
    );

    const met =
      share <= FRONT.originShare &&
      failed === 0 &&
      slowest.every((value) => value <= FRONT.freshMs) &&
      unchanged === everyPage.length;
    log(`targets (origin ≤ 1 %, fresh ≤ 1 s, grace): ${met ? 'met' : 'NOT met'}`);
    return {
      met,
      summary:
        `${served} requests in ${FRONT.seconds} s (${rate.toFixed(0)}/s), ${failed} failed, the origin answered ` +
        `${(share * 100).toFixed(3)} % (≤ 1 %); declared values through Varnish within ${slowest.map(ms).join(', ')} (≤ 1 s); ` +
        `origin stopped ${graceSeconds} s: ${unchanged} of ${everyPage.length} pages served as before`,
    };
  } finally {
    await varnish.stop();
    if (originUp) await origin.stop();
  }
}
