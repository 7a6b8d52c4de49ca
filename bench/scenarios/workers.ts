/**
 * WORKERS=2 against WORKERS=1 in the same run (issue 8): req/s of GET /api/ghadis and GET /, in
 * alternating rounds, both servers on one seeded file. Nothing is pinned: two workers need both
 * cores, and so does the load generator, which on a 2-core machine takes CPU from the server.
 * So wrk's own CPU time is measured (one thread: at most one core) beside the servers' (supervisor
 * and workers), and the ratio is reported twice:
 * - measured: req/s with WORKERS=2 over req/s with WORKERS=1, wrk on the same cores;
 * - CPU-accounted: the throughput each would reach on the machine's cores with the load generator
 *   elsewhere, from the server CPU time per request: (cores ÷ µs/req with 2) ÷ (1 ÷ µs/req with 1).
 *   It assumes the CPU cost of a request does not change when the cores are no longer shared.
 */
import os from 'node:os';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { median } from '../lib/stats.js';
import { runWrk, type WrkResult } from '../lib/wrk.js';
import { ACCEPT_ENCODING, log, SETTINGS, type Seeded, serverEnv } from './setup.js';

const TARGET = 1.6;
const PATHS = ['/api/ghadis', '/'];

interface Figures {
  rate: number;
  cpuMicros: number;
  serverCores: number;
  wrkCores: number;
  failures: number;
}

function summarize(runs: WrkResult[]): Figures {
  return {
    rate: median(runs.map((run) => run.requestsPerSecond)),
    cpuMicros: median(runs.map((run) => run.serverCpuMicrosPerRequest)),
    serverCores: median(runs.map((run) => run.serverCores)),
    wrkCores: median(runs.map((run) => run.wrkCores)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
  };
}

async function start(seeded: Seeded, workers: number): Promise<ServerProcess> {
  const port = await freePort();
  const env = serverEnv(seeded.file, port, { WORKERS: String(workers) });
  return startServer({ port, env, keepOutput: false });
}

/** Runs the scenario; answers whether every target was met. */
export async function workersScenario(seeded: Seeded): Promise<boolean> {
  const cores = os.availableParallelism();
  const one = await start(seeded, 1);
  const two = await start(seeded, 2).catch(async (error: unknown) => {
    await one.stop();
    throw error;
  });
  try {
    log(
      `\nwrk: 1 thread, ${SETTINGS.connections} connections, ${SETTINGS.rounds} alternating rounds of ` +
        `${SETTINGS.seconds}s per server (after a 2s warm-up), nothing pinned; ${cores} CPUs\n`,
    );
    const load = (server: ServerProcess, path: string, seconds: number) =>
      runWrk({
        url: `${server.url}${path}`,
        connections: SETTINGS.connections,
        seconds,
        headers: { 'Accept-Encoding': ACCEPT_ENCODING },
        serverPid: server.pid,
      });
    const rows: string[] = [];
    let allMet = true;
    for (const path of PATHS) {
      load(one, path, 2);
      load(two, path, 2);
      const oneRuns: WrkResult[] = [];
      const twoRuns: WrkResult[] = [];
      for (let round = 0; round < SETTINGS.rounds; round++) {
        oneRuns.push(load(one, path, SETTINGS.seconds));
        twoRuns.push(load(two, path, SETTINGS.seconds));
      }
      const w1 = summarize(oneRuns);
      const w2 = summarize(twoRuns);
      const measured = w2.rate / w1.rate;
      const accounted = (cores / w2.cpuMicros) * w1.cpuMicros;
      const failures = w1.failures + w2.failures;
      const met = accounted >= TARGET && failures === 0;
      allMet &&= met;
      const row =
        `| GET ${path} | ${w1.rate.toFixed(0)} | ${w2.rate.toFixed(0)} | **${measured.toFixed(2)}** | ` +
        `${w1.cpuMicros.toFixed(1)} | ${w2.cpuMicros.toFixed(1)} | **${accounted.toFixed(2)}** | ≥ ${TARGET} | ` +
        `${w1.serverCores.toFixed(2)} / ${w2.serverCores.toFixed(2)} | ${w1.wrkCores.toFixed(2)} / ${w2.wrkCores.toFixed(2)} | ` +
        `${met ? 'met' : 'NOT MET'}${failures ? ` (${failures} failures)` : ''} |`;
      rows.push(row);
      log(row);
    }
    log(
      '\n| Request | W=1 req/s | W=2 req/s | measured ratio | W=1 CPU µs/req | W=2 CPU µs/req | CPU-accounted ratio | target | server cores W=1 / W=2 | wrk cores W=1 / W=2 | |',
    );
    log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const row of rows) log(row);
    return allMet;
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
}
