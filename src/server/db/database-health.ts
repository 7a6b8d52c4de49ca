import type { FastifyBaseLogger } from 'fastify';
import { type Now, systemNow } from '../lib/clock.js';
import { errorCode, isDatabaseUnavailable } from './database-errors.js';

/** How long a client should wait before trying a request again while the database is unavailable. */
export const RETRY_AFTER_SECONDS = 5;

/** Failures that stop writes but not reads: a full disk, a read-only file (SQLite). */
const WRITE_ONLY_FAILURE = /^SQLITE_(FULL|READONLY)/;

type HealthLog = Pick<FastifyBaseLogger, 'warn' | 'info'>;

/**
 * What this process knows of its database's state: whether it is in an outage (a connection lost, a
 * deadline passed), and whether writes fail while reads work (SQLite: a full disk, a read-only file).
 * Each is logged once when it begins and once when it ends, with its length, however many requests
 * and background tasks failed in between.
 */
export class DatabaseHealth {
  private downSince: number | null = null;
  private failedRequests = 0;
  private writeFailure: { code: string; since: number; failures: number } | null = null;
  private lostConnections = 0;
  private lostLoggedAt = Number.NEGATIVE_INFINITY;
  private log: HealthLog | undefined;

  constructor(private readonly now: Now = systemNow) {}

  /** Where outages are logged (set once the app has its logger). */
  logTo(log: HealthLog): void {
    this.log = log;
  }

  /** The database failed a request or a task: an outage (or a spell of failing writes) begins, unless one is on. */
  failed(error: unknown, during: 'a request' | 'a background task' = 'a request'): void {
    const code = errorCode(error);
    if (code !== undefined && WRITE_ONLY_FAILURE.test(code)) {
      if (this.writeFailure) {
        this.writeFailure.failures += 1;
        return;
      }
      this.writeFailure = { code, since: this.now(), failures: 1 };
      this.log?.warn(
        { err: error, code, during },
        'database writes fail; they answer 503 until one succeeds',
      );
      return;
    }
    this.failedRequests += 1;
    if (this.downSince !== null) return;
    this.downSince = this.now();
    this.log?.warn(
      { err: error, code, during },
      'the database is unavailable; answering 503 until it is back',
    );
  }

  /**
   * For background tasks (visitor counts, the change log): true when the error is the database's
   * being away, which is then logged with the outage (once), so the task need not log it again.
   */
  absorbs(error: unknown): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    this.failed(error, 'a background task');
    return true;
  }

  /**
   * The server ended a connection (a restart, a failover, an idle reaper): the pool makes another
   * when needed. Logged at most once a minute, so a restart that ends every connection logs once.
   */
  connectionLost(error: unknown): void {
    const at = this.now();
    this.lostConnections += 1;
    if (at - this.lostLoggedAt < 60_000) return;
    this.lostLoggedAt = at;
    this.log?.warn(
      { err: error, code: errorCode(error), lostConnections: this.lostConnections },
      'a database connection was lost; it is replaced when needed',
    );
    this.lostConnections = 0;
  }

  /** A query answered: an outage, if one was on, is over. */
  answered(): void {
    if (this.downSince === null) return;
    const seconds = this.secondsSince(this.downSince);
    this.log?.info(
      { outageSeconds: seconds, failedRequests: this.failedRequests },
      `the database is back after ${seconds} s`,
    );
    this.downSince = null;
    this.failedRequests = 0;
  }

  /**
   * A real write committed (one of the app's changes, or the readiness probe's sizeable row): writes
   * work again (and the database answers). Small housekeeping writes do not count: on a full disk
   * they may fit in a page's free space while a result, which needs new pages, does not.
   */
  wrote(): void {
    if (this.writeFailure) {
      const { code, since, failures } = this.writeFailure;
      const seconds = this.secondsSince(since);
      this.log?.info(
        { code, failedWrites: failures, seconds },
        `database writes succeed again after ${seconds} s`,
      );
      this.writeFailure = null;
    }
    this.answered();
  }

  get unavailable(): boolean {
    return this.downSince !== null;
  }

  /** Why writes fail now (SQLite: SQLITE_FULL, SQLITE_READONLY…), or null. */
  get writesFailing(): string | null {
    return this.writeFailure?.code ?? null;
  }

  private secondsSince(start: number): number {
    return Math.round((this.now() - start) / 100) / 10;
  }
}
