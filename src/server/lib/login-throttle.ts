/**
 * Counts failed logins per key (an account, a client address) in a sliding window.
 * Kept in memory: it guards one process, and a restart forgets at most one window.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures = 10,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly maxKeys = 100_000,
  ) {}

  /** Seconds until the key may try again, or 0 when it may try now. */
  retryAfterSeconds(key: string, now = Date.now()): number {
    const recent = this.recentFailures(key, now);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  recordFailure(key: string, now = Date.now()): void {
    const recent = this.recentFailures(key, now);
    recent.push(now);
    this.failures.delete(key);
    this.failures.set(key, recent.slice(-this.maxFailures));
    if (this.failures.size > this.maxKeys) {
      const oldestKey = this.failures.keys().next().value;
      if (oldestKey !== undefined) this.failures.delete(oldestKey);
    }
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recentFailures(key: string, now: number): number[] {
    const cutoff = now - this.windowMs;
    return (this.failures.get(key) ?? []).filter((time) => time > cutoff);
  }
}
