import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { failureAnswer } from '../../../shared/schemas/common.js';
import { probeAnswer } from '../../../shared/schemas/health.js';
import type { Database } from '../../db/database.js';
import { errorCode } from '../../db/database-errors.js';
import { pendingMigrations } from '../../db/migrate.js';
import { ServiceUnavailableError } from '../../errors.js';
import type { SettingsRepository } from '../settings/settings-repository.js';

/** A database that has not answered by then counts as down: a probe must answer in time itself. */
const READY_TIMEOUT_MS = 2000;

/** The probe's key in the settings table: written only while writes are known to fail. */
const WRITE_PROBE_SETTING = 'readiness_write_probe';
/**
 * The probe writes a row this large, then removes it: a write that needs new pages, as a result and
 * its log entries do. A small row could fit in a page's free space on a disk that refuses real writes.
 */
const WRITE_PROBE_BYTES = 256 * 1024;

/** `work`, or 'timeout' when it has not finished in time. */
async function inTime<T>(work: Promise<T>): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why the process cannot serve requests now, or null when it can: the database does not answer, has
 * migrations this code knows not run yet, or (after a write failed for the database's sake: a full
 * disk, a read-only file) still refuses a write. Writes are tried only while they are known to fail.
 */
async function notReadyBecause(database: Database, settings: SettingsRepository): Promise<string | null> {
  try {
    const pending = await inTime(pendingMigrations(database));
    if (pending === 'timeout') return 'The database did not answer in time';
    if (pending.length > 0) return `Migrations not run yet: ${pending.join(', ')}`;
  } catch {
    return 'The database does not answer';
  }
  const failing = database.health.writesFailing;
  if (failing === null) return null;
  try {
    const probe = async () => {
      await settings.put(WRITE_PROBE_SETTING, 'x'.repeat(WRITE_PROBE_BYTES));
      await settings.delete(WRITE_PROBE_SETTING);
    };
    if ((await inTime(probe())) === 'timeout')
      return `Writes fail (${failing}): the database did not answer in time`;
    database.health.wrote();
    return null;
  } catch (error) {
    return `Writes fail (${errorCode(error) ?? failing})`;
  }
}

/**
 * Probes for a process manager or orchestrator: /healthz while the process runs, /readyz while it
 * can serve (the database answers and has every migration this code knows). Public, and not logged
 * at info level: they are asked every few seconds.
 */
export const healthRoutes: FastifyPluginAsyncZod<{
  database: Database;
  settings: SettingsRepository;
}> = async (app, { database, settings }) => {
  const probe = { access: 'public', quietLog: true } as const;
  let lastProblem: string | null = null;

  app.get('/healthz', { config: probe, schema: { response: { 200: probeAnswer } } }, async () => ({
    success: true as const,
    status: 'live' as const,
  }));

  app.get(
    '/readyz',
    { config: probe, schema: { response: { 200: probeAnswer, 503: failureAnswer } } },
    async (request) => {
      const problem = await notReadyBecause(database, settings);
      // Logged when readiness changes, not at every probe (one every few seconds).
      if (problem !== lastProblem) {
        if (problem) request.log.warn({ problem }, 'not ready');
        else request.log.info('ready again');
        lastProblem = problem;
      }
      if (problem) throw new ServiceUnavailableError(`Not ready: ${problem}`);
      return { success: true as const, status: 'ready' as const };
    },
  );
};
