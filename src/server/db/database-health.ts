import type { FastifyBaseLogger } from 'fastify';
import { errorCode } from './database-errors.js';

/** How long a client should wait before trying a request again while the database is unavailable. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * What this process knows of its database's state: whether it is in an outage (a connection lost, a
 * deadline passed), and on SQLite whether writes fail (a full disk, a read-only file). An outage is
 * logged once when it begins and once when the database answers again, with its length, however many
 * requests failed in between.
 */
export class DatabaseHealth {
  private downSince: number | null = null;
  private failedRequests = 0;
  private writeFailure: string | null = null;
  private lostConnections = 0;
  private lostLoggedAt = Number.NEGATIVE_INFINITY;
  private log: Pick<FastifyBaseLogger, 'warn' | 'info'> | undefined;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Where outages are logged (set once the app has its logger). */
  logTo(log: Pick<FastifyBaseLogger, 'warn' | 'info'>): void {
    this.log = log;
  }

  /** The database failed a request, or dropped a connection: an outage begins, unless one is on. */
  failed(error: unknown, during: 'a request' | 'a write' | 'an idle connection' = 'a request'): void {
    this.failedRequests += 1;
    if (during === 'a write' || /^SQLITE_(FULL|READONLY)/.test(errorCode(error) ?? '')) {
      this.writeFailure = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
    }
    if (this.downSince !== null) return;
    this.downSince = this.now();
    this.log?.warn(
      { err: error, code: errorCode(error), during },
      'the database is unavailable; answering 503 until it is back',
    );
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
    const seconds = Math.round((this.now() - this.downSince) / 100) / 10;
    this.log?.info(
      { outageSeconds: seconds, failedRequests: this.failedRequests },
      `the database is back after ${seconds} s`,
    );
    this.downSince = null;
    this.failedRequests = 0;
  }

  /** A write succeeded: writes work again. */
  wrote(): void {
    this.writeFailure = null;
    this.answered();
  }

  get unavailable(): boolean {
    return this.downSince !== null;
  }

  /** Why writes fail now (SQLite: SQLITE_FULL, SQLITE_READONLY…), or null. */
  get writesFailing(): string | null {
    return this.writeFailure;
  }
}
