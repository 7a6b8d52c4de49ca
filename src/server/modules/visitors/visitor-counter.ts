import type { FastifyBaseLogger } from 'fastify';
import type { VisitorsRepository } from './visitors-repository.js';

const ACTIVE_WINDOW_MS = 5 * 60 * 1000;
const MAX_TRACKED_SESSIONS = 200_000;
/** Past the maximum, the oldest sessions go in a batch, down to this many. */
const EVICT_DOWN_TO = 190_000;

interface Sighting {
  lastSeen: number;
  /** True once the database is known to hold this session. */
  stored: boolean;
}

/**
 * Counts visits in memory and writes them to the database in batches, so that tracking costs
 * no database write per request; a crash loses at most one flush interval of sightings.
 */
export class VisitorCounter {
  private readonly recent = new Map<string, Sighting>();
  private pending = new Set<string>();
  private storedTotal = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly visitors: VisitorsRepository,
    private readonly flushIntervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.storedTotal = await this.visitors.countAll();
    const since = new Date(Date.now() - ACTIVE_WINDOW_MS).toISOString();
    for (const row of await this.visitors.seenSince(since)) {
      this.recent.set(row.session_id, { lastSeen: Date.parse(row.last_seen), stored: true });
    }
    this.timer = setInterval(() => void this.flush(), this.flushIntervalMs);
    this.timer.unref();
  }

  track(sessionId: string, now = Date.now()): void {
    // Updated in place: deleting and re-adding a key to keep the map in recency order costs V8 time
    // proportional to the map's size (about 70 µs at 100,000 sessions), on every visit.
    const known = this.recent.get(sessionId);
    if (known) known.lastSeen = now;
    else this.recent.set(sessionId, { lastSeen: now, stored: false });
    this.pending.add(sessionId);
    if (this.recent.size > MAX_TRACKED_SESSIONS) this.forgetOldest(this.recent.size - EVICT_DOWN_TO);
  }

  /** totalUsers counts sessions not yet written as new until the next flush says otherwise. */
  stats(now = Date.now()): { totalUsers: number; activeUsers: number } {
    const cutoff = now - ACTIVE_WINDOW_MS;
    let activeUsers = 0;
    let unconfirmed = 0;
    for (const [sessionId, sighting] of this.recent) {
      if (sighting.lastSeen >= cutoff) activeUsers++;
      if (!sighting.stored && this.pending.has(sessionId)) unconfirmed++;
    }
    return { totalUsers: this.storedTotal + unconfirmed, activeUsers };
  }

  flush(): Promise<void> {
    this.flushing ??= this.writePending().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }

  private async writePending(): Promise<void> {
    this.pruneInactive();
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending = new Set();
    try {
      this.storedTotal += await this.visitors.recordBatch(batch, new Date().toISOString());
      for (const sessionId of batch) {
        const sighting = this.recent.get(sessionId);
        if (sighting) sighting.stored = true;
      }
    } catch (error) {
      for (const sessionId of batch) this.pending.add(sessionId);
      this.log.error({ err: error }, 'visitor flush failed; will retry');
    }
  }

  private pruneInactive(now = Date.now()): void {
    // The map is in first-seen order, not last-seen order, so every entry is looked at (once per flush).
    const cutoff = now - ACTIVE_WINDOW_MS;
    for (const [sessionId, sighting] of this.recent) {
      if (sighting.lastSeen < cutoff && !this.pending.has(sessionId)) this.recent.delete(sessionId);
    }
  }

  /** Drops the longest-known sessions in one pass (one at a time, each lookup of the oldest slows down). */
  private forgetOldest(count: number): void {
    let left = count;
    for (const sessionId of this.recent.keys()) {
      if (left-- <= 0) break;
      this.recent.delete(sessionId);
    }
  }
}
