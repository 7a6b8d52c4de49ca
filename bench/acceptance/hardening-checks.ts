/**
 * The security issue's "Done when", replayed from outside against servers of this group's own
 * (node dist/server/server.js), each finding expected closed:
 * 1. name spellings and log windows do not grow memory or slow /api/home (hardening-memory.ts);
 * 2. dumps, backups and database files are owner-only and carry no signing secret; rotate-secret
 *    ends sessions (hardening-secrets.ts);
 * 3. a client-written X-Forwarded-For does not move the login throttle, the stream cap or the
 *    visitor limit, and X-Forwarded-Host does not reach robots/sitemap/feed; 4. TRUST_PROXY=true
 *    stops the start (hardening-addresses.ts);
 * 5. slow headers and trickled bodies are cut off on time (hardening-slow-clients.ts);
 * 6. 10 000 streams that never read keep the process under 1 GB (hardening-streams.ts).
 *
 * The main site: a 10 × 365 SQLite seed in a data folder the app makes, JWT_SECRET unset (the server
 * keeps its key in `settings`), no PUBLIC_URL, TRUST_PROXY=127.0.0.1 (this runner plays the proxy and
 * each request names its client in X-Forwarded-For), default per-address limits, and a SIGUSR2 hook
 * that runs the garbage collector (hardening-probes.ts) so that memory is read settled. The streams
 * check starts a fresh server of its own. About 2.5 minutes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SEED_ADMIN, seedDatabase } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { addressChecks, trustEveryoneCheck } from './hardening-addresses.js';
import { spellingFloodCheck } from './hardening-memory.js';
import { SERVER_WITH_GC_HOOK } from './hardening-probes.js';
import { secretsChecks } from './hardening-secrets.js';
import { slowHeadersCheck, startTrickle, trickleCheck } from './hardening-slow-clients.js';
import { idleStreamsCheck } from './hardening-streams.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

const VISITOR_SESSIONS_PER_MINUTE = 60;

export const hardeningChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-hardening-'));
  // Not made here: the app makes it (owner-only) when it first opens the database.
  const file = path.join(dir, 'data', 'site.db');
  const seed = await seedDatabase(
    { kind: 'sqlite', file },
    { ghadis: 10, days: 365, admin: SEED_ADMIN, siteTimezone: settings.siteTimezone },
  );
  const account = seed.agents[0];
  if (!account) throw new Error('the seed has no agent');
  const env: Record<string, string> = {
    ADMIN_USERNAME: SEED_ADMIN.username,
    ADMIN_PASSWORD: SEED_ADMIN.password,
    SITE_TIMEZONE: settings.siteTimezone,
    LOGIN_MAX_FAILURES: String(settings.loginMaxFailures),
    VISITOR_NEW_SESSIONS_PER_MINUTE: String(VISITOR_SESSIONS_PER_MINUTE),
    PUBLIC_QUERIES_PER_MINUTE: '60',
    JWT_SECRET: '',
    PUBLIC_URL: '',
    METRICS_TOKEN: '',
    WORKERS: '1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  const results: CheckResult[] = [];
  let site: ServerProcess | undefined;
  try {
    site = await startServer({
      port: await freePort(),
      args: SERVER_WITH_GC_HOOK,
      env: { ...env, DATABASE_URL: `sqlite:${file}`, TRUST_PROXY: '127.0.0.1' },
    });
    results.push(await spellingFloodCheck(site, true));
    // A minute and more of waiting: it runs while the next checks do.
    const trickle = startTrickle(site);
    results.push(
      ...(await addressChecks({
        site,
        account,
        loginMaxFailures: settings.loginMaxFailures,
        visitorSessionsPerMinute: VISITOR_SESSIONS_PER_MINUTE,
      })),
    );
    results.push(await trustEveryoneCheck(env));
    results.push(...(await secretsChecks({ site, file, outDir: dir })));
    results.push(await slowHeadersCheck(site));
    results.push(await trickleCheck(trickle));
    await site.stop();
    site = undefined;
    results.push(await idleStreamsCheck(env, dir));
    return results;
  } finally {
    await site?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
