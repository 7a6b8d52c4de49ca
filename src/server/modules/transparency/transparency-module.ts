import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Now } from '../../lib/clock.js';
import { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import type { ModuleRoutes } from '../module-context.js';
import { resolveLogKey } from './log-key-store.js';
import { LogTreeRepository } from './log-tree-repository.js';
import { FALLBACK_ORIGIN, logOriginOf } from './signed-note.js';
import { TransparencyLog } from './transparency-log.js';
import { transparencyRoutes } from './transparency-routes.js';

/** The log's tree and signer: its key (LOG_KEY_FILE, or kept in the database) and origin line. */
export async function openTransparencyLog(
  database: Database,
  config: AppConfig,
  now: Now,
  log?: FastifyBaseLogger,
): Promise<TransparencyLog> {
  const key = await resolveLogKey(database, config.logKeyFile);
  let origin = logOriginOf(config.logOrigin, config.publicUrl);
  if (origin === null) {
    origin = FALLBACK_ORIGIN;
    log?.warn(
      `Neither LOG_ORIGIN nor PUBLIC_URL is set: the transparency log's checkpoints name "${FALLBACK_ORIGIN}". ` +
        'Set PUBLIC_URL (or LOG_ORIGIN) before anyone keeps a checkpoint: a changed origin is a new log to them.',
    );
  }
  return new TransparencyLog(database, new LogTreeRepository(database), { origin, key }, now);
}

/** The transparency log: its tree grows with the declaration log; checkpoints and proofs are public. */
export async function transparencyModule(
  database: Database,
  config: AppConfig,
  now: Now,
  log: FastifyBaseLogger,
) {
  const transparency = await openTransparencyLog(database, config, now, log);
  const perMinute = new PerMinuteLimit(config.logQueriesPerMinute, now);
  const routes: ModuleRoutes = (app) => app.register(transparencyRoutes, { log: transparency, perMinute });
  return { log: transparency, routes };
}
