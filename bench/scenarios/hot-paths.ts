/**
 * The public hot paths, side by side with a bare node:http server sending the very same bytes
 * (issue 7): our server's answers are recorded byte for byte, bench/bare-server.mjs replays them, and
 * wrk loads the servers in rounds, one at a time or all at once (hot-measure.ts). A third server, ours with the same replay answering
 * first (bench/bare-in-app.mjs), tells the process's own cost apart from the fast path's. Reported as
 * req/s and as server CPU per request. On 2+ cores the servers are pinned to core 0 and wrk to core 1.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { type Contender, type LoadMode, type Measured, measure } from './hot-measure.js';
import { ACCEPT_ENCODING, log, SETTINGS, type Seeded, serverEnv } from './setup.js';

interface Target {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  /** The ratio ours/bare this path must reach. */
  target: number;
  script?: string;
}

interface Recorded {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

const BENCH_DIR = path.dirname(path.dirname(new URL(import.meta.url).pathname));
/** Per-response or per-connection headers are the server's own business. */
const UNRECORDED = ['date', 'connection', 'keep-alive', 'x-request-id'];

/** One request to our server, recorded byte for byte (no decompression). */
function record(port: number, origin: string, target: Target): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: target.method,
        path: target.path,
        headers: {
          'accept-encoding': ACCEPT_ENCODING,
          ...(target.method === 'POST' ? { 'x-session-id': `bench-record-${Date.now()}`, origin } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined && !UNRECORDED.includes(name)) headers[name] = value;
          }
          const body = Buffer.concat(chunks).toString('base64');
          resolve({
            method: target.method,
            path: target.path,
            status: response.statusCode ?? 0,
            headers,
            body,
          });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function targetsFor(name: string): Target[] {
  return [
    { label: 'GET /', method: 'GET', path: '/', target: 0.9 },
    { label: 'GET /api/ghadis', method: 'GET', path: '/api/ghadis', target: 0.9 },
    {
      label: 'GET /api/results/{name}',
      method: 'GET',
      path: `/api/results/${encodeURIComponent(name)}`,
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

/** Runs the scenario; answers whether every target was met. */
export async function hotPaths(seeded: Seeded, dir: string): Promise<boolean> {
  const [ourPort, barePort, inAppPort] = [await freePort(), await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${ourPort}`;
  const targets = targetsFor((seeded.seed.ghadis[0]?.name ?? 'ncr').toLowerCase()).filter((target) =>
    target.label.includes(SETTINGS.rows),
  );
  if (targets.length === 0) throw new Error(`no row's label contains BENCH_ROWS=${SETTINGS.rows}`);
  const started: ServerProcess[] = [];
  try {
    const ours = await startServer({
      port: ourPort,
      env: serverEnv(seeded.file, origin),
      cpus: '0',
      keepOutput: false,
    });
    started.push(ours);
    // One recording per method and path (the two track rows share theirs).
    const distinct = targets.filter(
      (target, index) =>
        targets.findIndex((other) => other.method === target.method && other.path === target.path) === index,
    );
    const recordings = await Promise.all(distinct.map((target) => record(ourPort, origin, target)));
    for (const recorded of recordings) {
      const size = Buffer.from(recorded.body, 'base64').length;
      const encoding = recorded.headers['content-encoding'] ?? 'identity';
      log(`recorded ${recorded.method} ${recorded.path}: ${recorded.status}, ${size} bytes (${encoding})`);
      if (recorded.status !== 200)
        throw new Error(`${recorded.method} ${recorded.path} answered ${recorded.status}`);
    }
    const recordedFile = path.join(dir, 'recorded.json');
    fs.writeFileSync(recordedFile, JSON.stringify(recordings));
    const bare = await startServer({
      port: barePort,
      args: [path.join(BENCH_DIR, 'bare-server.mjs'), recordedFile, String(barePort)],
      env: {},
      cpus: '0',
      keepOutput: false,
    });
    started.push(bare);
    // Our built server with the bare logic answering first: what the process costs by itself.
    const inApp = await startServer({
      port: inAppPort,
      args: ['--import', path.join(BENCH_DIR, 'bare-in-app.mjs'), 'dist/server/server.js'],
      env: serverEnv(seeded.file, `http://127.0.0.1:${inAppPort}`, { BENCH_RECORDED: recordedFile }),
      cpus: '0',
      keepOutput: false,
    });
    started.push(inApp);
    const contenders: Contender[] = [
      { port: barePort, pid: bare.pid },
      { port: inAppPort, pid: inApp.pid },
      { port: ourPort, pid: ours.pid },
    ];
    let allMet = true;
    for (const mode of loadModes()) {
      log(
        `\nwrk: 1 thread, ${SETTINGS.connections} connections per server, ${SETTINGS.rounds} rounds of ` +
          `${SETTINGS.seconds}s (after a 2s warm-up), the servers ${MODE_TEXT[mode]}; median req/s and CPU; ` +
          `${os.availableParallelism()} CPUs, Node ${process.version}\n`,
      );
      const rows: string[] = [];
      for (const target of targets) {
        const load = { path: target.path, origin, ...(target.script ? { script: target.script } : {}) };
        const measured = await measure(contenders, load, mode);
        const { row, met } = tableRow(target, measured);
        allMet &&= met;
        rows.push(row);
        log(row);
        log(`  per round, CPU bare/ours: ${perRound(measured)}`);
      }
      log('');
      for (const line of [...TABLE_HEADER, ...rows]) log(line);
    }
    return allMet;
  } finally {
    for (const server of started.reverse()) await server.stop();
  }
}
