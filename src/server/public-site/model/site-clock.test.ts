import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextMidnightInZone, nextUtcMidnight, type Rollover, SiteClock } from './site-clock.js';

describe('site clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('finds the next midnight of a zone to the second', () => {
    // 20:00 UTC is 01:30 the next day in Kolkata (UTC+5:30); its next midnight is 18:30 UTC that day.
    const from = Date.parse('2026-11-22T20:00:00Z');
    const midnight = nextMidnightInZone('Asia/Kolkata', from);
    expect(Math.abs(midnight - Date.parse('2026-11-23T18:30:00Z'))).toBeLessThanOrEqual(1000);
    expect(nextUtcMidnight(from)).toBe(Date.parse('2026-11-23T00:00:00Z'));
  });

  it('handles a daylight-saving day', () => {
    // New York springs forward on 2026-03-08: that day is 23 hours long.
    const from = Date.parse('2026-03-08T06:00:00Z'); // 01:00 EST
    const midnight = nextMidnightInZone('America/New_York', from);
    expect(Math.abs(midnight - Date.parse('2026-03-09T04:00:00Z'))).toBeLessThanOrEqual(1000);
  });

  it("rolls the site's day over at the zone's midnight and at UTC midnight, and tells", () => {
    let now = Date.parse('2026-11-22T17:00:00Z'); // 22:30 in Kolkata
    const rollovers: Rollover[] = [];
    const clock = new SiteClock(
      'Asia/Kolkata',
      (rollover) => rollovers.push(rollover),
      () => now,
    );
    expect(clock.today()).toBe('2026-11-22');
    now = Date.parse('2026-11-22T18:29:59Z');
    clock.rollOverIfDue();
    expect(clock.today()).toBe('2026-11-22');
    expect(rollovers).toEqual([]);
    now = Date.parse('2026-11-22T18:30:01Z'); // Kolkata's midnight
    // Reading the date does not roll it over: that is a step of its own.
    expect(clock.today()).toBe('2026-11-22');
    expect(rollovers).toEqual([]);
    clock.rollOverIfDue();
    expect(clock.today()).toBe('2026-11-23');
    expect(rollovers).toEqual([{ today: '2026-11-23', utcDate: '2026-11-22', previous: '2026-11-22' }]);
    now = Date.parse('2026-11-23T00:00:01Z'); // UTC midnight: same site day, but a new UTC day
    clock.rollOverIfDue();
    expect(clock.today()).toBe('2026-11-23');
    expect(rollovers).toEqual([
      { today: '2026-11-23', utcDate: '2026-11-22', previous: '2026-11-22' },
      { today: '2026-11-23', utcDate: '2026-11-23', previous: '2026-11-23' },
    ]);
    clock.stop();
  });

  it('rolls over on its own timer, so that open pages hear of the new day', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-22T18:29:00Z') });
    const onRollover = vi.fn();
    const clock = new SiteClock('Asia/Kolkata', onRollover);
    vi.advanceTimersByTime(59_000);
    expect(onRollover).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2_000);
    expect(onRollover).toHaveBeenCalledTimes(1);
    clock.stop();
  });
});
