import { type Now, systemNow } from './clock.js';

const MINUTE_MS = 60 * 1000;

/**
 * At most `perMinute` uses per key (a client address group) in each clock minute, in this process.
 * The table is cleared each minute. It holds at most `maxKeys` keys, so that a flood of addresses
 * costs bounded memory: past that, the key counted first this minute is forgotten for each new one,
 * and every other key keeps its count (a flood cannot wipe the table to free one client).
 */
export class PerMinuteLimit {
  private counts = new Map<string, number>();
  private minute = 0;

  constructor(
    private readonly perMinute: number,
    private readonly now: Now = systemNow,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one use; false when the key has used up its minute. `now` if the caller has read the clock. */
  take(key: string, now = this.now()): boolean {
    const minute = Math.floor(now / MINUTE_MS);
    if (minute !== this.minute) {
      this.minute = minute;
      this.counts = new Map();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    if (count === 1 && this.counts.size >= this.maxKeys) {
      const oldest = this.counts.keys().next().value;
      if (oldest !== undefined) this.counts.delete(oldest);
    }
    this.counts.set(key, count);
    return count <= this.perMinute;
  }

  /** Seconds until the next minute starts, when every key may go on. */
  secondsToNextMinute(): number {
    return Math.max(1, Math.ceil((MINUTE_MS - (this.now() % MINUTE_MS)) / 1000));
  }
}
