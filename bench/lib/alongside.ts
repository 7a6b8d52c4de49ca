/**
 * Public reads measured while heavy requests run (issue 9: the unpaged admin list must not stall
 * anyone else). wrk keeps `load.connections` heavy requests in flight for `load.seconds`; meanwhile
 * this process sends the sampled reads one after another and times each. Also samples the same reads
 * with nothing else running first, for comparison.
 */
import { ascending, percentile } from './stats.js';
import { timedRequest } from './timed-request.js';
import { startWrk, type WrkResult } from './wrk.js';

export interface AlongsideOptions {
  baseUrl: string;
  load: { path: string; headers: Record<string, string>; connections: number; seconds: number };
  /** Paths read (GET) in turn while the load runs. */
  sampled: string[];
  /** Seconds of sampling with no load, before it. */
  aloneSeconds?: number;
}

export interface SampledFigures {
  path: string;
  count: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface AlongsideResult {
  alone: SampledFigures[];
  alongside: SampledFigures[];
  load: WrkResult;
}

function figures(path: string, latencies: number[], failures: number): SampledFigures {
  const sorted = ascending(latencies);
  return {
    path,
    count: sorted.length,
    failures,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Reads `paths` in turn until `until()` says stop; the latencies per path. */
async function sample(baseUrl: string, paths: string[], until: () => boolean): Promise<SampledFigures[]> {
  const latencies = new Map<string, number[]>(paths.map((path) => [path, []]));
  const failures = new Map<string, number>(paths.map((path) => [path, 0]));
  while (!until()) {
    for (const path of paths) {
      try {
        const answer = await timedRequest(`${baseUrl}${path}`);
        latencies.get(path)?.push(answer.ms);
        if (answer.status !== 200) failures.set(path, (failures.get(path) ?? 0) + 1);
      } catch {
        failures.set(path, (failures.get(path) ?? 0) + 1);
      }
      // A visitor's pace rather than a flood: the reads measure waiting, not add load.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  return paths.map((path) => figures(path, latencies.get(path) ?? [], failures.get(path) ?? 0));
}

export async function measureAlongside(options: AlongsideOptions): Promise<AlongsideResult> {
  const aloneUntil = Date.now() + (options.aloneSeconds ?? 2) * 1000;
  const alone = await sample(options.baseUrl, options.sampled, () => Date.now() > aloneUntil);
  let loadDone = false;
  const load = startWrk({
    url: `${options.baseUrl}${options.load.path}`,
    connections: options.load.connections,
    seconds: options.load.seconds,
    headers: options.load.headers,
    timeoutSeconds: 120,
  }).finally(() => {
    loadDone = true;
  });
  // The heavy requests need a moment to be sent and reach the server's work.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const alongside = await sample(options.baseUrl, options.sampled, () => loadDone);
  return { alone, alongside, load: await load };
}
