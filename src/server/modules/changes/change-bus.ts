import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { changeChannel, type Database } from '../../db/database.js';
import type { ChangeLog } from './change-log.js';
import type { ChangeLogRepository } from './change-log-repository.js';

/** How often a SQLite process looks whether another one wrote (PRAGMA data_version: no I/O). */
export const SQLITE_POLL_MS = 250;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;

export interface ChangeBusOptions {
  database: Database;
  changes: ChangeLog;
  repository: ChangeLogRepository;
  log: FastifyBaseLogger;
  /** After the bus may have missed changes (a lost connection): everything cached must go. */
  onResync: () => void;
}

export interface ChangeBus {
  stop(): Promise<void>;
}

/**
 * Tells this process that another one wrote, so that it reads the change log (ChangeLog.catchUp) and
 * its caches and live streams follow within moments. The log is the truth; the bus only wakes readers.
 * - PostgreSQL: LISTEN on a connection of its own; a write's NOTIFY carries the change id at commit.
 *   A lost connection is reopened (with back-off), then everything cached is dropped and the log read.
 * - SQLite (several processes on one file): PRAGMA data_version every 250 ms, which moves only when
 *   another connection committed; reading it costs no I/O, so one process alone pays nothing to speak of.
 * - SQLite in memory: no other process can share it; no bus.
 */
export async function startChangeBus(options: ChangeBusOptions): Promise<ChangeBus> {
  const { database } = options;
  if (database.target.kind === 'postgres') return startListening(options, database.target.url);
  if (database.target.file === ':memory:') return { stop: async () => {} };
  return startPolling(options);
}

async function startPolling({ repository, changes, log }: ChangeBusOptions): Promise<ChangeBus> {
  let seen = await repository.dataVersion();
  // What another process wrote before `seen` was read (since the log's position was) is read now.
  void changes.catchUp();
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    repository
      .dataVersion()
      .then((version) => {
        if (version !== seen) void changes.catchUp();
        seen = version;
      })
      .catch((error: unknown) => log.error({ err: error }, 'reading the SQLite data version failed'))
      .finally(() => {
        running = false;
      });
  }, SQLITE_POLL_MS);
  timer.unref();
  return { stop: async () => clearInterval(timer) };
}

async function startListening(options: ChangeBusOptions, url: string): Promise<ChangeBus> {
  const { database, changes, log, onResync } = options;
  const channel = changeChannel(database);
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = RECONNECT_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: url,
      ...(database.pgSchema ? { options: `-c search_path=${database.pgSchema}` } : {}),
    });
    next.on('notification', () => void changes.catchUp());
    next.on('error', (error) => log.warn({ err: error }, 'the change bus connection failed'));
    next.on('end', () => {
      if (stopped || client !== next) return;
      client = undefined;
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`listen "${channel}"`);
    client = next;
    retryMs = RECONNECT_MIN_MS;
  };

  const scheduleReconnect = () => {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect()
        .then(() => {
          log.info('the change bus reconnected; dropping every cached answer');
          // Whatever was written while nobody listened is in the log: read it all afresh.
          onResync();
          void changes.catchUp();
        })
        .catch((error: unknown) => {
          log.warn({ err: error }, 'reconnecting the change bus failed; retrying');
          retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
          scheduleReconnect();
        });
    }, retryMs);
    retryTimer.unref();
  };

  await connect();
  // What was written before the LISTEN took effect (since the log's position was read) is read now.
  void changes.catchUp();
  return {
    stop: async () => {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      await client?.end().catch(() => {});
    },
  };
}
