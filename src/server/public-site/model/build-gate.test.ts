import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError, TooManyRequestsError } from '../../errors.js';
import { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import { BuildGate, type BuildLimits } from './build-gate.js';

/** Work that ends when the test says. */
function held() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { work: () => done.then(() => 'built'), finish };
}

const LIMITS: BuildLimits = { maxRunning: 2, maxWaiting: 2, maxWaitMs: 60_000, perAddress: 3 };
const reader = (address: string, uncached = false) => ({ address, uncached });

describe('the build gate', () => {
  it('runs a few builds at once, queues a few more, and refuses the rest with 503 at once', async () => {
    const gate = new BuildGate(new PerMinuteLimit(1000), LIMITS);
    const builds = Array.from({ length: 5 }, () => held());
    const runs = builds.map((build, index) => gate.run(reader(`a${index}`), build.work));
    // The fifth is refused before the turn ends: its refusal is read now, not left unhandled.
    const refused = runs[4]?.then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.busy).toMatchObject({ running: 2, waiting: 2 });
    const refusal = await refused;
    expect(refusal).toBeInstanceOf(ServiceUnavailableError);
    expect(refusal).toMatchObject({ retryAfterSeconds: 1 });
    for (const build of builds) build.finish();
    expect(await Promise.all(runs.slice(0, 4))).toEqual(['built', 'built', 'built', 'built']);
    expect(gate.busy).toMatchObject({ running: 0, waiting: 0 });
  });

  it('refuses a build that waited too long for a place with 503', async () => {
    const gate = new BuildGate(new PerMinuteLimit(1000), { ...LIMITS, maxWaitMs: 20 });
    const blockers = [held(), held()];
    const running = blockers.map((blocker, index) => gate.run(reader(`b${index}`), blocker.work));
    await expect(gate.run(reader('late'), async () => 'never')).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    for (const blocker of blockers) blocker.finish();
    await Promise.all(running);
  });

  it('gives no address more than its share of builds at once (429), and counts its uncached ones per minute', async () => {
    let now = 0;
    const gate = new BuildGate(new PerMinuteLimit(2, () => now), { ...LIMITS, maxRunning: 10 });
    const builds = Array.from({ length: 3 }, () => held());
    const runs = builds.map((build) => gate.run(reader('greedy'), build.work));
    await expect(gate.run(reader('greedy'), async () => 'x')).rejects.toBeInstanceOf(TooManyRequestsError);
    // Another address is not held back by it.
    expect(await gate.run(reader('other'), async () => 'fine')).toBe('fine');
    for (const build of builds) build.finish();
    await Promise.all(runs);

    expect(await gate.run(reader('searcher', true), async () => 1)).toBe(1);
    expect(await gate.run(reader('searcher', true), async () => 2)).toBe(2);
    await expect(gate.run(reader('searcher', true), async () => 3)).rejects.toBeInstanceOf(
      TooManyRequestsError,
    );
    // A kept answer's build does not take from the minute.
    expect(await gate.run(reader('searcher'), async () => 4)).toBe(4);
    now += 60_000;
    expect(await gate.run(reader('searcher', true), async () => 5)).toBe(5);
  });

  it('runs the server’s rebuilds only in places no reader waits for, leaving one free', async () => {
    const gate = new BuildGate(new PerMinuteLimit(1000), { ...LIMITS, maxRunning: 3 });
    const rebuilds = Array.from({ length: 4 }, () => held());
    const done = rebuilds.map((rebuild) => gate.background(rebuild.work));
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.busy).toMatchObject({ running: 2, queued: 2 });
    // A reader still finds a place.
    expect(await gate.run(reader('visitor'), async () => 'page')).toBe('page');
    for (const rebuild of rebuilds) rebuild.finish();
    expect(await Promise.all(done)).toEqual(['built', 'built', 'built', 'built']);
    expect(gate.busy).toMatchObject({ running: 0, queued: 0 });
  });

  it('lets an admin’s live answer by, unlimited', async () => {
    const gate = new BuildGate(new PerMinuteLimit(1), { ...LIMITS, maxRunning: 1, maxWaiting: 0 });
    const blocker = held();
    const running = gate.run(reader('x'), blocker.work);
    expect(await gate.run({ address: null, uncached: true }, async () => 'admin')).toBe('admin');
    blocker.finish();
    await running;
  });
});
