import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELAY_CAP_SECONDS,
  type AttemptWindow,
  LOGIN_WINDOW_MS,
  LoginThrottle,
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
