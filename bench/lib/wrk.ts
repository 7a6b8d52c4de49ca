/**
 * The load generator, wrk (`apt-get install -y wrk`), run from Node: one measured run (synchronous,
 * with the server's CPU time and wrk's own), or a background load while something else is measured.
 */
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { reapedChildrenCpuTime, treeCpuTime } from './cpu.js';
import { pinned } from './server-process.js';

const BENCH_DIR = path.dirname(path.dirname(new URL(import.meta.url).pathname));

export interface WrkOptions {
  url: string;
  connections: number;
  seconds: number;
  threads?: number;
  headers?: Record<string, string>;
  /** A Lua script in bench/ (e.g. track.lua). */
  script?: string;
  /** CPUs to pin wrk to, or null (default) to let it run anywhere. */
  cpus?: string | null;
  /** Seconds before wrk gives up on a response (its default, 2 s, is short for a 25 MB list). */
  timeoutSeconds?: number;
  /** The server's process: its CPU time (with its workers') is measured around the run. */
  serverPid?: number;
  /** Variables for the Lua script (e.g. BENCH_ORIGIN for track.lua). */
  env?: Record<string, string>;
}

export interface WrkResult {
  requests: number;
  requestsPerSecond: number;
  /** Non-2xx/3xx answers plus socket errors (timeouts included). */
  failures: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** The server's CPU time per request, in microseconds (0 without serverPid). */
  serverCpuMicrosPerRequest: number;
  /** CPU cores the server used on average during the run. */
  serverCores: number;
  /** CPU cores wrk itself used on average (measured for synchronous runs only). */
  wrkCores: number;
}

function argsOf(options: WrkOptions): string[] {
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
    '-H',
    `${name}: ${value}`,
  ]);
  return [
    `-t${options.threads ?? 1}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    ...(options.timeoutSeconds ? ['--timeout', `${options.timeoutSeconds}s`] : []),
    ...headers,
    ...(options.script ? ['-s', path.join(BENCH_DIR, options.script)] : []),
    options.url,
  ];
}

/** wrk prints durations as 635.91us, 1.23ms or 2.01s. */
function durationMs(text: string | undefined): number {
  const match = /([\d.]+)(us|ms|s|m)/.exec(text ?? '');
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return { us: value / 1000, ms: value, s: value * 1000, m: value * 60_000 }[
    match[2] as 'us' | 'ms' | 's' | 'm'
  ];
}

function parse(
  output: string,
  seconds: number,
): Omit<WrkResult, 'serverCpuMicrosPerRequest' | 'serverCores' | 'wrkCores'> {
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requests,
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? requests / seconds),
    failures: non2xx + (errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
    latencyP50Ms: durationMs(/ 50%\s+(\S+)/.exec(output)?.[1]),
    latencyP99Ms: durationMs(/ 99%\s+(\S+)/.exec(output)?.[1]),
    latencyMaxMs: durationMs(/Latency\s+\S+\s+\S+\s+(\S+)/.exec(output)?.[1]),
  };
}

/** One measured run; blocks until wrk ends. */
export function runWrk(options: WrkOptions): WrkResult {
  const [program, args] = pinned(options.cpus ?? null, 'wrk', argsOf(options));
  const serverBefore = options.serverPid ? treeCpuTime(options.serverPid) : 0;
  const wrkBefore = reapedChildrenCpuTime();
  const started = process.hrtime.bigint();
  const output = execFileSync(program, args, { encoding: 'utf8', env: { ...process.env, ...options.env } });
  const wallMicros = Number(process.hrtime.bigint() - started) / 1000;
  const wrkMicros = reapedChildrenCpuTime() - wrkBefore;
  const serverMicros = options.serverPid ? treeCpuTime(options.serverPid) - serverBefore : 0;
  const parsed = parse(output, options.seconds);
  return {
    ...parsed,
    serverCpuMicrosPerRequest: parsed.requests > 0 ? serverMicros / parsed.requests : 0,
    serverCores: serverMicros / wallMicros,
    wrkCores: wrkMicros / wallMicros,
  };
}

/** A load in the background (e.g. 10 unpaged admin lists at a time) while the caller measures. */
export function startWrk(options: WrkOptions): Promise<WrkResult> {
  const [program, args] = pinned(options.cpus ?? null, 'wrk', argsOf(options));
  return new Promise((resolve, reject) => {
    execFile(
      program,
      args,
      { encoding: 'utf8', env: { ...process.env, ...options.env } },
      (error, output) => {
        if (error) reject(error);
        else
          resolve({
            ...parse(output, options.seconds),
            serverCpuMicrosPerRequest: 0,
            serverCores: 0,
            wrkCores: 0,
          });
      },
    );
  });
}
