/**
 * The issue "Survive the database going away", its "Done when" replayed from outside, against servers
 * of this group's own with DATABASE_DEADLINE_MS=2000 (short, to keep the run short), each with an
 * admin declaring results in a loop, cached public reads, /healthz and /readyz probes and a live
 * stream running throughout (database-faults-traffic.ts):
 * 1. PostgreSQL restarted, stopped for 20 s, and one of the server's idle connections ended, under
 *    WORKERS=1, then 2. WORKERS=2 (the port must never refuse a connection) (database-faults-postgres.ts);
 * 3. PostgreSQL frozen behind a proxy: a write answers 503 within the deadline, not a hang;
 * 4. SQLite on a full disk: 503s, SQLITE_FULL logged, /readyz 503 then 200 (database-faults-sqlite.ts).
 *
 * PostgreSQL is the group's own (bench/lib/own-postgres.ts: initdb in a temporary folder, a free port
 * of 127.0.0.1), stopped and removed at the end: the shared server at 127.0.0.1:5432 is never touched.
 * Needs root (runuser for PostgreSQL, mount for the small filesystem). About 3 minutes.
 */
import { type OwnPostgres, startOwnPostgres } from '../lib/own-postgres.js';
import { faultsCheck, frozenCheck } from './database-faults-postgres.js';
import { fullDiskCheck } from './database-faults-sqlite.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

export const databaseFaultsChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const results: CheckResult[] = [];
  let own: OwnPostgres | undefined;
  try {
    own = await startOwnPostgres();
    process.stdout.write(`PostgreSQL ${own.version} of its own on 127.0.0.1:${own.port} (${own.dataDir})\n`);
    results.push(await faultsCheck(own, settings, 1));
    results.push(await faultsCheck(own, settings, 2));
    results.push(await frozenCheck(own, settings));
  } catch (error) {
    results.push({ name: 'the PostgreSQL checks ran', ok: false, detail: (error as Error).message });
  } finally {
    await own?.destroy();
  }
  results.push(await fullDiskCheck(settings));
  return results;
};
