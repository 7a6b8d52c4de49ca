import os from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ServiceUnavailableError, TooManyRequestsError } from '../../errors.js';
import type { PerMinuteLimit } from '../../lib/per-minute-limit.js';

export interface BuildLimits {
  /** Builds running at once, across every client and the server's own rebuilds. */
  maxRunning: number;
  /** Readers' builds waiting for a place; past this many, a new one is refused with 503 at once. */
  maxWaiting: number;
  /** The longest a reader's build waits for a place before it is refused with 503. */
  maxWaitMs: number;
  /** Builds one client address may have waiting or running at once; more are refused with 429. */
  perAddress: number;
}

/** Twice the cores: a build waits on the database and on zlib's threads as much as it computes. */
export const BUILD_LIMITS: BuildLimits = {
  maxRunning: 2 * os.availableParallelism(),
  maxWaiting: 64,
  maxWaitMs: 5000,
  perAddress: 4,
};

/** Tells the gate whose build it is, and whether it takes from the address's minute. */
export interface Builder {
  /** The client group (lib/client-address.ts), or null for an admin's live answer (not limited). */
  address: string | null;
  /** An answer built for its request alone (a search, a 404, a page past the kept ones). */
  uncached: boolean;
}

interface Waiter {
  admit(): void;
  timer: NodeJS.Timeout;
}

/**
 * The one limit on building public answers in this process. Building is the work a client can make
 * as large as it wants (every page of every year at once), and it shares one thread with the cached
 * answers everyone else reads; so builds run a few at a time, each after the I/O waiting before it,
 * and past a short queue a request is refused (503, Retry-After: 1) rather than left to wait. Answers
 * built for one request alone also take from their address's minute (PUBLIC_QUERIES_PER_MINUTE, then
 * 429), and no address has more than a few builds going at once. Rebuilds of answers readers are
 * reading (after a change) run when a place is free and no reader waits, and leave one place free.
 */
export class BuildGate {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly queued: Array<() => void> = [];
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly perMinute: PerMinuteLimit,
    private readonly limits: BuildLimits = BUILD_LIMITS,
  ) {}

  /** Runs a reader's build when a place is free, as `builder`'s. */
  async run<T>(builder: Builder, work: () => Promise<T>): Promise<T> {
    const { address } = builder;
    if (address === null) return work();
    if (builder.uncached && !this.perMinute.take(address)) {
      throw new TooManyRequestsError(
        'Too many requests from your address; try again in a minute',
        this.perMinute.secondsToNextMinute(),
      );
    }
    const going = this.inFlight.get(address) ?? 0;
    if (going >= this.limits.perAddress) {
      throw new TooManyRequestsError(
        'Too many pages asked at once from your address; try again in a moment',
        1,
      );
    }
    this.inFlight.set(address, going + 1);
    try {
      await this.place();
      try {
        // I/O that came in before this build (cached reads) is answered first.
        await nextTurn();
        return await work();
      } finally {
        this.release();
      }
    } finally {
      const left = (this.inFlight.get(address) ?? 1) - 1;
      if (left === 0) this.inFlight.delete(address);
      else this.inFlight.set(address, left);
    }
  }

  /** Runs the server's own work (a rebuild) when a place is free and no reader waits for one. */
  background<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push(() => {
        nextTurn()
          .then(work)
          .then(resolve, reject)
          .finally(() => this.release());
      });
      this.pump();
    });
  }

  get busy(): { running: number; waiting: number; queued: number } {
    return { running: this.running, waiting: this.waiting.length, queued: this.queued.length };
  }

  private place(): Promise<void> {
    if (this.running < this.limits.maxRunning) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.maxWaiting)
      return Promise.reject(new ServiceUnavailableError('The server is busy; try again in a moment', 1));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        // The place of a build that ends passes straight to the first waiting one.
        admit: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new ServiceUnavailableError('The server is busy; try again in a moment', 1));
        }, this.limits.maxWaitMs),
      };
      waiter.timer.unref();
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.admit();
      return;
    }
    this.running -= 1;
    this.pump();
  }

  private pump(): void {
    while (this.queued.length > 0 && this.waiting.length === 0 && this.running < this.limits.maxRunning - 1) {
      this.running += 1;
      (this.queued.shift() as () => void)();
    }
  }
}
