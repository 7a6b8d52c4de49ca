/**
 * The public hot paths, side by side with a bare node:http server sending the very same bytes
 * (issue 7): our server's answers are recorded byte for byte (hot-record.ts), bench/bare-server.mjs
 * replays them, and wrk loads the servers in rounds, one at a time or all at once (hot-measure.ts).
 * A third server, ours with the same replay answering first (bench/bare-in-app.mjs), tells the
 * process's own cost apart from the fast path's. Reported as req/s and as server CPU per request.
 * On 2+ cores the servers are pinned to core 0 and wrk to core 1.
 */
import os from 'node:os';
import path from 'node:path';
import { weeklyChartPath } from '../../src/shared/weekly-chart-pages.js';
import { withBenchMarket } from '../lib/bench-market.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import type { WrkResult } from '../lib/wrk.js';
import { type Contender, type LoadMode, type Measured, measureRound, summarize } from './hot-measure.js';
import { askEachOnce, type BenchedRequest, recordAnswers } from './hot-record.js';
import { localOrigin, log, SETTINGS, type Seeded, serverEnv } from './setup.js';

interface Target extends BenchedRequest {
  label: string;
  /** The ratio ours/bare this path must reach. */
  target: number;
  script?: string;
}

const BENCH_DIR = path.dirname(path.dirname(new URL(import.meta.url).pathname));

/** The rows: `name` a seeded ghadi's (folded), `market` the open/close market's (its weekly charts) of `year`. */
function targetsFor(name: string, market: string, year: number): Target[] {
  return [
    { label: 'GET /', method: 'GET', path: '/', target: 0.9 },
    { label: 'GET /api/ghadis', method: 'GET', path: '/api/ghadis', target: 0.9 },
    {
      label: 'GET /api/results/{name}',
      method: 'GET',
      path: `/api/results/${encodeURIComponent(name)}`,
      target: 0.9,
    },
    // Each new public page has the same budget as the ones before it.
    {
      label: 'GET /satta-results/{name}/{year} (year chart)',
      method: 'GET',
      path: `/satta-results/${encodeURIComponent(name)}/${new Date().getUTCFullYear()}`,
      target: 0.9,
    },
    {
      label: 'GET /panel-chart/{name}/{year} (weekly chart)',
      method: 'GET',
      path: weeklyChartPath('panel', market, year),
      target: 0.9,
    },
    {
      label: 'GET /hi/chart/{month} (month chart, Hindi)',
      method: 'GET',
      path: `/hi/chart/${new Date().toISOString().slice(0, 7)}`,
      target: 0.9,
    },
    {
      label: 'POST /api/visitor/track with Origin (a new visitor each)',
      method: 'POST',
      path: '/api/visitor/track',
      target: 0.8,
      script: 'track.lua',
    },
    {
      label: 'POST /api/visitor/track with Origin (one returning visitor)',
      method: 'POST',
      path: '/api/visitor/track',
      target: 0.8,
      script: 'track-returning.lua',
    },
  ];
}

const TABLE_HEADER = [
  '| Request | bare req/s | bare in app req/s | ours req/s | ratio ours/bare | target | ours/bare in app ' +
    '| bare CPU µs/req | bare in app CPU µs/req | ours CPU µs/req | CPU ratio bare/ours | CPU ratio bare in app/ours | |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
];

const MODE_TEXT: Record<LoadMode, string> = {
  alternate: 'loaded one at a time in turn',
  together: 'loaded at once (each by a wrk of its own)',
};

function loadModes(): LoadMode[] {
  if (SETTINGS.load === 'alternate' || SETTINGS.load === 'together') return [SETTINGS.load];
  if (SETTINGS.load === 'both') return ['alternate', 'together'];
  throw new Error(`BENCH_LOAD=${SETTINGS.load}: choose alternate, together or both`);
}

/** A row of the table from the medians of bare, bare in app and ours; met when both ratios reach the target. */
function tableRow(target: Target, measured: Measured[]): { row: string; met: boolean } {
  const [bareRun, inAppRun, ourRun] = measured;
  if (!bareRun || !inAppRun || !ourRun) throw new Error('a contender was not measured');
  const ratio = ourRun.rate / bareRun.rate;
  const cpuRatio = bareRun.cpu / ourRun.cpu;
  const failures = bareRun.failures + inAppRun.failures + ourRun.failures;
  const met = ratio >= target.target && cpuRatio >= target.target && failures === 0;
  const cells = [
    target.label,
    bareRun.rate.toFixed(0),
    inAppRun.rate.toFixed(0),
    ourRun.rate.toFixed(0),
    `**${ratio.toFixed(2)}**`,
    `≥ ${target.target.toFixed(1)}`,
    (ourRun.rate / inAppRun.rate).toFixed(2),
    bareRun.cpu.toFixed(1),
    inAppRun.cpu.toFixed(1),
    ourRun.cpu.toFixed(1),
    `**${cpuRatio.toFixed(2)}**`,
    (inAppRun.cpu / ourRun.cpu).toFixed(2),
    `${met ? 'met' : 'NOT MET'}${failures ? ` (${failures} failures)` : ''}`,
  ];
  return { row: `| ${cells.join(' | ')} |`, met };
}

/** Each round's CPU ratio bare/ours (in `together` mode, measured over the same seconds). */
function perRound(measured: Measured[]): string {
  const [bareRun, , ourRun] = measured;
  return (ourRun?.rounds ?? [])
    .map((cpu, index) => ((bareRun?.rounds[index] ?? 0) / cpu).toFixed(2))
    .join(' ');
}

interface Ports {
  ours: number;
  bare: number;
  inApp: number;
}

/** Our server, alone: it answers the requests recorded for the baselines. */
function startOurs(seeded: Seeded, ports: Ports): Promise<ServerProcess> {
  return startServer({
    port: ports.ours,
    env: serverEnv(seeded.file, ports.ours),
    cpus: '0',
    keepOutput: false,
  });
}

/** The two baselines, sending the recorded answers: bare, and our built server with them answering first. */
async function startBaselines(
  seeded: Seeded,
  ports: Ports,
  recordedFile: string,
): Promise<[bare: ServerProcess, inApp: ServerProcess]> {
  const bare = await startServer({
    port: ports.bare,
    args: [path.join(BENCH_DIR, 'bare-server.mjs'), recordedFile, String(ports.bare)],
    env: {},
    cpus: '0',
    keepOutput: false,
  });
  try {
    const inApp = await startServer({
      port: ports.inApp,
      args: ['--import', path.join(BENCH_DIR, 'bare-in-app.mjs'), 'dist/server/server.js'],
      env: serverEnv(seeded.file, ports.inApp, { BENCH_RECORDED: recordedFile }),
      cpus: '0',
      keepOutput: false,
    });
    return [bare, inApp];
  } catch (error) {
    await bare.stop();
    throw error;
  }
}

/**
 * Runs the scenario; answers whether every target was met.
 *
 * Each round runs on three servers of its own, started for it on the same ports (so the recorded
 * bytes, which name our origin, stay right). Two copies of the same server, loaded at once, differed
 * by 1.4-5.9 % of CPU a request in every round of a run, by where each process's code and heap
 * landed; with one set of processes per run, that offset was in every round's ratio alike.
 */
export async function hotPaths(seeded: Seeded, dir: string): Promise<boolean> {
  const ports: Ports = { ours: await freePort(), bare: await freePort(), inApp: await freePort() };
  const origin = localOrigin(ports.ours);
  // On a copy of the seeded file with an open/close market added: the seed has none (bench-market.ts).
  const market = await withBenchMarket(seeded.file, seeded.seed, dir);
  const hot: Seeded = { ...seeded, file: market.file };
  const targets = targetsFor(
    (seeded.seed.ghadis[0]?.name ?? 'ncr').toLowerCase(),
    market.name,
    Number(seeded.seed.lastDate.slice(0, 4)),
  ).filter((target) => target.label.includes(SETTINGS.rows));
  if (targets.length === 0) throw new Error(`no row's label contains BENCH_ROWS=${SETTINGS.rows}`);
  const modes = loadModes();
  // results[mode][row][round][contender]
  const results = new Map(modes.map((mode) => [mode, targets.map((): WrkResult[][] => [])]));
  let recordedFile: string | undefined;
  for (let round = 0; round < SETTINGS.rounds; round++) {
    const started: ServerProcess[] = [];
    try {
      const ours = await startOurs(hot, ports);
      started.push(ours);
      // Round 1 records the answers, which builds them; later rounds' servers build them here too.
      if (recordedFile) await askEachOnce(ports.ours, targets);
      else recordedFile = await recordAnswers(ports.ours, targets, dir);
      const [bare, inApp] = await startBaselines(hot, ports, recordedFile);
      started.push(bare, inApp);
      const contenders: Contender[] = [
        { port: ports.bare, pid: bare.pid },
        { port: ports.inApp, pid: inApp.pid },
        { port: ports.ours, pid: ours.pid },
      ];
      log(`round ${round + 1} of ${SETTINGS.rounds}: servers started`);
      for (const mode of modes) {
        for (const [row, target] of targets.entries()) {
          const load = { path: target.path, origin, ...(target.script ? { script: target.script } : {}) };
          results.get(mode)?.[row]?.push(await measureRound(contenders, load, mode));
        }
      }
    } finally {
      for (const server of started.reverse()) await server.stop();
    }
  }
  let allMet = true;
  for (const mode of modes) {
    log(
      `\nwrk: 1 thread, ${SETTINGS.connections} connections per server, ${SETTINGS.rounds} rounds of ` +
        `${SETTINGS.seconds}s (each after a 2s warm-up, on servers started for the round), the servers ` +
        `${MODE_TEXT[mode]}; median req/s and CPU; ${os.availableParallelism()} CPUs, Node ${process.version}\n`,
    );
    const rows: string[] = [];
    for (const [row, target] of targets.entries()) {
      const measured = summarize(results.get(mode)?.[row] ?? []);
      const { row: line, met } = tableRow(target, measured);
      allMet &&= met;
      rows.push(line);
      log(`  ${target.label}: per round, CPU bare/ours: ${perRound(measured)}`);
    }
    log('');
    for (const line of [...TABLE_HEADER, ...rows]) log(line);
  }
  return allMet;
}
