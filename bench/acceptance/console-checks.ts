/**
 * Issue 33's first "Done when", from outside, on a server of its own (node dist/server/server.js, a
 * fresh SQLite file, PUBLIC_URL, TRUST_PROXY=loopback so that each client names its address,
 * OVERDUE_AFTER_MINUTES=20), over HTTP only:
 * - in a site zone where it is day now (console-clock.ts), makes ghadis due from 2 hours ago to 3 hours
 *   ahead, agents, assignments, sign-ins, declarations, corrections, an import, content blocks, visitor
 *   sessions and a logout (console-scenario.ts, through console-site.ts, which keeps what each should show);
 * - checks every ghadi of GET /api/today: order, dueAt, state, Result, DeclaredBy, agents and their
 *   lastSeenAt (console-board.ts);
 * - finds each action of the list in GET /api/activity with its user, role and target, pages it, and
 *   searches it whole for passwords and tokens (console-activity.ts);
 * - reads today's entry of GET /api/stats/daily, the 400s for bad ranges and the 401s and 403s
 *   (console-stats.ts); and GET /api/stats/ghadis, when the server has it (console-punctuality.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, startServer } from '../lib/server-process.js';
import { check } from './check.js';
import { activityChecks } from './console-activity.js';
import { boardChecks } from './console-board.js';
import { chooseClock } from './console-clock.js';
import { hasGhadiStats, punctualityCheck } from './console-punctuality.js';
import { OVERDUE_AFTER_MINUTES, runScenario } from './console-scenario.js';
import { statsChecks } from './console-stats.js';
import type { CheckSettings, StandaloneChecks } from './types.js';

export const consoleChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const clock = chooseClock(settings.siteTimezone);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-console-'));
  const port = await freePort();
  const started = Date.now();
  const server = await startServer({
    port,
    env: {
      DATABASE_URL: `sqlite:${path.join(dir, 'site.db')}`,
      ADMIN_USERNAME: SEED_ADMIN.username,
      ADMIN_PASSWORD: SEED_ADMIN.password,
      SITE_TIMEZONE: clock.zone,
      OVERDUE_AFTER_MINUTES: String(OVERDUE_AFTER_MINUTES),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
  });
  try {
    const up = Date.now();
    let scenario: Awaited<ReturnType<typeof runScenario>> | undefined;
    const setup = await check(
      'the site made through the API: ghadis, agents, sign-ins, results, content, visits',
      async () => {
        scenario = await runScenario(server.url, clock);
        const { site, importAnswer, dryRunAnswer, starters } = scenario;
        const actions = new Set(site.entries.map((entry) => entry.action));
        const ok =
          importAnswer.created === 3 &&
          importAnswer.corrected === 1 &&
          importAnswer.unchanged === 0 &&
          dryRunAnswer.created === 1 &&
          actions.size === 17;
        return {
          ok,
          detail:
            `zone ${clock.zone} (UTC${clock.offsetMs >= 0 ? '+' : '−'}${Math.abs(clock.offsetMs) / 3_600_000} h), today ${clock.today}; ` +
            `${starters} starter ghadis + ${scenario.intended.size} made (1 more deleted), ${site.people.size - 1} agents, ${site.assignments.size} assignments left; ` +
            `import → created ${importAnswer.created}, corrected ${importAnswer.corrected}, unchanged ${importAnswer.unchanged} (expected 3, 1, 0); dry run created ${dryRunAnswer.created} (expected 1, nothing written); ` +
            `${site.entries.length} activity entries expected over ${actions.size} actions; server up in ${up - started} ms, site made in ${Date.now() - up} ms`,
        };
      },
    );
    if (!scenario) return [setup];
    const perGhadi = await hasGhadiStats(scenario);
    return [
      setup,
      ...(await boardChecks(scenario)),
      ...(await activityChecks(scenario)),
      ...(perGhadi ? [await punctualityCheck(scenario)] : []),
      ...(await statsChecks(scenario, perGhadi)),
    ];
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
