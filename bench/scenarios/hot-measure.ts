/**
 * How the hot scenario loads its three servers (bare, bare in app, ours), in either of two ways:
 * - `alternate`: one server at a time, in turn, each round;
 * - `together`: the three at once, each with a wrk of its own, so that whatever the host does to the
 *   core during a round (another tenant, a frequency change) it does to all three alike.
 * A round loads each row once, after a warm-up; hot-paths.ts runs each round on servers of its own
 * and reports the median over the rounds of req/s and of server CPU µs per request. Servers are
 * pinned to core 0 and wrk to core 1 (on 2+ cores).
 */
import { execFileSync } from 'node:child_process';
import { treeCpuTime } from '../lib/cpu.js';
import { median } from '../lib/stats.js';
import { runWrk, startWrk, type WrkOptions, type WrkResult } from '../lib/wrk.js';
import { ACCEPT_ENCODING, SETTINGS } from './setup.js';

export type LoadMode = 'alternate' | 'together';

/** A server under load: ours, or one of the two baselines. */
export interface Contender {
  port: number;
  pid: number;
}

/** The request a row loads: a path, and the Lua script that builds each request, if any. */
export interface Load {
  path: string;
  script?: string;
  /** The site's origin, for the scripts that send it (BENCH_ORIGIN). */
  origin: string;
}

export interface Measured {
  rate: number;
  cpu: number;
  failures: number;
  /** Each round's server CPU µs per request, in round order. */
  rounds: number[];
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

function wrkOptions(contender: Contender, load: Load, seconds: number): WrkOptions {
  return {
    url: `http://127.0.0.1:${contender.port}${load.path}`,
    connections: SETTINGS.connections,
    seconds,
    headers: { 'Accept-Encoding': ACCEPT_ENCODING },
    ...(load.script ? { script: load.script } : {}),
    env: { BENCH_ORIGIN: load.origin },
    cpus: '1',
    serverPid: contender.pid,
  };
}

function alternateRound(contenders: Contender[], load: Load, seconds: number): WrkResult[] {
  return contenders.map((contender) => runWrk(wrkOptions(contender, load, seconds)));
}

/** The contenders loaded at once; each one's CPU time is read around the round. */
async function togetherRound(contenders: Contender[], load: Load, seconds: number): Promise<WrkResult[]> {
  const before = contenders.map((contender) => treeCpuTime(contender.pid));
  const results = await Promise.all(
    contenders.map((contender) => startWrk(wrkOptions(contender, load, seconds))),
  );
  return results.map((result, index) => {
    const contender = contenders[index] as Contender;
    const micros = treeCpuTime(contender.pid) - (before[index] ?? 0);
    return { ...result, serverCpuMicrosPerRequest: result.requests > 0 ? micros / result.requests : 0 };
  });
}

/** One round of a row, after a warm-up: each contender's result, in contender order. */
export async function measureRound(
  contenders: Contender[],
  load: Load,
  mode: LoadMode,
): Promise<WrkResult[]> {
  settle(contenders);
  const round = (seconds: number) =>
    mode === 'together'
      ? togetherRound(contenders, load, seconds)
      : Promise.resolve(alternateRound(contenders, load, seconds));
  await round(2);
  return round(SETTINGS.seconds);
}

/** Each contender's medians over the rounds (`rounds[r][c]`: round r's result of contender c). */
export function summarize(rounds: WrkResult[][]): Measured[] {
  const contenders = rounds[0]?.length ?? 0;
  return Array.from({ length: contenders }, (_, contender) => {
    const results = rounds.map((round) => round[contender] as WrkResult);
    return {
      rate: median(results.map((run) => run.requestsPerSecond)),
      cpu: median(results.map((run) => run.serverCpuMicrosPerRequest)),
      failures: results.reduce((sum, run) => sum + run.failures, 0),
      rounds: results.map((run) => run.serverCpuMicrosPerRequest),
    };
  });
}
