import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELAY_CAP_SECONDS,
  type AttemptWindow,
  type FailureBucket,
  failureCount,
  LOGIN_WINDOW_MS,
  LoginThrottle,
  WINDOW_BUCKETS,
} from './login-throttle.js';

const NOW = 50_000_000;
const MINUTE = 60_000;

function window(overrides: Partial<AttemptWindow> = {}): AttemptWindow {
  return {
    pairFailures: 0,
    pairOldestFailure: null,
    pairLastAttempt: null,
    pairLastSucceeded: false,
    addressFailures: 0,
    addressOldestFailure: null,
    accountFailures: 0,
    ...overrides,
  };
}

describe('LoginThrottle', () => {
  const throttle = new LoginThrottle(10);

  it('admits a clean attempt and one below every limit', () => {
    expect(throttle.verdict(window(), NOW)).toEqual({ admit: true });
    const below = window({ pairFailures: 9, addressFailures: 49, accountFailures: 9, pairLastAttempt: NOW });
    expect(throttle.verdict(below, NOW)).toEqual({ admit: true });
  });

  it('locks the pair at the limit until its oldest failure leaves the 15-minute window', () => {
    const locked = window({
      pairFailures: 10,
      pairOldestFailure: NOW - 9 * MINUTE,
      pairLastAttempt: NOW,
      addressFailures: 10,
      accountFailures: 10,
    });
    expect(throttle.verdict(locked, NOW)).toEqual({
      admit: false,
      reason: 'pair',
      retryAfterSeconds: 6 * 60,
      recordKnock: false,
    });
    const almost = { ...locked, pairOldestFailure: NOW - LOGIN_WINDOW_MS + 200 };
    expect(throttle.verdict(almost, NOW)).toMatchObject({ reason: 'pair', retryAfterSeconds: 1 });
  });

  it('locks an address at five times the limit across accounts', () => {
    const spraying = window({ addressFailures: 50, addressOldestFailure: NOW - 5 * MINUTE });
    expect(throttle.verdict(spraying, NOW)).toEqual({
      admit: false,
      reason: 'address',
      retryAfterSeconds: 10 * 60,
      recordKnock: false,
    });
    expect(throttle.verdict(window({ addressFailures: 49 }), NOW)).toEqual({ admit: true });
  });

  it('slows an account down with a delay that doubles with its failures, up to the cap', () => {
    expect(throttle.accountDelaySeconds(0)).toBe(0);
    expect(throttle.accountDelaySeconds(9)).toBe(0);
    expect(throttle.accountDelaySeconds(10)).toBe(2);
    expect(throttle.accountDelaySeconds(19)).toBe(2);
    expect(throttle.accountDelaySeconds(20)).toBe(4);
    expect(throttle.accountDelaySeconds(30)).toBe(8);
    expect(throttle.accountDelaySeconds(40)).toBe(16);
    expect(throttle.accountDelaySeconds(50)).toBe(ACCOUNT_DELAY_CAP_SECONDS);
    expect(throttle.accountDelaySeconds(1_000_000)).toBe(ACCOUNT_DELAY_CAP_SECONDS);
  });

  it('asks a new address to come back after the delay, and records its knock', () => {
    expect(throttle.verdict(window({ accountFailures: 20 }), NOW)).toEqual({
      admit: false,
      reason: 'account',
      retryAfterSeconds: 4,
      recordKnock: true,
    });
  });

  it('admits an address once the delay has passed since its last attempt, without a new knock', () => {
    const slowed = window({ accountFailures: 20, pairLastAttempt: NOW - 1500 });
    expect(throttle.verdict(slowed, NOW)).toEqual({
      admit: false,
      reason: 'account',
      retryAfterSeconds: 3,
      recordKnock: false,
    });
    expect(throttle.verdict({ ...slowed, pairLastAttempt: NOW - 4000 }, NOW)).toEqual({ admit: true });
  });

  it('does not slow down an address whose latest attempt on the account succeeded', () => {
    const signedIn = window({ accountFailures: 40, pairLastAttempt: NOW - 100, pairLastSucceeded: true });
    expect(throttle.verdict(signedIn, NOW)).toEqual({ admit: true });
    // The pair lock still holds, whatever came before.
    expect(throttle.verdict({ ...signedIn, pairFailures: 10, pairOldestFailure: NOW }, NOW)).toMatchObject({
      reason: 'pair',
    });
  });

  it('never makes an address wait longer than the cap after its knock, however long the attack', () => {
    const knockedAt = NOW - ACCOUNT_DELAY_CAP_SECONDS * 1000;
    expect(throttle.verdict(window({ accountFailures: 100_000, pairLastAttempt: knockedAt }), NOW)).toEqual({
      admit: true,
    });
  });

  it('honours a custom limit', () => {
    const strict = new LoginThrottle(3);
    expect(strict.addressMaxFailures).toBe(15);
    expect(strict.verdict(window({ pairFailures: 3, pairOldestFailure: NOW }), NOW)).toMatchObject({
      reason: 'pair',
      retryAfterSeconds: 15 * 60,
    });
    expect(strict.accountDelaySeconds(3)).toBe(2);
  });
});

describe('LoginThrottle’s failure buckets', () => {
  const throttle = new LoginThrottle(10);
  const BUCKET = throttle.bucketMs;
  /** The start of a bucket, so that a test knows which times share it. */
  const START = Math.floor(NOW / BUCKET) * BUCKET;

  function counter(failures: FailureBucket[], lastAttempt: number | null = null, lastSucceeded = false) {
    return { failures, lastAttempt, lastSucceeded };
  }

  it('spans a fifteenth of the window', () => {
    expect(BUCKET).toBe(MINUTE);
    expect(new LoginThrottle(10, 30 * MINUTE).bucketMs).toBe(2 * MINUTE);
  });

  it('adds a failure to the newest bucket while in its span, and opens a new bucket after it', () => {
    const one = throttle.withFailure([], START + 1000);
    expect(one).toEqual([{ last: START + 1000, count: 1 }]);
    const two = throttle.withFailure(one, START + BUCKET - 1);
    expect(two).toEqual([{ last: START + BUCKET - 1, count: 2 }]);
    expect(throttle.withFailure(two, START + BUCKET)).toEqual([
      { last: START + BUCKET - 1, count: 2 },
      { last: START + BUCKET, count: 1 },
    ]);
  });

  it('adds a failure from a clock behind to the newest bucket, keeping its latest time', () => {
    const buckets = [{ last: START + 2 * BUCKET + 10, count: 1 }];
    expect(throttle.withFailure(buckets, START + 5)).toEqual([{ last: START + 2 * BUCKET + 10, count: 2 }]);
  });

  it('counts a bucket until its latest failure leaves the window, and drops it on the next failure', () => {
    const buckets = [
      { last: START + 30_000, count: 4 },
      { last: START + 3 * BUCKET, count: 2 },
    ];
    const leaves = START + 30_000 + LOGIN_WINDOW_MS;
    expect(throttle.counting(buckets, leaves - 1)).toEqual(buckets);
    expect(throttle.counting(buckets, leaves)).toEqual([{ last: START + 3 * BUCKET, count: 2 }]);
    expect(throttle.withFailure(buckets, leaves)).toEqual([
      { last: START + 3 * BUCKET, count: 2 },
      { last: leaves, count: 1 },
    ]);
    expect(failureCount(buckets)).toBe(6);
  });

  it('keeps a counter to one bucket per bucket width of the window, however many failures', () => {
    let buckets: FailureBucket[] = [];
    for (let time = START; time < START + 3 * LOGIN_WINDOW_MS; time += 7_000) {
      buckets = throttle.withFailure(buckets, time);
      expect(buckets.length).toBeLessThanOrEqual(WINDOW_BUCKETS + 1);
    }
    expect(buckets.length).toBe(WINDOW_BUCKETS + 1);
  });

  it('counts each failure for the whole window and less than one bucket more', () => {
    const failedAt = START + 10_000;
    const later = START + BUCKET - 1;
    const buckets = throttle.withFailure(throttle.withFailure([], failedAt), later);
    // The first failure counts past its own window, until the bucket's latest leaves it.
    expect(failureCount(throttle.counting(buckets, failedAt + LOGIN_WINDOW_MS))).toBe(2);
    expect(failureCount(throttle.counting(buckets, later + LOGIN_WINDOW_MS - 1))).toBe(2);
    expect(later + LOGIN_WINDOW_MS - failedAt).toBeLessThan(LOGIN_WINDOW_MS + BUCKET);
    expect(failureCount(throttle.counting(buckets, later + LOGIN_WINDOW_MS))).toBe(0);
  });

  it('takes removed failures from their own bucket or a later one, never an earlier one', () => {
    const buckets = [
      { last: START + 100, count: 3 },
      { last: START + BUCKET + 100, count: 2 },
      { last: START + 2 * BUCKET + 100, count: 5 },
    ];
    expect(throttle.withoutFailures(buckets, [{ last: START + BUCKET + 50, count: 3 }])).toEqual([
      { last: START + 100, count: 3 },
      { last: START + 2 * BUCKET + 100, count: 4 },
    ]);
    // More than the buckets hold from there on: the rest stays counted.
    expect(throttle.withoutFailures(buckets, [{ last: START + 2 * BUCKET, count: 9 }])).toEqual([
      { last: START + 100, count: 3 },
      { last: START + BUCKET + 100, count: 2 },
    ]);
    expect(throttle.withoutFailures(buckets, [])).toEqual(buckets);
  });

  it('splits the newest failures off the rest', () => {
    const buckets = [
      { last: START + 100, count: 3 },
      { last: START + BUCKET + 100, count: 2 },
    ];
    expect(throttle.splitNewest(buckets, 0)).toEqual({ kept: [], rest: buckets });
    expect(throttle.splitNewest(buckets, 3)).toEqual({
      kept: [
        { last: START + 100, count: 1 },
        { last: START + BUCKET + 100, count: 2 },
      ],
      rest: [{ last: START + 100, count: 2 }],
    });
    expect(throttle.splitNewest(buckets, 9)).toEqual({ kept: buckets, rest: [] });
  });

  it('reads the window from the three counters at a time', () => {
    const pair = counter([{ last: NOW - 14 * MINUTE, count: 2 }], NOW - 14 * MINUTE, true);
    const address = counter([
      { last: NOW - 16 * MINUTE, count: 7 },
      { last: NOW - 10 * MINUTE, count: 3 },
    ]);
    const account = counter([
      { last: NOW - 15 * MINUTE, count: 40 },
      { last: NOW - MINUTE, count: 12 },
    ]);
    expect(throttle.windowOf({ pair, address, account }, NOW)).toEqual({
      pairFailures: 2,
      pairOldestFailure: NOW - 14 * MINUTE,
      pairLastAttempt: NOW - 14 * MINUTE,
      pairLastSucceeded: true,
      addressFailures: 3,
      addressOldestFailure: NOW - 10 * MINUTE,
      accountFailures: 12,
    });
    // A window later, the pair's latest attempt and its success are forgotten with its failures.
    expect(throttle.windowOf({ pair, address, account }, NOW + MINUTE)).toMatchObject({
      pairFailures: 0,
      pairOldestFailure: null,
      pairLastAttempt: null,
      pairLastSucceeded: false,
    });
  });

  it('locks a pair until its oldest bucket leaves the window, and then admits it', () => {
    const buckets = [
      { last: NOW - 12 * MINUTE, count: 4 },
      { last: NOW - 2 * MINUTE, count: 6 },
    ];
    const window = throttle.windowOf(
      { pair: counter(buckets, NOW), address: counter(buckets), account: counter([]) },
      NOW,
    );
    expect(throttle.verdict(window, NOW)).toMatchObject({ reason: 'pair', retryAfterSeconds: 3 * 60 });
    const then = NOW + 3 * MINUTE;
    const later = throttle.windowOf(
      { pair: counter(buckets, NOW), address: counter(buckets), account: counter([]) },
      then,
    );
    expect(throttle.verdict(later, then)).toEqual({ admit: true });
  });
});
