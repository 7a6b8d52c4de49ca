/**
 * What the result-time scenarios share besides wrk: reading a list of pages with a few Node clients
 * (to warm a server, or to time each answer), and the server's own count of cache lookups.
 */
import { send } from '../lib/client.js';
import type { TimedAnswer } from '../lib/timed-request.js';

export interface ReadAllResult {
  ok: number;
  /** Statuses other than 200, as "404 ×12". */
  others: string[];
  ms: number;
  answers: Array<{ path: string; answer: TimedAnswer }>;
}

/** Reads every page once, `clients` at a time, each request from a new address. */
export async function readAll(
  baseUrl: string,
  paths: readonly string[],
  clients: number,
  nextAddress: () => string,
  keepAnswers = false,
): Promise<ReadAllResult> {
  const started = performance.now();
  const statuses = new Map<number, number>();
  const answers: ReadAllResult['answers'] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let index = next++; index < paths.length; index = next++) {
        const path = paths[index] as string;
        const answer = await send(baseUrl, path, { method: 'GET', address: nextAddress() });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (keepAnswers) answers.push({ path, answer });
      }
    }),
  );
  return {
    ok: statuses.get(200) ?? 0,
    others: [...statuses]
      .filter(([status]) => status !== 200)
      .map(([status, count]) => `${status} ×${count}`),
    ms: performance.now() - started,
    answers,
  };
}

export type Lookups = Record<'hit' | 'stale' | 'miss', number>;

/** public_read_cache_lookups_total summed over routes, by outcome, from GET /metrics. */
export async function cacheLookups(baseUrl: string, metricsToken: string): Promise<Lookups> {
  const answer = await send(baseUrl, '/metrics', {
    method: 'GET',
    address: '10.255.255.2',
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  if (answer.status !== 200) throw new Error(`GET /metrics answered ${answer.status}`);
  const lookups: Lookups = { hit: 0, stale: 0, miss: 0 };
  for (const line of answer.body.toString('utf8').split('\n')) {
    const match = /^public_read_cache_lookups_total\{.*outcome="(hit|stale|miss)".*\} (\d+)/.exec(line);
    if (match) lookups[match[1] as keyof Lookups] += Number(match[2]);
  }
  return lookups;
}

/** The share of lookups between two readings answered from what was kept (stale answers count). */
export function hitRatio(before: Lookups, after: Lookups): number {
  const hits = after.hit - before.hit + (after.stale - before.stale);
  const all = hits + (after.miss - before.miss);
  return all === 0 ? Number.NaN : hits / all;
}
