import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError, TooManyRequestsError } from '../../errors.js';
import { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import { UncachedBuilds } from './uncached-builds.js';

const now = () => 60_000 * 1000;

describe('uncached builds', () => {
  it('lets a few builds run at once, queues a few more, and refuses the rest with 503', async () => {
    const gate = new UncachedBuilds(new PerMinuteLimit(100, now), { maxRunning: 2, maxWaiting: 1 });
    const first = await gate.admit('a');
    const second = await gate.admit('b');
    let thirdRuns = false;
    const third = gate.admit('c').then((release) => {
      thirdRuns = true;
      return release;
    });
    await expect(gate.admit('d')).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(gate.busy).toEqual({ running: 2, waiting: 1 });
    await Promise.resolve();
    expect(thirdRuns).toBe(false);
    first();
    first();
    const releaseThird = await third;
    expect(thirdRuns).toBe(true);
    // The place passed on: still two running, and a second release of the same build changed nothing.
    expect(gate.busy).toEqual({ running: 2, waiting: 0 });
    second();
    releaseThird();
    expect(gate.busy).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses an address past its minute's share with 429 and the seconds to wait", async () => {
    const gate = new UncachedBuilds(new PerMinuteLimit(2, now));
    (await gate.admit('a'))();
    (await gate.admit('a'))();
    const refused = await gate.admit('a').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBe(60);
    (await gate.admit('b'))();
  });
});
