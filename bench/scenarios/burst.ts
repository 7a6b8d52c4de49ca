/**
 * Result time on one origin, no cache in front (issue 46): 200 connections read the mix (home 40 %,
 * results pages 30 %, year charts 20 %, month charts 10 %, English and Hindi) over ten years of
 * results, and an admin declares a result. Each page kind is loaded by a wrk of its own, its
 * connections in proportion to its share, so each kind's latency is its own. A round: 10 s read
 * before the declaration, then 3 s read from the declaration on; the target is each kind's p99 after
 * ≤ 2× its p99 before, and the declared value on every page that shows it within 1 s of the write.
 * The server runs on core 0 and the wrks on core 1; the hit ratio is the server's own count.
 */
import { addressSource, send, signIn } from '../lib/client.js';
import {
  type Declared,
  declare,
  nextValue,
  pageDataOf,
  shownValue,
  timesToShow,
} from '../lib/declaration.js';
import {
  connectionsByKind,
  PAGE_KINDS,
  type PageKind,
  pageCount,
  type ReadingSet,
  readingSet,
  writePathsFile,
} from '../lib/reading-set.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { median, ms } from '../lib/stats.js';
import { jsonOf } from '../lib/timed-request.js';
import { startWrk, type WrkResult } from '../lib/wrk.js';
import { cacheLookups, hitRatio, readAll } from './reading-load.js';
import { log, type Seeded, serverEnv, type Verdict } from './setup.js';

export const BURST = {
  connections: Number(process.env.BENCH_BURST_CONNECTIONS ?? 200),
  beforeSeconds: 10,
  afterSeconds: 3,
  /** When the declaration is sent, after the wrks of the "after" window have started. */
  declareAfterMs: 200,
  freshMs: 1000,
  ratio: 2,
};

export const METRICS_TOKEN = 'bench-metrics-token-0123456789';

type ByKind = Record<PageKind, WrkResult>;

async function loadEach(
  server: ServerProcess,
  files: Record<PageKind, string>,
  seconds: number,
): Promise<ByKind> {
  const split = connectionsByKind(BURST.connections);
  const runs = PAGE_KINDS.map((kind) =>
    startWrk({
      url: server.url,
      connections: split[kind],
      seconds,
      script: 'reading-mix.lua',
      env: { BENCH_PATHS_FILE: files[kind] },
      cpus: '1',
      timeoutSeconds: 30,
    }).then((result) => [kind, result] as const),
  );
  return Object.fromEntries(await Promise.all(runs)) as ByKind;
}

interface Round {
  before: ByKind;
  after: ByKind;
  /** Milliseconds from the write's answer to each page showing the value. */
  fresh: Record<string, number>;
  hitRatio: number;
}

export async function startMixServer(file: string, cpus: string | null): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    port,
    env: serverEnv(file, port, { TRUST_PROXY: 'loopback', METRICS_TOKEN, LOG_LEVEL: 'warn' }),
    cpus,
    keepOutput: false,
  });
}

export async function siteToday(url: string): Promise<string> {
  const answer = await send(url, '/api/site', { method: 'GET', address: '10.255.255.1' });
  return jsonOf<{ today: string }>(answer, 'GET /api/site').today;
}

/** What the home page shows now for the ghadi today, read before declaring another value. */
export async function shownToday(
  url: string,
  gid: number,
  today: string,
  address: string,
): Promise<string | undefined> {
  const data = pageDataOf(await send(url, '/', { method: 'GET', address }));
  return data ? shownValue(data, gid, today) : undefined;
}

async function round(
  server: ServerProcess,
  files: Record<PageKind, string>,
  declared: Omit<Declared, 'value'>,
  index: number,
  token: string,
  nextAddress: () => string,
): Promise<Round> {
  const lookupsBefore = await cacheLookups(server.url, METRICS_TOKEN);
  const before = await loadEach(server, files, BURST.beforeSeconds);
  const value = nextValue(await shownToday(server.url, declared.gid, declared.date, nextAddress()), index);
  const afterRuns = loadEach(server, files, BURST.afterSeconds);
  await new Promise((resolve) => setTimeout(resolve, BURST.declareAfterMs));
  await declare(server.url, token, { ...declared, value }, nextAddress());
  const written = performance.now();
  const fresh = await timesToShow(server.url, { ...declared, value }, written, 5_000, nextAddress());
  const after = await afterRuns;
  const lookupsAfter = await cacheLookups(server.url, METRICS_TOKEN);
  return { before, after, fresh, hitRatio: hitRatio(lookupsBefore, lookupsAfter) };
}

function report(rounds: Round[]): Verdict {
  log(
    '\n| Page kind | p50 before | p99 before | p50 after | p99 after | p99 after/before | req/s before | req/s after | failed |',
  );
  log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  let met = true;
  const ratios: string[] = [];
  for (const kind of PAGE_KINDS) {
    const pick = (window: 'before' | 'after', field: keyof WrkResult) =>
      median(rounds.map((r) => Number(r[window][kind][field])));
    const ratio = median(rounds.map((r) => r.after[kind].latencyP99Ms / r.before[kind].latencyP99Ms));
    const failed = rounds.reduce((sum, r) => sum + r.before[kind].failures + r.after[kind].failures, 0);
    met = met && ratio <= BURST.ratio && failed === 0;
    ratios.push(
      `${kind} ${ms(pick('before', 'latencyP99Ms'))} → ${ms(pick('after', 'latencyP99Ms'))} (${ratio.toFixed(2)}×)`,
    );
    log(
      `| ${kind} | ${ms(pick('before', 'latencyP50Ms'))} | ${ms(pick('before', 'latencyP99Ms'))} | ` +
        `${ms(pick('after', 'latencyP50Ms'))} | ${ms(pick('after', 'latencyP99Ms'))} | ${ratio.toFixed(2)} | ` +
        `${pick('before', 'requestsPerSecond').toFixed(0)} | ${pick('after', 'requestsPerSecond').toFixed(0)} | ${failed} |`,
    );
  }
  const slowest = rounds.map((r) => Math.max(...Object.values(r.fresh)));
  const freshMet = slowest.every((value) => value <= BURST.freshMs);
  log(
    `\nnew value on every page that shows it (${Object.keys(rounds[0]?.fresh ?? {}).length} pages): ` +
      `slowest per round ${slowest.map(ms).join(', ')} (target ≤ ${BURST.freshMs} ms)`,
  );
  log(
    `hit ratio of the server's kept answers over each round: ${rounds.map((r) => `${(r.hitRatio * 100).toFixed(2)} %`).join(', ')}`,
  );
  log(
    `target: p99 after ≤ ${BURST.ratio}× before for every kind, no failed request: ${met ? 'met' : 'NOT met'}; fresh: ${freshMet ? 'met' : 'NOT met'}`,
  );
  return {
    met: met && freshMet,
    summary:
      `p99 before → after the declaration: ${ratios.join(', ')} (target ≤ ${BURST.ratio}×); ` +
      `new value on every page within ${slowest.map(ms).join(', ')} (≤ ${BURST.freshMs} ms); ` +
      `hit ratio ${rounds.map((r) => `${(r.hitRatio * 100).toFixed(2)} %`).join(', ')}`,
  };
}

export async function burstScenario(seeded: Seeded, dir: string, rounds: number): Promise<Verdict> {
  const server = await startMixServer(seeded.file, '0');
  try {
    const today = await siteToday(server.url);
    const set: ReadingSet = readingSet(seeded.seed, today);
    log(
      `reading set: ${pageCount(set)} pages (${PAGE_KINDS.map((kind) => `${kind} ${set[kind].length}`).join(', ')})`,
    );
    const files = Object.fromEntries(
      PAGE_KINDS.map((kind) => [kind, writePathsFile(dir, kind, set[kind])]),
    ) as Record<PageKind, string>;
    const nextAddress = addressSource();
    const warm = await readAll(
      server.url,
      PAGE_KINDS.flatMap((kind) => set[kind]),
      4,
      nextAddress,
    );
    log(
      `warmed: ${warm.ok} pages answered 200 in ${(warm.ms / 1000).toFixed(1)} s; others: ${warm.others.join(', ') || 'none'}`,
    );
    const token = await signIn(server.url, SEED_ADMIN, nextAddress());
    const results: Round[] = [];
    for (let index = 0; index < rounds; index++) {
      const ghadi = seeded.seed.ghadis[index % seeded.seed.ghadis.length];
      if (!ghadi) throw new Error('the seed has no ghadi');
      results.push(
        await round(
          server,
          files,
          { gid: ghadi.gid, name: ghadi.name, date: today },
          index,
          token,
          nextAddress,
        ),
      );
      log(`round ${index + 1} of ${rounds} done`);
    }
    return report(results);
  } finally {
    await server.stop();
  }
}
