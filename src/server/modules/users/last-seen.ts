import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHealth } from '../../db/database-health.js';
import type { Now } from '../../lib/clock.js';
import type { LastSeenRepository } from './last-seen-repository.js';

/** last_seen_at is kept to the minute: at most one write per user and minute, across processes. */
export const LAST_SEEN_EVERY_MS = 60_000;

/**
 * When each user last made an authenticated request (the admin's board shows it per agent). Told of
 * every such request by the access check, it writes in the background, never delaying the request:
 * this process remembers when it last wrote for each user and skips a minute's further requests
 * without a query, and the write itself is conditional, so that processes share the once a minute.
 */
export class LastSeen {
  /** Per user, when this process last wrote (or tried to). One entry per staff account: few. */
  private readonly written = new Map<number, number>();

  constructor(
    private readonly repository: LastSeenRepository,
    private readonly now: Now,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
    /** Logs the database's being away once per outage, instead of each failed write. */
    private readonly health?: DatabaseHealth,
  ) {}

  /**
   * The user made a request now. Returns the write it started (true once stored, false when another
   * process had stored a time within the minute, or on failure), or null when none was needed: for
   * tests, since the request never waits for it.
   */
  seen(userId: number): Promise<boolean> | null {
    const at = this.now();
    const last = this.written.get(userId);
    if (last !== undefined && at - last < LAST_SEEN_EVERY_MS) return null;
    this.written.set(userId, at);
    const iso = new Date(at).toISOString();
    const notBefore = new Date(at - LAST_SEEN_EVERY_MS).toISOString();
    return this.repository.touch(userId, iso, notBefore).catch((error: unknown) => {
      // The next request tries again.
      if (this.written.get(userId) === at) this.written.delete(userId);
      if (!this.health?.absorbs(error))
        this.log.error({ err: error, userId }, 'recording a last-seen time failed');
      return false;
    });
  }
}
