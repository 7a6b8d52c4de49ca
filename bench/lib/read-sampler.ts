/**
 * Public reads timed while something else happens: a few Node clients, each a reader pausing a random
 * 0–2× `thinkMs` between pages picked at random from a mix (one address a line, repeated by share),
 * each request from a new client address. Runs until stopped.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { send } from './client.js';
import { ascending, percentile } from './stats.js';

export interface Sampled {
  count: number;
  p50Ms: number;
  p99Ms: number;
  /** Statuses other than 200, as "404 ×3", and requests that got no answer. */
  failures: string[];
}

export interface ReadSampler {
  stop(): Promise<Sampled>;
}

export function sampleReads(
  baseUrl: string,
  mix: readonly string[],
  options: { readers: number; thinkMs: number; nextAddress: () => string },
): ReadSampler {
  let stopped = false;
  const times: number[] = [];
  const failures = new Map<string, number>();
  const fail = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1);
  const readers = Array.from({ length: options.readers }, async () => {
    while (!stopped) {
      const page = mix[Math.floor(Math.random() * mix.length)] as string;
      try {
        const answer = await send(baseUrl, page, { method: 'GET', address: options.nextAddress() });
        times.push(answer.ms);
        if (answer.status !== 200) fail(String(answer.status));
      } catch {
        fail('no answer');
      }
      await sleep(Math.random() * 2 * options.thinkMs);
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(readers);
      const sorted = ascending(times);
      return {
        count: sorted.length,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        failures: [...failures].map(([what, count]) => `${what} ×${count}`),
      };
    },
  };
}
