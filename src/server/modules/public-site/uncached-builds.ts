import { ServiceUnavailableError, TooManyRequestsError } from '../../errors.js';
import type { PerMinuteLimit } from '../../lib/per-minute-limit.js';

export interface UncachedBuildLimits {
  /** Builds running at once, across every client: what a flood of misses may take from the hits. */
  maxRunning: number;
  /** Builds waiting for a place; past this many, a new one is refused with 503 at once. */
  maxWaiting: number;
}

export const UNCACHED_BUILD_LIMITS: UncachedBuildLimits = { maxRunning: 4, maxWaiting: 64 };

/**
 * The gate every public answer that is built and not kept goes through: a search, a page past the
 * cached ones, an unknown name's 404, an address spelled other than the site spells it. Such work is
 * as large as a client wants to make it, so each client address gets its minute's share (PUBLIC_QUERIES_PER_MINUTE,
 * then 429), and all clients together a few builds at a time (then a short queue, then 503), so that
 * the cached answers everyone else reads stay fast.
 */
export class UncachedBuilds {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly perAddress: PerMinuteLimit,
    private readonly limits: UncachedBuildLimits = UNCACHED_BUILD_LIMITS,
  ) {}

  /** Waits for a place for one build by `address` (a client group); call the answer when done. */
  async admit(address: string): Promise<() => void> {
    if (!this.perAddress.take(address)) {
      throw new TooManyRequestsError(
        'Too many requests from your address; try again in a minute',
        this.perAddress.secondsToNextMinute(),
      );
    }
    if (this.running < this.limits.maxRunning) this.running += 1;
    else if (this.waiting.length >= this.limits.maxWaiting) {
      throw new ServiceUnavailableError('The server is busy; try again in a moment', 1);
    } else {
      // The place of a build that ends passes straight to the first waiting one.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    };
  }

  get busy(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
