import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/database.js';
import type { Change, LoggedChange } from './change.js';
import type { ChangeLogRepository } from './change-log-repository.js';

type Listener = (logged: LoggedChange) => void;
/** What a write waits for once this process's listeners have heard of it (the public site's rebuilds). */
type Settler = () => Promise<void>;

/** How many log entries one read takes; a process further behind reads again. */
const BATCH = 500;
/** After a failed read, the next try (a write's own read may have failed: its caches must still drop). */
const RETRY_MS = 1000;
/** Entries older than this are pruned: a reader that far behind resynchronises everything. */
export const CHANGE_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The one way a write the public site shows becomes known: the write and its change are committed in
 * one transaction, and every listener hears of changes in log order by reading the log. So a write
 * made here and a write made by another process on the same database reach the caches and live
 * streams through the same path, in the same order, and each id means the same everywhere.
 */
export class ChangeLog {
  private lastApplied = 0;
  private readonly listeners = new Set<Listener>();
  private readonly settlers = new Set<Settler>();
  private readonly writtenListeners = new Set<Listener>();
  private round: Promise<void> | undefined;
  private nextRound: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly repository: ChangeLogRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts after the log's latest entry: what came before is in the database already. */
  async start(): Promise<void> {
    await this.repository.pruneBefore(new Date(Date.now() - CHANGE_LOG_RETENTION_MS).toISOString());
    this.lastApplied = await this.repository.latestId();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  /** The id of the latest change every listener has heard of. */
  get lastAppliedId(): number {
    return this.lastApplied;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Work each write of this process waits for after its listeners heard of it. */
  settleWith(settler: Settler): () => void {
    this.settlers.add(settler);
    return () => this.settlers.delete(settler);
  }

  /**
   * Told of each change this process wrote, once the write has settled here: the process that made
   * a change is the one that tells a shared cache (its purge).
   */
  onWritten(listener: Listener): () => void {
    this.writtenListeners.add(listener);
    return () => this.writtenListeners.delete(listener);
  }

  /**
   * Runs `work` in a transaction together with the changes it makes (known once it has run, e.g. a new
   * ghadi's GID), and returns after this process's listeners have heard of them and what they started
   * has settled (the public site's rebuilds, briefly): a caller that reads right after its write reads
   * fresh answers.
   */
  async write<T>(work: (trx: Executor) => Promise<T>, changesOf: (value: T) => Change[]): Promise<T> {
    const now = new Date().toISOString();
    const written: LoggedChange[] = [];
    const value = await this.database.db.transaction().execute(async (trx) => {
      written.length = 0;
      const done = await work(trx);
      for (const change of changesOf(done))
        written.push({ id: await this.repository.append(trx, change, now), change });
      return done;
    });
    this.database.health.wrote();
    await this.settle(written);
    return value;
  }

  /** Records a change that every process may notice at once (the day's rollover) a single time. */
  async recordOnce(change: Change): Promise<void> {
    const id = await this.repository.appendOnce(change, new Date().toISOString());
    await this.settle(id === null ? [] : [{ id, change }]);
  }

  /** After a commit: this process hears of it, waits for what that started, then tells who asked. */
  private async settle(written: LoggedChange[]): Promise<void> {
    await this.catchUp();
    if (written.length === 0) return;
    await Promise.all([...this.settlers].map((settler) => settler()));
    for (const logged of written) {
      for (const listener of this.writtenListeners) {
        try {
          listener(logged);
        } catch (error) {
          this.log.error({ err: error, change: logged }, 'a listener of written changes failed');
        }
      }
    }
  }

  /**
   * Reads what the log holds past the last applied entry and tells the listeners, one round at a time.
   * A caller arriving during a round may have committed after that round read, so it waits for the next
   * one (shared by everyone who arrives meanwhile). Never rejects: a failed read is logged and retried.
   */
  catchUp(): Promise<void> {
    if (!this.round) {
      this.round = this.readAll().finally(() => {
        this.round = undefined;
      });
      return this.round;
    }
    this.nextRound ??= this.round.then(() => {
      this.nextRound = undefined;
      return this.catchUp();
    });
    return this.nextRound;
  }

  private async readAll(): Promise<void> {
    try {
      for (;;) {
        const batch = await this.repository.since(this.lastApplied, BATCH);
        for (const logged of batch) this.apply(logged);
        if (batch.length < BATCH) return;
      }
    } catch (error) {
      if (!this.database.health.absorbs(error))
        this.log.error({ err: error }, 'reading the change log failed; retrying');
      if (!this.stopped) {
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = undefined;
          void this.catchUp();
        }, RETRY_MS);
        this.retryTimer.unref();
      }
    }
  }

  private apply(logged: LoggedChange): void {
    this.lastApplied = logged.id;
    for (const listener of this.listeners) {
      try {
        listener(logged);
      } catch (error) {
        this.log.error({ err: error, change: logged }, 'a change listener failed');
      }
    }
  }
}
