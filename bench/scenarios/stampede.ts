/**
 * The chart stampede (issue 46): right after a declaration, every year chart of every ghadi (every
 * year from 2000, English and Hindi) is asked at once by 50 clients, each from an address of its
 * own and asking its share of the pages in turn, while one more client reads GET /api/ghadis over
 * and over. The same stampede runs against a bare node:http server replaying our recorded answers
 * (bench/bare-server.mjs: what it has not recorded, the empty years, it answers 404 at once).
 * Targets: /api/ghadis p99 on ours ≤ 2× the bare server's, and < 50 ms where the bare one stays
 * under 25 ms; a queued build answers 503 within 10 s; no status but 200, 404, 429 and 503.
 * Each round starts ours afresh (nothing kept); servers on core 0.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { yearChartPath } from '../../src/shared/chart-pages.js';
import { FIRST_CHART_YEAR } from '../../src/shared/ghadi-page-month.js';
import { inLanguage, LANGUAGES } from '../../src/shared/page-language.js';
import { addressSource, send, signIn } from '../lib/client.js';
import { declare, nextValue } from '../lib/declaration.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { ascending, median, ms, percentile } from '../lib/stats.js';
import { shownToday, siteToday, startMixServer } from './burst.js';
import { type Recorded, record, writeRecorded } from './hot-record.js';
import { localOrigin, log, type Seeded, type Verdict } from './setup.js';

const STAMPEDE = {
  clients: Number(process.env.BENCH_STAMPEDE_CLIENTS ?? 50),
  ratio: 2,
  oursBelowMs: 50,
  whereBareBelowMs: 25,
  queuedWithinMs: 10_000,
  allowed: [200, 404, 429, 503],
};

const PROBE_PATH = '/api/ghadis';
const BENCH_DIR = path.dirname(path.dirname(new URL(import.meta.url).pathname));

interface Stampede {
  probe: { p50: number; p99: number; count: number };
  statuses: Map<number, number>;
  /** The slowest 503 (a build that waited in the queue and was refused). */
  slowest503Ms: number;
  ms: number;
}

function everyYearPage(seeded: Seeded, today: string): string[] {
  const pages: string[] = [];
  for (const ghadi of seeded.seed.ghadis)
    for (let year = FIRST_CHART_YEAR; year <= Number(today.slice(0, 4)); year++)
      for (const language of LANGUAGES) pages.push(inLanguage(language, yearChartPath(ghadi.name, year)));
  return pages;
}

/** 50 clients ask their pages in turn while one reads the probe; ends when the pages are done. */
async function stampede(baseUrl: string, pages: readonly string[]): Promise<Stampede> {
  const nextAddress = addressSource();
  const statuses = new Map<number, number>();
  let slowest503Ms = 0;
  const probe = await startProbe(`${baseUrl}${PROBE_PATH}`, nextAddress());
  const started = performance.now();
  await Promise.all(
    Array.from({ length: STAMPEDE.clients }, async (_, client) => {
      const address = nextAddress();
      for (let index = client; index < pages.length; index += STAMPEDE.clients) {
        const answer = await send(baseUrl, pages[index] as string, { method: 'GET', address });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 503) slowest503Ms = Math.max(slowest503Ms, answer.ms);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const sorted = ascending(await probe.stop());
  return {
    probe: { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), count: sorted.length },
    statuses,
    slowest503Ms,
    ms: elapsed,
  };
}

/** bench/probe-reader.mjs in a process of its own, reading `url` until stopped. */
async function startProbe(url: string, address: string): Promise<{ stop(): Promise<number[]> }> {
  const child = spawn(process.execPath, [path.join(BENCH_DIR, 'probe-reader.mjs'), url, address], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  while (!output.startsWith('ready\n')) {
    if (child.exitCode !== null) throw new Error('the probe reader exited before it started');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    async stop() {
      child.kill('SIGTERM');
      await ended;
      return JSON.parse(output.slice('ready\n'.length)) as number[];
    },
  };
}

/** Our answers to the probe and to the year pages that have results, for the bare server. */
async function recordOurs(server: ServerProcess, pages: readonly string[], dir: string): Promise<string> {
  const recordings: Recorded[] = [];
  const origin = localOrigin(server.port);
  const wanted = [PROBE_PATH, ...pages];
  let next = 0;
  // Three at a time: the server gives one address four builds at once.
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      for (let index = next++; index < wanted.length; index = next++) {
        const recorded = await record(server.port, origin, { method: 'GET', path: wanted[index] as string });
        if (recorded.status === 200) recordings.push(recorded);
      }
    }),
  );
  log(`recorded ${recordings.length} answers of ours for the bare server`);
  return writeRecorded(dir, recordings);
}

function summaryOf(run: Stampede): string {
  const statuses = [...run.statuses].map(([status, count]) => `${status} ×${count}`).join(', ');
  return (
    `probe p50 ${ms(run.probe.p50)}, p99 ${ms(run.probe.p99)} (${run.probe.count} reads); ` +
    `pages in ${(run.ms / 1000).toFixed(1)} s: ${statuses}; slowest 503 ${ms(run.slowest503Ms)}`
  );
}

export async function stampedeScenario(seeded: Seeded, dir: string, rounds: number): Promise<Verdict> {
  let pages: string[] = [];
  let recordedFile = '';
  let today = '';
  {
    const server = await startMixServer(seeded.file, '0');
    try {
      today = await siteToday(server.url);
      pages = everyYearPage(seeded, today);
      const firstYear = Number(seeded.seed.firstDate.slice(0, 4));
      const withResults = pages.filter((page) => Number(page.slice(-4)) >= firstYear);
      recordedFile = await recordOurs(server, withResults, dir);
    } finally {
      await server.stop();
    }
  }
  log(`stampede: ${pages.length} year pages from ${STAMPEDE.clients} clients, ${PROBE_PATH} read meanwhile`);
  const bareRuns: Stampede[] = [];
  const ourRuns: Stampede[] = [];
  for (let round = 0; round < rounds; round++) {
    const barePort = await freePort();
    const bare = await startServer({
      port: barePort,
      args: [path.join(BENCH_DIR, 'bare-server.mjs'), recordedFile, String(barePort)],
      env: {},
      cpus: '0',
    });
    try {
      bareRuns.push(await stampede(bare.url, pages));
    } finally {
      await bare.stop();
    }
    log(`round ${round + 1}, bare: ${summaryOf(bareRuns[round] as Stampede)}`);

    const ours = await startMixServer(seeded.file, '0');
    try {
      const nextAddress = addressSource();
      await send(ours.url, PROBE_PATH, { method: 'GET', address: nextAddress() });
      const token = await signIn(ours.url, SEED_ADMIN, nextAddress());
      const ghadi = seeded.seed.ghadis[round % seeded.seed.ghadis.length];
      if (!ghadi) throw new Error('the seed has no ghadi');
      const current = await shownToday(ours.url, ghadi.gid, today, nextAddress());
      await declare(
        ours.url,
        token,
        { gid: ghadi.gid, date: today, value: nextValue(current, round) },
        nextAddress(),
      );
      ourRuns.push(await stampede(ours.url, pages));
    } finally {
      await ours.stop();
    }
    log(`round ${round + 1}, ours: ${summaryOf(ourRuns[round] as Stampede)}`);
  }
  const bareP99 = median(bareRuns.map((run) => run.probe.p99));
  const ourP99 = median(ourRuns.map((run) => run.probe.p99));
  const ratio = median(
    ourRuns.map((run, index) => run.probe.p99 / (bareRuns[index]?.probe.p99 ?? Number.NaN)),
  );
  const slowest503 = Math.max(...ourRuns.map((run) => run.slowest503Ms));
  const strays = ourRuns.flatMap((run) =>
    [...run.statuses.keys()].filter((status) => !STAMPEDE.allowed.includes(status)),
  );
  const absoluteMet = bareP99 >= STAMPEDE.whereBareBelowMs || ourP99 < STAMPEDE.oursBelowMs;
  const met =
    ratio <= STAMPEDE.ratio && absoluteMet && slowest503 <= STAMPEDE.queuedWithinMs && strays.length === 0;
  const summary =
    `${PROBE_PATH} p99 during the stampede (median of ${rounds}): ours ${ms(ourP99)}, bare ${ms(bareP99)}, ` +
    `ratio ${ratio.toFixed(2)} (target ≤ ${STAMPEDE.ratio}, and < ${STAMPEDE.oursBelowMs} ms where bare < ${STAMPEDE.whereBareBelowMs} ms); ` +
    `slowest 503 ${ms(slowest503)} (≤ ${STAMPEDE.queuedWithinMs} ms); other statuses: ${strays.join(', ') || 'none'}`;
  log(`\n${summary}: ${met ? 'met' : 'NOT met'}`);
  return { met, summary };
}
