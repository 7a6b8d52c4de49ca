import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';

const MINUTE = 60_000;
const WINDOW = 15 * MINUTE;

function failTimes(throttle: LoginThrottle, key: string, count: number, start: number, stepMs = 1000) {
  for (let index = 0; index < count; index++) throttle.recordFailure(key, start + index * stepMs);
}

describe('LoginThrottle', () => {
  it('lets a key try until it has 10 failures in the window', () => {
    const throttle = new LoginThrottle();
    const start = 1_000_000;
    failTimes(throttle, 'account:a', 9, start);
    expect(throttle.retryAfterSeconds('account:a', start + 10_000)).toBe(0);
    throttle.recordFailure('account:a', start + 10_000);
    expect(throttle.retryAfterSeconds('account:a', start + 10_000)).toBeGreaterThan(0);
  });

  it('says how long to wait: until the oldest counted failure leaves the window', () => {
    const throttle = new LoginThrottle();
    const start = 5_000_000;
    failTimes(throttle, 'k', 10, start, MINUTE);
    const now = start + 9 * MINUTE;
    // The oldest failure (at start) leaves the window at start + 15 min: 6 minutes from now.
    expect(throttle.retryAfterSeconds('k', now)).toBe(6 * 60);
    expect(throttle.retryAfterSeconds('k', start + WINDOW - 500)).toBe(1);
    expect(throttle.retryAfterSeconds('k', start + WINDOW)).toBe(0);
  });

  it('forgets failures older than the window (sliding)', () => {
    const throttle = new LoginThrottle();
    const start = 9_000_000;
    failTimes(throttle, 'k', 5, start);
    failTimes(throttle, 'k', 5, start + 10 * MINUTE);
    expect(throttle.retryAfterSeconds('k', start + 10 * MINUTE + 5000)).toBeGreaterThan(0);
    // The first five have left the window; five remain.
    expect(throttle.retryAfterSeconds('k', start + WINDOW + 10_000)).toBe(0);
    failTimes(throttle, 'k', 4, start + WINDOW + 20_000);
    expect(throttle.retryAfterSeconds('k', start + WINDOW + 30_000)).toBe(0);
    throttle.recordFailure('k', start + WINDOW + 40_000);
    expect(throttle.retryAfterSeconds('k', start + WINDOW + 40_000)).toBeGreaterThan(0);
  });

  it('keeps keys apart and clears one key only', () => {
    const throttle = new LoginThrottle();
    const now = 20_000_000;
    failTimes(throttle, 'account:a', 10, now);
    failTimes(throttle, 'address:1.2.3.4', 10, now);
    expect(throttle.retryAfterSeconds('account:b', now + 20_000)).toBe(0);
    throttle.clear('account:a');
    expect(throttle.retryAfterSeconds('account:a', now + 20_000)).toBe(0);
    expect(throttle.retryAfterSeconds('address:1.2.3.4', now + 20_000)).toBeGreaterThan(0);
  });

  it('honours a custom limit and window', () => {
    const throttle = new LoginThrottle(3, MINUTE);
    const now = 30_000_000;
    failTimes(throttle, 'k', 2, now);
    expect(throttle.retryAfterSeconds('k', now + 2000)).toBe(0);
    throttle.recordFailure('k', now + 2000);
    // The oldest failure (at now) leaves the one-minute window 58 seconds later.
    expect(throttle.retryAfterSeconds('k', now + 2000)).toBe(58);
    expect(throttle.retryAfterSeconds('k', now + MINUTE + 1)).toBe(0);
  });

  it('bounds its memory by dropping the oldest key', () => {
    const throttle = new LoginThrottle(1, WINDOW, 3);
    const now = 40_000_000;
    for (const key of ['a', 'b', 'c', 'd']) throttle.recordFailure(key, now);
    expect(throttle.retryAfterSeconds('a', now)).toBe(0);
    for (const key of ['b', 'c', 'd']) expect(throttle.retryAfterSeconds(key, now)).toBeGreaterThan(0);
  });

  it('uses the clock by default', () => {
    const throttle = new LoginThrottle(2);
    throttle.recordFailure('k');
    expect(throttle.retryAfterSeconds('k')).toBe(0);
    throttle.recordFailure('k');
    const wait = throttle.retryAfterSeconds('k');
    expect(wait).toBeGreaterThan(WINDOW / 1000 - 5);
    expect(wait).toBeLessThanOrEqual(WINDOW / 1000);
  });
});
