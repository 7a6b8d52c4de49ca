/**
 * The public hot paths, side by side with a bare node:http server sending the very same bytes
 * (issue 7): our server's answers are recorded byte for byte, bench/bare-server.mjs replays them, and
 * wrk loads each server in alternating rounds. A third server, ours with the same replay answering
 * first (bench/bare-in-app.mjs), tells the process's own cost apart from the fast path's. Reported as
 * req/s and as server CPU per request. On 2+ cores the servers are pinned to core 0 and wrk to core 1.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { treeCpuTime } from '../lib/cpu.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { median } from '../lib/stats.js';
import { runWrk, type WrkResult } from '../lib/wrk.js';
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

/** A server under load: ours, or one of the two baselines. */
interface Contender {
  port: number;
  pid: number;
}

interface Measured {
  rate: number;
  cpu: number;
  failures: number;
}

/**
 * Waits until no contender uses more than 2% of a core over 2 s (at most 30 s): a row must not pay for
 * the previous row's leftovers (our server writes the new visitors of the track rows in the
 * background). Linux counts CPU time in 10 ms ticks, so 2% of 2 s is 4 ticks.
 */
function settle(contenders: Contender[]): void {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const before = contenders.map((contender) => treeCpuTime(contender.pid));
    execFileSync('sleep', ['2']);
    const busy = contenders.some(
      (contender, index) => treeCpuTime(contender.pid) - (before[index] ?? 0) > 40_000,
    );
    if (!busy || Date.now() > deadline) return;
  }
}

/** Alternating rounds over the contenders (after a warm-up each): median req/s and CPU µs/request. */
function measure(contenders: Contender[], target: Target, origin: string): Measured[] {
  settle(contenders);
  const load = (contender: Contender, seconds: number): WrkResult =>
    runWrk({
      url: `http://127.0.0.1:${contender.port}${target.path}`,
      connections: SETTINGS.connections,
      seconds,
      headers: { 'Accept-Encoding': ACCEPT_ENCODING },
      ...(target.script ? { script: target.script } : {}),
      env: { BENCH_ORIGIN: origin },
      cpus: '1',
      serverPid: contender.pid,
    });
  for (const contender of contenders) load(contender, 2);
  const runs = contenders.map((): WrkResult[] => []);
  for (let round = 0; round < SETTINGS.rounds; round++) {
    for (const [index, contender] of contenders.entries()) {
      runs[index]?.push(load(contender, SETTINGS.seconds));
    }
  }
  return runs.map((results) => ({
    rate: median(results.map((run) => run.requestsPerSecond)),
    cpu: median(results.map((run) => run.serverCpuMicrosPerRequest)),
    failures: results.reduce((sum, run) => sum + run.failures, 0),
  }));
}

const TABLE_HEADER = [
  '| Request | bare req/s | bare in app req/s | ours req/s | ratio ours/bare | target | ours/bare in app ' +
    '| bare CPU µs/req | bare in app CPU µs/req | ours CPU µs/req | CPU ratio bare/ours | CPU ratio bare in app/ours | |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
];

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
    log(
      `\nwrk: 1 thread, ${SETTINGS.connections} connections, ${SETTINGS.rounds} alternating rounds of ` +
        `${SETTINGS.seconds}s per server (after a 2s warm-up), median req/s; ` +
        `${os.availableParallelism()} CPUs, Node ${process.version}\n`,
    );
    const contenders: Contender[] = [
      { port: barePort, pid: bare.pid },
      { port: inAppPort, pid: inApp.pid },
      { port: ourPort, pid: ours.pid },
    ];
    const rows: string[] = [];
    let allMet = true;
    for (const target of targets) {
      const [bareRun, inAppRun, ourRun] = measure(contenders, target, origin);
      if (!bareRun || !inAppRun || !ourRun) throw new Error('a contender was not measured');
      const ratio = ourRun.rate / bareRun.rate;
      const cpuRatio = bareRun.cpu / ourRun.cpu;
      const failures = bareRun.failures + inAppRun.failures + ourRun.failures;
      const met = ratio >= target.target && cpuRatio >= target.target && failures === 0;
      allMet &&= met;
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
      const row = `| ${cells.join(' | ')} |`;
      rows.push(row);
      log(row);
    }
    log('');
    for (const line of [...TABLE_HEADER, ...rows]) log(line);
    return allMet;
  } finally {
    for (const server of started.reverse()) await server.stop();
  }
}
