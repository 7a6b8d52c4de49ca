import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PurgeSender } from './purge-sender.js';

interface Received {
  method: string;
  keys: string | undefined;
  changeId: string | undefined;
}

/** A stand-in for the shared cache: records each request, and refuses the first `refusals` with 503. */
async function standIn(refusals = 0) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  let refused = 0;
  const server = http.createServer((request, response) => {
    received.push({
      method: request.method ?? '',
      keys: request.headers['xkey-purge'] as string | undefined,
      changeId: request.headers['x-change-id'] as string | undefined,
    });
    const refuse = refused < refusals;
    if (refuse) refused += 1;
    response.writeHead(refuse ? 503 : 200).end();
    for (const waiter of waiters.splice(0)) waiter();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    received,
    /** Resolves once `count` requests have come in. */
    async until(count: number) {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const quiet = { warn: () => {}, info: () => {} };

describe('purges to a shared cache', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('sends one PURGE per change, in order, naming its keys and its change id', async () => {
    const cache = await standIn();
    cleanups.push(cache.close);
    const outcomes: string[] = [];
    const sender = new PurgeSender(cache.url, quiet, { purged: (outcome) => outcomes.push(outcome) });
    cleanups.push(() => sender.close());
    sender.send(41, ['day-2026-11-28', 'month-2026-11', 'home']);
    sender.send(42, ['content-blog']);
    await cache.until(2);
    expect(cache.received).toEqual([
      { method: 'PURGE', keys: 'day-2026-11-28 month-2026-11 home', changeId: '41' },
      { method: 'PURGE', keys: 'content-blog', changeId: '42' },
    ]);
    await expect.poll(() => outcomes).toEqual(['sent', 'sent']);
  });

  it('tries again with back-off while the cache refuses, and loses nothing', async () => {
    const cache = await standIn(2);
    cleanups.push(cache.close);
    const outcomes: string[] = [];
    const sender = new PurgeSender(
      cache.url,
      quiet,
      { purged: (outcome) => outcomes.push(outcome) },
      { firstMs: 5, lastMs: 20 },
    );
    cleanups.push(() => sender.close());
    sender.send(7, ['log']);
    sender.send(8, ['home']);
    await cache.until(4);
    expect(cache.received.map((request) => request.changeId)).toEqual(['7', '7', '7', '8']);
    await expect.poll(() => outcomes).toEqual(['failed', 'failed', 'sent', 'sent']);
    expect(sender.backlog).toBe(0);
  });

  it('tries a new change’s purge at once, whatever back-off the ones before it were in', async () => {
    const cache = await standIn(1);
    cleanups.push(cache.close);
    // A back-off far longer than the test: only the new purge can end it.
    const outcomes: string[] = [];
    const sender = new PurgeSender(
      cache.url,
      quiet,
      { purged: (outcome) => outcomes.push(outcome) },
      { firstMs: 600_000, lastMs: 600_000 },
    );
    cleanups.push(() => sender.close());
    sender.send(1, ['log']);
    // Refused: the sender now waits out its back-off.
    await expect.poll(() => outcomes).toEqual(['failed']);
    sender.send(2, ['home']);
    await cache.until(3);
    expect(cache.received.map((request) => request.changeId)).toEqual(['1', '1', '2']);
  });

  it('keeps trying a cache that is not there, without holding anyone', async () => {
    const cache = await standIn();
    const url = cache.url;
    await cache.close();
    const outcomes: string[] = [];
    const sender = new PurgeSender(
      url,
      quiet,
      { purged: (outcome) => outcomes.push(outcome) },
      {
        firstMs: 5,
        lastMs: 10,
      },
    );
    cleanups.push(() => sender.close());
    sender.send(1, ['site']);
    await expect.poll(() => outcomes.length).toBeGreaterThanOrEqual(2);
    expect(outcomes.every((outcome) => outcome === 'failed')).toBe(true);
    expect(sender.backlog).toBe(1);
  });
});
