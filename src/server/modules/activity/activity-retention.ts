import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHealth } from '../../db/database-health.js';
import type { Now } from '../../lib/clock.js';
import type { ActivityRepository } from './activity-repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How often each process looks for entries that have passed the retention: they pass by the day. */
export const RETENTION_EVERY_MS = 60 * 60 * 1000;

/** Entries scrubbed per transaction: short ones, so that writers of the trail never wait long. */
export const RETENTION_BATCH = 1000;

/**
 * ACTIVITY_RETENTION_DAYS: entries older than that lose their address, user agent and (a failed
 * sign-in by an unknown name) masked name. Each process runs it at start and then hourly, by the
 * app's clock; a run costs a few keyed statements when nothing is due.
 */
export class ActivityRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly repository: ActivityRepository,
    private readonly days: number,
    private readonly now: Now,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'info'>,
    /** Logs the database's being away once per outage, instead of each failed run. */
    private readonly health?: DatabaseHealth,
  ) {}

  /** Scrubs every entry past the retention, a batch at a time; answers how many entries it reached. */
  run(): Promise<number> {
    this.running ??= this.scrubAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async scrubAll(): Promise<number> {
    const before = new Date(this.now() - this.days * DAY_MS).toISOString();
    let total = 0;
    for (;;) {
      const reached = await this.repository.scrub(before, RETENTION_BATCH);
      total += reached;
      if (reached < RETENTION_BATCH) return total;
    }
  }

  private runLogged(): void {
    this.run()
      .then((reached) => {
        if (reached > 0)
          this.log.info({ entries: reached }, 'activity entries past their retention scrubbed');
      })
      .catch((error: unknown) => {
        if (!this.health?.absorbs(error))
          this.log.error({ err: error }, 'scrubbing old activity entries failed');
      });
  }

  start(): void {
    this.runLogged();
    this.timer = setInterval(() => this.runLogged(), RETENTION_EVERY_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run under way, so that the database can close after it. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => {});
  }
}
