import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { failureAnswer } from '../../../shared/schemas/common.js';
import { probeAnswer } from '../../../shared/schemas/health.js';
import type { Database } from '../../db/database.js';
import { pendingMigrations } from '../../db/migrate.js';
import { ServiceUnavailableError } from '../../errors.js';

/** A database that has not answered by then counts as down: a probe must answer in time itself. */
const READY_TIMEOUT_MS = 2000;

/** Why the process cannot serve requests now, or null when it can. */
async function notReadyBecause(database: Database): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
  });
  try {
    const pending = await Promise.race([pendingMigrations(database), timeout]);
    if (pending === 'timeout') return 'The database did not answer in time';
    return pending.length > 0 ? `Migrations not run yet: ${pending.join(', ')}` : null;
  } catch {
    return 'The database does not answer';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for a process manager or orchestrator: /healthz while the process runs, /readyz while it
 * can serve (the database answers and has every migration this code knows). Public, and not logged
 * at info level: they are asked every few seconds.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  const probe = { access: 'public', quietLog: true } as const;

  app.get('/healthz', { config: probe, schema: { response: { 200: probeAnswer } } }, async () => ({
    success: true as const,
    status: 'live' as const,
  }));

  app.get(
    '/readyz',
    { config: probe, schema: { response: { 200: probeAnswer, 503: failureAnswer } } },
    async (request) => {
      const problem = await notReadyBecause(database);
      if (problem) {
        request.log.warn({ problem }, 'not ready');
        throw new ServiceUnavailableError(`Not ready: ${problem}`);
      }
      return { success: true as const, status: 'ready' as const };
    },
  );
};
