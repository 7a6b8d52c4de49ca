/**
 * Issue 46's "Done when", from outside, on servers of its own (node dist/server/server.js) over a
 * SQLite file of 30 ghadis × 10 years (seeded once, reused):
 * - the burst and the chart stampede against the server alone (bench/scenarios/burst.ts, stampede.ts);
 * - Debian's Varnish with docs/deployment.md's configuration in front: the origin's share of a
 *   full-rate mix, the declared value through Varnish, grace with the origin stopped for ten minutes
 *   (bench/scenarios/behind-varnish.ts; ACCEPTANCE_GRACE_SECONDS shortens the wait for a trial run);
 * - the headers and keys of every public answer, the 404s of empty years and months, the sitemap
 *   against the pages (result-time-answers.ts);
 * - /readyz on a full disk (database-faults-sqlite.ts's check).
 * Rounds: ACCEPTANCE_ROUNDS (3).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SEED_ADMIN, seedDatabase } from '../lib/seed.js';
import { behindVarnishScenario } from '../scenarios/behind-varnish.js';
import { burstScenario, siteToday, startMixServer } from '../scenarios/burst.js';
import type { Seeded, Verdict } from '../scenarios/setup.js';
import { stampedeScenario } from '../scenarios/stampede.js';
import { check } from './check.js';
import { fullDiskCheck } from './database-faults-sqlite.js';
import { emptyPeriodsCheck, headersCheck, sitemapCheck } from './result-time-answers.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

const ROUNDS = Number(process.env.ACCEPTANCE_ROUNDS ?? 3);

async function verdictCheck(name: string, run: () => Promise<Verdict>): Promise<CheckResult> {
  return check(name, async () => {
    const verdict = await run();
    return { ok: verdict.met, detail: verdict.summary };
  });
}

export const resultTimeChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const file = path.join(os.tmpdir(), 'ghadi-acceptance-result-time-30x3650.db');
  const seed = await seedDatabase(
    { kind: 'sqlite', file },
    { ghadis: 30, days: 3650, admin: SEED_ADMIN, siteTimezone: settings.siteTimezone },
  );
  const seeded: Seeded = { file, seed };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-result-time-'));
  const results: CheckResult[] = [];
  try {
    results.push(
      await verdictCheck(
        'burst on one origin: p99 of every page kind in the 3 s after a declaration ≤ 2× the 10 s before; the value on every page within 1 s',
        () => burstScenario(seeded, dir, ROUNDS),
      ),
      await verdictCheck(
        'chart stampede: GET /api/ghadis p99 ≤ 2× a bare server’s (< 50 ms), 503s within 10 s, only 200/404/429/503',
        () => stampedeScenario(seeded, dir, ROUNDS),
      ),
    );
    const server = await startMixServer(file, null);
    try {
      const today = await siteToday(server.url);
      results.push(
        await check(
          'every public answer carries its shared-cache lifetime and keys; private ones do not',
          () => headersCheck(server.url, seeded, today),
        ),
        await check('a year or a month without results answers 404 (pages and JSON)', () =>
          emptyPeriodsCheck(server.url, seeded, today),
        ),
        await check('the sitemap lists exactly the pages that answer 200', () =>
          sitemapCheck(server.url, seeded, today),
        ),
      );
    } finally {
      await server.stop();
    }
    results.push(
      await verdictCheck(
        'behind Varnish: the origin answers ≤ 1 % of a full-rate mix, a declared value through Varnish within 1 s, grace with the origin stopped',
        () => behindVarnishScenario(seeded, dir, Number(process.env.ACCEPTANCE_GRACE_SECONDS ?? 600)),
      ),
      await fullDiskCheck(settings),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
};
