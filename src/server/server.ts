import cluster from 'node:cluster';
import pino from 'pino';
import { buildApp } from './app.js';
import { checkDeclarationLog, prepareDatabase } from './bootstrap.js';
import { type AppConfig, ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { isDatabaseUnavailable } from './db/database-errors.js';
import { systemNow } from './lib/clock.js';
import { exitAfterLogs, isExiting, LOG_DRAIN_LIMIT_MS } from './lib/exit-after-logs.js';
import { PasswordHasher } from './lib/passwords.js';
import { DeclarationLog } from './modules/declarations/declaration-log.js';
import { DeclarationsRepository } from './modules/declarations/declarations-repository.js';
import { answerPrimaryMetrics, answerWorkersMetrics } from './modules/metrics/cluster-metrics.js';
import { openTransparencyLog } from './modules/transparency/transparency-module.js';

/** A worker that dies this soon after its start is not restarted again at once (a crash loop). */
const RESTART_BACKOFF_MS = 1000;
const SHUTDOWN_TIMEOUT_MS = 10_000;

function readConfig(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const START_RETRY_MIN_MS = 1000;
const START_RETRY_MAX_MS = 15_000;

/**
 * `start`, tried again with back-off while it fails because the database cannot be reached: a
 * process started during an outage waits for the database instead of exiting (under WORKERS, a
 * supervisor would start replacements in a loop). Any other failure ends the start at once.
 */
async function whenDatabaseAnswers<T>(log: pino.Logger, start: () => Promise<T>): Promise<T> {
  for (let waitMs = START_RETRY_MIN_MS; ; waitMs = Math.min(waitMs * 2, START_RETRY_MAX_MS)) {
    try {
      return await start();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      log.warn({ err: error, retryInMs: waitMs }, 'the database cannot be reached at start; trying again');
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/** One process serving the site: the whole app, listening (alone, or as one of WORKERS). */
async function serve(config: AppConfig) {
  answerPrimaryMetrics();
  const startLog = pino({ level: config.logLevel });
  const app = await whenDatabaseAnswers(startLog, () =>
    buildApp(config, { declarationLogChecked: cluster.isWorker }),
  );
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const forceExit = setTimeout(() => {
      app.log.error(`shutdown: not done in ${SHUTDOWN_TIMEOUT_MS / 1000} s; exiting anyway`);
      exitAfterLogs(app.log, 1);
    }, SHUTDOWN_TIMEOUT_MS);
    forceExit.unref();
    // app.close() runs the steps in order, each logged at debug level: live streams end (preClose),
    // the server stops accepting and waits for requests in flight, then the onClose hooks run (the
    // visitor counts flushed, the database closed last).
    app.log.debug('shutdown: refusing new requests');
    let failure: unknown;
    try {
      await app.close();
    } catch (error) {
      failure = error ?? new Error('app.close() failed');
    }
    clearTimeout(forceExit);
    // The time limit has already begun the exit: its log is closing.
    if (isExiting()) return;
    if (failure === undefined) app.log.debug('shutdown: done');
    else app.log.error({ err: failure }, 'shutdown failed');
    exitAfterLogs(app.log, failure === undefined ? 0 : 1);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (cluster.isPrimary) {
    const where = config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL';
    app.log.info(
      { database: where, timezone: config.siteTimezone },
      `serving on http://localhost:${config.port}`,
    );
  }
}

/**
 * WORKERS > 1: this process prepares the database once (migrations, the first admin, the declaration
 * log written and checked), then runs that
 * many workers sharing the port, restarts one that dies, and on SIGTERM or SIGINT stops them all
 * gracefully (each finishes its requests and ends its live streams).
 */
async function supervise(config: AppConfig) {
  const log = pino({ level: config.logLevel });
  await whenDatabaseAnswers(log, async () => {
    const database = openDatabase(config.database, { poolSize: 1, deadlineMs: config.databaseDeadlineMs });
    try {
      await prepareDatabase(database, config, new PasswordHasher(config.passwordMemoryCost), log);
      // The tree is built here too, so that no worker's first append catches up a whole log.
      const tree = await openTransparencyLog(database, config, systemNow);
      await checkDeclarationLog(
        new DeclarationLog(database, new DeclarationsRepository(database), undefined, tree),
        log,
      );
    } finally {
      await database.close();
    }
  });

  let stopping = false;
  /** Whether a worker failed to stop cleanly: the supervisor then exits 1 too. */
  let stopFailed = false;
  const startedAt = new Map<number, number>();
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      if (code !== 0) stopFailed = true;
      if (Object.keys(cluster.workers ?? {}).length === 0) exitAfterLogs(log, stopFailed ? 1 : 0);
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'a worker stopped; starting another');
    setTimeout(fork, lived < RESTART_BACKOFF_MS ? RESTART_BACKOFF_MS : 0);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping the workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    // A worker may take its own time limit, then the time its log needs to drain.
    const limitMs = SHUTDOWN_TIMEOUT_MS + LOG_DRAIN_LIMIT_MS + 1000;
    setTimeout(() => {
      if (isExiting()) return;
      log.error(`the workers did not stop in ${limitMs / 1000} s; exiting anyway`);
      exitAfterLogs(log, 1);
    }, limitMs).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  answerWorkersMetrics();
  for (let index = 0; index < config.workers; index++) fork();
  cluster.once('listening', () =>
    log.info({ workers: config.workers }, `serving on http://localhost:${config.port}`),
  );
}

async function main() {
  const config = readConfig();
  if (cluster.isPrimary && config.workers > 1) await supervise(config);
  else await serve(config);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
