/**
 * The login throttle's rules, free of storage: given what the database holds about recent attempts,
 * may this attempt go on to the password check? The store records each admitted attempt as a
 * failure before the password is checked, so parallel attempts count at once (see
 * modules/auth/login-attempts-repository.ts and docs/decisions/0004-sessions-and-access.md).
 */

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** A client address may fail this many times the per-account limit, across accounts, in the window. */
export const ADDRESS_LIMIT_FACTOR = 5;
/** The longest an account's slow-down makes anyone wait: the real owner's worst case during an attack. */
export const ACCOUNT_DELAY_CAP_SECONDS = 30;

/** What the store knows of the window's attempts that concern one login (times in epoch ms). */
export interface AttemptWindow {
  /** Failed (or still being checked) attempts on this account from this address group. */
  pairFailures: number;
  pairOldestFailure: number | null;
  /** The pair's latest recorded attempt of any kind: a failure, a success or a first knock. */
  pairLastAttempt: number | null;
  /** Whether that latest attempt was a success: the address has shown it knows the password. */
  pairLastSucceeded: boolean;
  /** Failed attempts from this address group, on any account. */
  addressFailures: number;
  addressOldestFailure: number | null;
  /** Failed attempts on this account, from any address. */
  accountFailures: number;
}

export type ThrottleReason = 'pair' | 'address' | 'account';

export type AttemptVerdict =
  | { admit: true }
  | {
      admit: false;
      reason: ThrottleReason;
      retryAfterSeconds: number;
      /** A first attempt from an address while the account is slowed down: recorded, so the wait starts now. */
      recordKnock: boolean;
    };

export class LoginThrottle {
  constructor(
    readonly maxFailures = 10,
    readonly windowMs = LOGIN_WINDOW_MS,
  ) {}

  get addressMaxFailures(): number {
    return this.maxFailures * ADDRESS_LIMIT_FACTOR;
  }

  /**
   * The spacing, in seconds, that an account's failures from everywhere impose on each address's
   * attempts on it: none below the limit, then 2 s, doubling with every further limit's worth of
   * failures, at most ACCOUNT_DELAY_CAP_SECONDS.
   */
  accountDelaySeconds(accountFailures: number): number {
    if (accountFailures < this.maxFailures) return 0;
    return Math.min(ACCOUNT_DELAY_CAP_SECONDS, 2 ** Math.floor(accountFailures / this.maxFailures));
  }

  verdict(window: AttemptWindow, now: number): AttemptVerdict {
    if (window.pairFailures >= this.maxFailures) {
      return this.refuse('pair', this.untilLeavesWindow(window.pairOldestFailure, now));
    }
    if (window.addressFailures >= this.addressMaxFailures) {
      return this.refuse('address', this.untilLeavesWindow(window.addressOldestFailure, now));
    }
    const delaySeconds = this.accountDelaySeconds(window.accountFailures);
    if (delaySeconds === 0 || window.pairLastSucceeded) return { admit: true };
    if (window.pairLastAttempt === null) return this.refuse('account', delaySeconds, true);
    const waitMs = window.pairLastAttempt + delaySeconds * 1000 - now;
    return waitMs > 0 ? this.refuse('account', Math.ceil(waitMs / 1000)) : { admit: true };
  }

  private untilLeavesWindow(oldest: number | null, now: number): number {
    return Math.ceil(((oldest ?? now) + this.windowMs - now) / 1000);
  }

  private refuse(reason: ThrottleReason, seconds: number, recordKnock = false): AttemptVerdict {
    return { admit: false, reason, retryAfterSeconds: Math.max(1, seconds), recordKnock };
  }
}
