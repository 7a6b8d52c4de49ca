import { describe, expect, it } from 'vitest';
import { PerMinuteLimit } from './per-minute-limit.js';

describe('per-minute limit', () => {
  it('allows each key its uses in a clock minute, and again in the next minute', () => {
    let now = 60_000 * 1000;
    const limit = new PerMinuteLimit(2, () => now);
    expect([limit.take('a'), limit.take('a'), limit.take('a')]).toEqual([true, true, false]);
    expect(limit.take('b')).toBe(true);
    expect(limit.secondsToNextMinute()).toBe(60);
    now += 59_500;
    expect(limit.take('a')).toBe(false);
    expect(limit.secondsToNextMinute()).toBe(1);
    now += 500;
    expect(limit.take('a')).toBe(true);
  });

  it('under a flood of keys forgets the oldest one at a time, and the others keep their counts', () => {
    const now = 60_000 * 1000;
    const limit = new PerMinuteLimit(1, () => now, 3);
    expect(limit.take('abuser')).toBe(true);
    expect(limit.take('abuser')).toBe(false);
    limit.take('first');
    limit.take('second');
    // A fourth key pushes out the oldest (the abuser's), not the whole table.
    limit.take('third');
    expect(limit.take('first')).toBe(false);
    expect(limit.take('second')).toBe(false);
    expect(limit.take('third')).toBe(false);
  });
});
