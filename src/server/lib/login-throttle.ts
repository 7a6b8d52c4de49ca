/**
 * The login throttle's rules, free of storage: given what the database holds about recent attempts,
 * may this attempt go on to the password check? The store records each admitted attempt as a
 * failure before the password is checked, so parallel attempts count at once (see
 * modules/auth/login-attempts-repository.ts and docs/decisions/0004-sessions-and-access.md).
 *
 * The store keeps counts, not attempts: per account, per address group and per pair of them, each
 * counter's failures in a few buckets (FailureBucket), so that a login reads three rows however many
 * attempts the window holds.
 */

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** A client address may fail this many times the per-account limit, across accounts, in the window. */
export const ADDRESS_LIMIT_FACTOR = 5;
/** The longest an account's slow-down makes anyone wait: the real owner's worst case during an attack. */
export const ACCOUNT_DELAY_CAP_SECONDS = 30;

/** How many buckets a window is counted in: a bucket spans a window's worth of time divided by this. */
export const WINDOW_BUCKETS = 15;

/**
 * The failures of one bucket of a counter: how many, and when the latest of them happened (epoch ms).
 * Bucket n spans [n, n + 1) times the bucket width; a bucket counts until its latest failure leaves
 * the window. So a failure counts for the whole window and less than one bucket's width more (never
 * less: the count errs towards refusing), and a counter holds at most WINDOW_BUCKETS + 1 buckets.
 * Processes whose clocks disagree stretch that by the difference (see withFailure).
 */
export interface FailureBucket {
  last: number;
  count: number;
}

/** What the store keeps per counter: an account, an address group, or the pair of them. */
export interface FailureCounter {
  /** Oldest first, one per bucket that had failures. */
  failures: FailureBucket[];
  /** The latest attempt of any kind (pairs only), and whether it was a success. */
  lastAttempt: number | null;
  lastSucceeded: boolean;
}

/** The three counters one login is decided on. */
export interface LoginCounters {
  pair: FailureCounter;
  address: FailureCounter;
  account: FailureCounter;
}

/** What the store knows of the window's attempts that concern one login (times in epoch ms). */
export interface AttemptWindow {
  /** Failed (or still being checked) attempts on this account from this address group. */
  pairFailures: number;
  /**
   * When the oldest counted failures stop counting, less the window: the latest failure of the
   * oldest bucket, which is when that bucket's failures leave the window together.
   */
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

/** How many failures the buckets hold. */
export function failureCount(buckets: readonly FailureBucket[]): number {
  return buckets.reduce((sum, bucket) => sum + bucket.count, 0);
}

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

  /** The width of a bucket (FailureBucket), in ms. */
  get bucketMs(): number {
    return this.windowMs / WINDOW_BUCKETS;
  }

  private bucketOf(time: number): number {
    return Math.floor(time / this.bucketMs);
  }

  /** The buckets that still count at `now`. */
  counting(buckets: readonly FailureBucket[], now: number): FailureBucket[] {
    const since = now - this.windowMs;
    return buckets.filter((bucket) => bucket.last > since);
  }

  /** The buckets with one more failure at `now`, without those that stopped counting. */
  withFailure(buckets: readonly FailureBucket[], now: number): FailureBucket[] {
    const live = this.counting(buckets, now);
    const newest = live.at(-1);
    if (newest === undefined || this.bucketOf(now) > this.bucketOf(newest.last)) {
      return [...live, { last: now, count: 1 }];
    }
    // A process whose clock is behind another's adds to the newest bucket, not an older one: the
    // failure then counts a little longer, never shorter, and the buckets stay in time order.
    return [...live.slice(0, -1), { last: Math.max(newest.last, now), count: newest.count + 1 }];
  }

  /**
   * The buckets without `removed`'s failures (a pair's, cleared by a success, out of its address's
   * or account's counter). Each is taken from its own bucket or a later one, where withFailure puts a
   * failure when another counter's newest bucket is ahead; one not found stays counted, erring
   * towards refusing.
   */
  withoutFailures(buckets: readonly FailureBucket[], removed: readonly FailureBucket[]): FailureBucket[] {
    const left = buckets.map((bucket) => ({ ...bucket }));
    for (const gone of removed) {
      let toTake = gone.count;
      for (const bucket of left) {
        if (toTake === 0) break;
        if (this.bucketOf(bucket.last) < this.bucketOf(gone.last)) continue;
        const taken = Math.min(bucket.count, toTake);
        bucket.count -= taken;
        toTake -= taken;
      }
    }
    return left.filter((bucket) => bucket.count > 0);
  }

  /**
   * Splits the newest `keep` failures off the rest: when the owner's attempt succeeds, the pair's
   * attempts admitted after it (still being checked, or failed since) stay counted, the rest go.
   */
  splitNewest(
    buckets: readonly FailureBucket[],
    keep: number,
  ): { kept: FailureBucket[]; rest: FailureBucket[] } {
    const kept: FailureBucket[] = [];
    const rest: FailureBucket[] = [];
    let toKeep = Math.max(0, keep);
    for (const bucket of [...buckets].reverse()) {
      const keptHere = Math.min(bucket.count, toKeep);
      toKeep -= keptHere;
      if (keptHere > 0) kept.unshift({ last: bucket.last, count: keptHere });
      if (bucket.count > keptHere) rest.unshift({ last: bucket.last, count: bucket.count - keptHere });
    }
    return { kept, rest };
  }

  /** What the three counters say of the window at `now`. */
  windowOf(counters: LoginCounters, now: number): AttemptWindow {
    const pair = this.counting(counters.pair.failures, now);
    const address = this.counting(counters.address.failures, now);
    const { lastAttempt } = counters.pair;
    const pairLastAttempt = lastAttempt !== null && lastAttempt > now - this.windowMs ? lastAttempt : null;
    return {
      pairFailures: failureCount(pair),
      pairOldestFailure: pair[0]?.last ?? null,
      pairLastAttempt,
      pairLastSucceeded: pairLastAttempt !== null && counters.pair.lastSucceeded,
      addressFailures: failureCount(address),
      addressOldestFailure: address[0]?.last ?? null,
      accountFailures: failureCount(this.counting(counters.account.failures, now)),
    };
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
