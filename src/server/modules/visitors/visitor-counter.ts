import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHealth } from '../../db/database-health.js';
import { type Now, systemNow } from '../../lib/clock.js';
import { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import { SessionIdSet } from './session-id-set.js';
import type { VisitorsRepository } from './visitors-repository.js';

const MINUTE_MS = 60 * 1000;
const ACTIVE_WINDOW_MS = 5 * MINUTE_MS;
/** Sessions not seen for this long are pruned; one that comes back after that counts again. */
export const SESSION_RETENTION_MS = 30 * 24 * 60 * MINUTE_MS;
const PRUNE_EVERY_MS = 60 * MINUTE_MS;
/**
 * The active count is a walk of the last_seen index (tens of milliseconds past a million active
 * sessions), so it is redone only this often. Between walks, each write adds the new sessions (every
 * process's, from the running total) and this process's sessions back after the window. Another
 * process's returning sessions, and sessions leaving the window, show at the next walk.
 */
const ACTIVE_RECOUNT_MS = 30 * 1000;

export interface VisitorLimits {
  /**
   * Sessions counted per client address (or IPv6 /64) per minute; more are accepted, not counted. A
   * browser tracks once per session, so these are its new sessions.
   */
  newSessionsPerAddressPerMinute: number;
  /** Sightings that start a write without waiting for the interval. */
  batchSize: number;
  /** Sightings waiting while a write is under way or after one failed; past this, further ones are dropped. */
  maxPending: number;
  /** Client addresses whose sessions are counted within one minute. */
  maxAddresses: number;
}

export const VISITOR_LIMITS: VisitorLimits = {
  newSessionsPerAddressPerMinute: 60,
  // Small batches keep the waiting set small: its hash table (SessionIdSet) stays in the CPU's cache.
  batchSize: 4096,
  maxPending: 50_000,
  maxAddresses: 100_000,
};

/**
 * Counts visits in memory and writes them to the database in batches, so that tracking costs no
 * database write per request. The counts come from the database (a running total, and the sessions
 * seen in the last five minutes, which every process writes), refreshed at each write, plus this
 * process's sightings not written yet: reading them costs nothing. A crash loses at most one interval.
 *
 * A browser tracks once per session, so a sighting is taken for a new session until its write tells
 * (the database keeps one row per session): a session that comes back within one interval counts
 * twice until then. Remembering the sessions already seen, to tell sooner, cost more than the rest
 * of a sighting and was nearly always for nothing.
 */
export class VisitorCounter {
  /** Sessions waiting for the next write. */
  private readonly pending = new SessionIdSet();
  /** Sightings of the batch being written, counted until the database's figures include them. */
  private writing = 0;
  private stored = { total: 0, active: 0 };
  private nextPrune = 0;
  private nextActiveRecount = 0;
  /** Sessions written since the last refresh that were stored but had left the active window. */
  private reactivated = 0;
  private dropped = 0;
  /** The last write failed: until one succeeds, writes wait for the interval, not for a full batch. */
  private writeFailed = false;
  private timer: NodeJS.Timeout | undefined;
  /**
   * The time the per-address limit goes by, read when made and at each timed write: a new visitor reads
   * no clock, which is a measurable share of its request's CPU (bench/README.md). A minute ends up to
   * one interval late.
   */
  private clock: number;
  private flushing: Promise<void> | undefined;
  private readonly newSessions: PerMinuteLimit;

  constructor(
    private readonly visitors: VisitorsRepository,
    private readonly flushIntervalMs: number,
    private readonly log: FastifyBaseLogger,
    private readonly limits: VisitorLimits = VISITOR_LIMITS,
    /** Told of each batch written (true) or failed (false): the metrics. */
    private readonly onFlush: (written: boolean) => void = () => {},
    private readonly now: Now = systemNow,
    /** Logs the database's being away once per outage, instead of each failed write here. */
    private readonly health?: DatabaseHealth,
  ) {
    this.clock = now();
    this.newSessions = new PerMinuteLimit(limits.newSessionsPerAddressPerMinute, now, limits.maxAddresses);
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      this.clock = this.now();
      void this.flush();
    }, this.flushIntervalMs);
    this.timer.unref();
  }

  /** A visit from a session, from a client address (already grouped: IPv6 by /64). */
  track(sessionId: string, address: string): void {
    const { pending } = this;
    const waiting = pending.size;
    // Added first, taken back if a limit says so: one lookup for a sighting that is counted.
    if (!pending.add(sessionId)) return;
    const counted = this.newSessions.take(address, this.clock);
    // Only while a write is under way, or after one failed, can maxPending wait.
    if (!counted || waiting >= this.limits.maxPending) {
      pending.removeLast();
      if (counted) this.dropped += 1;
      return;
    }
    // After a failed write the batch stays full: retrying at every sighting would copy it each time.
    if (pending.size >= this.limits.batchSize && !this.writeFailed) void this.flush();
  }

  stats(): { totalUsers: number; activeUsers: number } {
    const unwritten = this.pending.size + this.writing;
    return { totalUsers: this.stored.total + unwritten, activeUsers: this.stored.active + unwritten };
  }

  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.dropped > 0) {
      this.log.warn({ dropped: this.dropped }, 'visitor sightings dropped: too many waiting to be written');
      this.dropped = 0;
    }
    // In key order: the web app's ids start with the time, so a sorted batch goes in at the end of the
    // key's tree, a page at a time, instead of splitting pages here and there (bench/README.md).
    const batch = this.pending.takeAll().sort();
    this.writing = batch.length;
    try {
      if (batch.length > 0) {
        const now = Date.now();
        const recorded = await this.visitors.recordBatch(batch, now, now - ACTIVE_WINDOW_MS);
        this.reactivated += recorded.reactivated;
        this.writeFailed = false;
        this.onFlush(true);
      }
    } catch (error) {
      this.onFlush(false);
      this.writeFailed = true;
      for (const sessionId of batch) this.pending.add(sessionId);
      this.writing = 0;
      if (!this.health?.absorbs(error)) this.log.error({ err: error }, 'visitor flush failed; will retry');
      return;
    }
    try {
      await this.refresh();
    } catch (error) {
      // Written, but not read back: count them as new until the next refresh.
      this.stored = {
        total: this.stored.total + this.writing,
        active: this.stored.active + this.writing,
      };
      if (!this.health?.absorbs(error)) this.log.error({ err: error }, 'reading visitor counts failed');
    }
    this.writing = 0;
  }

  /** The counts every process's writes add up to; now and then, the sessions gone for a month pruned. */
  private async refresh(now = Date.now()): Promise<void> {
    if (now >= this.nextPrune) {
      this.nextPrune = now + PRUNE_EVERY_MS;
      await this.visitors.pruneSeenBefore(now - SESSION_RETENTION_MS);
    }
    const total = await this.visitors.total();
    let active = this.stored.active + (total - this.stored.total) + this.reactivated;
    this.reactivated = 0;
    if (now >= this.nextActiveRecount) {
      this.nextActiveRecount = now + ACTIVE_RECOUNT_MS;
      active = await this.visitors.activeSince(now - ACTIVE_WINDOW_MS);
    }
    this.stored = { total, active };
  }
}
