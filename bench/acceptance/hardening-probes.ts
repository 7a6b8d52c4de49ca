/**
 * What the hardening group (hardening-checks.ts) measures a server process by, from outside: its
 * resident memory from /proc (after a forced garbage collection where the server was started with the
 * hook below), open-file limits, and request latencies timed on a thread of their own, so that the
 * load this thread sends does not delay the timing of the sampled reads.
 */
import fs from 'node:fs';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { ascending, percentile } from '../lib/stats.js';

/**
 * Node arguments that start the built server with a garbage collection on SIGUSR2 (nothing of the
 * server changes: the hook only calls gc()), so that memory can be read settled rather than at
 * whatever point the collector had reached.
 */
export const SERVER_WITH_GC_HOOK = [
  '--expose-gc',
  '--import',
  'data:text/javascript,process.on("SIGUSR2",()=>{globalThis.gc();globalThis.gc()})',
  'dist/server/server.js',
];

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match?.[1]) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** The process's resident memory now, in MB. */
export const residentMb = (pid: number) => statusField(pid, 'VmRSS');
/** The most it has been resident since it started, in MB. */
export const peakResidentMb = (pid: number) => statusField(pid, 'VmHWM');

/** The soft limit on open files of a process (`self` for this one). */
export function openFileLimit(pid: number | 'self'): number {
  const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8');
  const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
  return match?.[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match?.[1] ?? 0);
}

/**
 * Resident memory settled: `rounds` readings a second apart, each after a forced collection when the
 * server has the hook. The median is the figure; all readings go into the report.
 */
export async function settledResidentMb(
  pid: number,
  hooked: boolean,
  rounds = 3,
): Promise<{ mb: number; readings: number[] }> {
  const readings: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (hooked) process.kill(pid, 'SIGUSR2');
    await sleep(1000);
    readings.push(residentMb(pid));
  }
  const sorted = ascending(readings);
  return { mb: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, readings };
}

export interface LatencyFigures {
  count: number;
  /** Answers other than 200, and requests that failed. */
  failures: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
}

export function latencyFigures(latencies: number[], statuses: Record<string, number>): LatencyFigures {
  const sorted = ascending(latencies);
  const failures = Object.entries(statuses)
    .filter(([status]) => status !== '200')
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    count: sorted.length,
    failures,
    statuses,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export const describeLatency = (figures: LatencyFigures) =>
  `${figures.count} reads, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, ` +
  `max ${figures.max.toFixed(1)} ms, statuses ${JSON.stringify(figures.statuses)}`;

/** Plain JavaScript (the thread runs no TypeScript loader): GETs one after another until told to stop. */
const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
const statuses = {};
let stopping = false;
parentPort.on('message', () => { stopping = true; });
const count = (key) => { statuses[key] = (statuses[key] || 0) + 1; };
const once = () => new Promise((resolve) => {
  const started = process.hrtime.bigint();
  const request = http.get(workerData.url, { agent, headers: workerData.headers }, (response) => {
    response.resume();
    response.on('end', () => {
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      count(String(response.statusCode));
      resolve();
    });
  });
  request.on('error', (error) => { count('error ' + error.code); resolve(); });
  request.setTimeout(10000, () => request.destroy(new Error('timeout')));
});
(async () => {
  const until = Date.now() + workerData.maxMs;
  while (!stopping && Date.now() < until) {
    await once();
    await new Promise((resolve) => setTimeout(resolve, workerData.pauseMs));
  }
  parentPort.postMessage({ latencies, statuses });
})();
`;

export interface LatencySampler {
  /** Stops the reads and answers their figures. */
  stop(): Promise<LatencyFigures>;
}

/**
 * Reads `url` one request at a time (a visitor's pace: `pauseMs` between them) on a thread of its own
 * until stopped, or for `maxMs` at most.
 */
export function sampleLatency(
  url: string,
  headers: Record<string, string>,
  options: { pauseMs?: number; maxMs?: number } = {},
): LatencySampler {
  const worker = new Worker(SAMPLER, {
    eval: true,
    workerData: {
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br', ...headers },
      pauseMs: options.pauseMs ?? 5,
      maxMs: options.maxMs ?? 300_000,
    },
  });
  const result = new Promise<LatencyFigures>((resolve, reject) => {
    worker.once('message', (message: { latencies: number[]; statuses: Record<string, number> }) => {
      resolve(latencyFigures(message.latencies, message.statuses));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  return {
    stop: () => {
      worker.postMessage('stop');
      return result;
    },
  };
}

/** Runs `tasks` with at most `concurrency` at once, stopping to take new ones at `deadline` (epoch ms). */
export async function runPool<T>(
  tasks: Array<() => Promise<T>>,
  concurrency: number,
  deadline: number,
): Promise<{ results: T[]; skipped: number }> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    while (next < tasks.length && Date.now() < deadline) {
      const task = tasks[next++];
      if (task) results.push(await task());
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { results, skipped: tasks.length - next };
}

/** A connection of its own (no agent): for streams held open, and for requests that must not be pooled. */
export function openStream(
  url: string,
  options: { headers?: Record<string, string>; localAddress?: string } = {},
): Promise<{ status: number; request: http.ClientRequest; response: http.IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, ...options }, (response) => {
      // Answered: from now on the stream may stay silent (or unread) as long as the check wants.
      request.setTimeout(0);
      resolve({ status: response.statusCode ?? 0, request, response });
    });
    request.on('error', reject);
    request.setTimeout(30_000, () => request.destroy(new Error(`no answer from ${url} in 30 s`)));
  });
}
