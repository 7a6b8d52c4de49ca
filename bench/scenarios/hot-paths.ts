/**
 * The public hot paths, side by side with a bare node:http server sending the very same bytes
 * (issue 7): our server's answers are recorded byte for byte, bench/bare-server.mjs replays them, and
 * wrk loads both in alternating rounds. Reported as req/s and as server CPU per request, ours/bare.
 * On 2+ cores both servers are pinned to core 0 and wrk to core 1.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, startServer } from '../lib/server-process.js';
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

/** Runs the scenario; answers whether every target was met. */
export async function hotPaths(seeded: Seeded, dir: string): Promise<boolean> {
  const [ourPort, barePort] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${ourPort}`;
  const targets = targetsFor((seeded.seed.ghadis[0]?.name ?? 'ncr').toLowerCase());
  const ours = await startServer({
    port: ourPort,
    env: serverEnv(seeded.file, origin),
    cpus: '0',
    keepOutput: false,
  });
  try {
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
    const fixtures = path.join(dir, 'fixtures.json');
    fs.writeFileSync(fixtures, JSON.stringify(recordings));
    const bare = await startServer({
      port: barePort,
      args: [path.join(BENCH_DIR, 'bare-server.mjs'), fixtures, String(barePort)],
      env: {},
      cpus: '0',
      keepOutput: false,
    });
    try {
      log(
        `\nwrk: 1 thread, ${SETTINGS.connections} connections, ${SETTINGS.rounds} alternating rounds of ` +
          `${SETTINGS.seconds}s per server (after a 2s warm-up), median req/s; ` +
          `${os.availableParallelism()} CPUs, Node ${process.version}\n`,
      );
      const load = (port: number, pid: number, target: Target, seconds: number): WrkResult =>
        runWrk({
          url: `http://127.0.0.1:${port}${target.path}`,
          connections: SETTINGS.connections,
          seconds,
          headers: { 'Accept-Encoding': ACCEPT_ENCODING },
          ...(target.script ? { script: target.script } : {}),
          env: { BENCH_ORIGIN: origin },
          cpus: '1',
          serverPid: pid,
        });
      const rows: string[] = [];
      let allMet = true;
      for (const target of targets) {
        load(barePort, bare.pid, target, 2);
        load(ourPort, ours.pid, target, 2);
        const bareRuns: WrkResult[] = [];
        const ourRuns: WrkResult[] = [];
        for (let round = 0; round < SETTINGS.rounds; round++) {
          bareRuns.push(load(barePort, bare.pid, target, SETTINGS.seconds));
          ourRuns.push(load(ourPort, ours.pid, target, SETTINGS.seconds));
        }
        const bareRate = median(bareRuns.map((run) => run.requestsPerSecond));
        const ourRate = median(ourRuns.map((run) => run.requestsPerSecond));
        const bareCpu = median(bareRuns.map((run) => run.serverCpuMicrosPerRequest));
        const ourCpu = median(ourRuns.map((run) => run.serverCpuMicrosPerRequest));
        const failures = [...bareRuns, ...ourRuns].reduce((sum, run) => sum + run.failures, 0);
        const ratio = ourRate / bareRate;
        const cpuRatio = bareCpu / ourCpu;
        const met = ratio >= target.target && cpuRatio >= target.target && failures === 0;
        allMet &&= met;
        const row =
          `| ${target.label} | ${bareRate.toFixed(0)} | ${ourRate.toFixed(0)} | **${ratio.toFixed(2)}** | ≥ ${target.target.toFixed(1)} | ` +
          `${bareCpu.toFixed(1)} | ${ourCpu.toFixed(1)} | **${cpuRatio.toFixed(2)}** | ` +
          `${met ? 'met' : 'NOT MET'}${failures ? ` (${failures} failures)` : ''} |`;
        rows.push(row);
        log(row);
      }
      log(
        '\n| Request | bare req/s | ours req/s | ratio ours/bare | target | bare CPU µs/req | ours CPU µs/req | CPU ratio bare/ours | |',
      );
      log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
      for (const row of rows) log(row);
      return allMet;
    } finally {
      await bare.stop();
    }
  } finally {
    await ours.stop();
  }
}
