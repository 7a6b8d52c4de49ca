/**
 * The console group's checks of GET /api/stats/daily and of the refusals (console-checks.ts): today's
 * entry gains exactly the new visitor sessions, declarations and corrections the group made; bad
 * ranges answer 400 naming the field; every admin route of the console answers 401 without a valid
 * token and 403 to an agent.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonOf } from '../lib/timed-request.js';
import { check } from './check.js';
import { addDays } from './console-punctuality.js';
import { NEW_SESSIONS, type Scenario } from './console-scenario.js';
import type { CheckResult } from './types.js';

/** The visitor counter writes its batches every 2 s: a new session is stored within about that. */
const VISITORS_DEADLINE_MS = 10_000;
const FLUSH_MS = 2000;

interface Day {
  date: string;
  visitors: number;
  declarations: number;
  corrections: number;
}

/** `perGhadi`: the server has GET /api/stats/ghadis, whose ranges and access are checked too. */
export async function statsChecks(scenario: Scenario, perGhadi: boolean): Promise<CheckResult[]> {
  const { site, admin, agents, statsBefore } = scenario;
  const { today } = site.clock;
  const daily = async (from: string, to: string) => {
    const sent = await site.call('GET', `/api/stats/daily?from=${from}&to=${to}`, 200, {
      token: admin.token,
    });
    return jsonOf<{ data: Day[] }>(sent.answer, 'GET /api/stats/daily').data;
  };

  const counted = await check(
    'GET /api/stats/daily: today’s entry gains the new sessions, declarations and corrections made',
    async () => {
      const wanted = {
        visitors: statsBefore.visitors + site.counts.visitors,
        declarations: statsBefore.declarations + site.counts.declarations,
        corrections: statsBefore.corrections + site.counts.corrections,
      };
      const started = Date.now();
      let [day] = await daily(today, today);
      while ((day?.visitors ?? 0) < wanted.visitors && Date.now() - started < VISITORS_DEADLINE_MS) {
        await sleep(200);
        [day] = await daily(today, today);
      }
      const storedAfterMs = Date.now() - started;
      // Another batch's worth of time: the returning sessions must not count again.
      await sleep(FLUSH_MS + 500);
      const week = await daily(addDays(today, -6), today);
      const last = week.at(-1);
      const dates = week.map((entry) => entry.date).join(',');
      const expectedDates = Array.from({ length: 7 }, (_, index) => addDays(today, index - 6)).join(',');
      const earlier = week
        .slice(0, -1)
        .filter((entry) => entry.declarations + entry.corrections + entry.visitors > 0);
      const ok =
        site.counts.visitors === NEW_SESSIONS &&
        last?.visitors === wanted.visitors &&
        last?.declarations === wanted.declarations &&
        last?.corrections === wanted.corrections &&
        dates === expectedDates &&
        earlier.length === 0;
      return {
        ok,
        detail:
          `today ${today}: visitors ${statsBefore.visitors} → ${last?.visitors} (expected +${site.counts.visitors}: ${NEW_SESSIONS} new sessions, 2 seen again; stored within ${storedAfterMs} ms), ` +
          `declarations ${statsBefore.declarations} → ${last?.declarations} (expected +${site.counts.declarations}, yesterday's and older dates included), ` +
          `corrections ${statsBefore.corrections} → ${last?.corrections} (expected +${site.counts.corrections}); ` +
          `7-day range: ${week.length} entries in order${dates === expectedDates ? '' : ' (WRONG)'}, ${earlier.length} earlier days not zero`,
      };
    },
  );

  const badRanges = await check(
    'bad ranges and queries answer 400 naming the field; 366 days answer 200',
    async () => {
      const longest = await daily(addDays(today, -365), today);
      const cases = [
        `/api/stats/daily?from=${today}&to=${addDays(today, -1)}`,
        `/api/stats/daily?from=${addDays(today, -366)}&to=${today}`,
        `/api/stats/daily?from=2026-02-30&to=${today}`,
        `/api/stats/daily?from=2026-1-05&to=${today}`,
        `/api/stats/daily?from=today&to=${today}`,
        `/api/stats/daily?from=${today}`,
        `/api/activity?from=${today}&to=${addDays(today, -1)}`,
        '/api/activity?from=2026-13-01',
        '/api/activity?action=password_reset',
        '/api/activity?limit=101',
        '/api/activity?page=0',
        '/api/activity?userId=abc',
      ];
      if (perGhadi)
        cases.push(
          `/api/stats/ghadis?from=${today}&to=${addDays(today, -1)}`,
          `/api/stats/ghadis?from=${addDays(today, -366)}&to=${today}`,
          `/api/stats/ghadis?from=${today}&to=2026-02-29`,
        );
      const seen: string[] = [];
      let ok = longest.length === 366;
      for (const path of cases) {
        const sent = await site.request('GET', path, { token: admin.token });
        const body = jsonOf<{ success?: boolean; message?: string }>(sent.answer, path);
        const right =
          sent.answer.status === 400 && body.success === false && typeof body.message === 'string';
        ok &&= right;
        seen.push(
          `${path.replace(/^\/api\//, '')} ${sent.answer.status}${right ? '' : ' (WRONG)'} "${body.message ?? ''}"`,
        );
      }
      return { ok, detail: `366 days → ${longest.length} entries; ${seen.join('; ')}` };
    },
  );

  const refusals = await check(
    '401 without a valid token, 403 with an agent’s, 200 for the admin',
    async () => {
      const extra = perGhadi ? [`/api/stats/ghadis?from=${addDays(today, -29)}&to=${today}`] : [];
      const routes = ['/api/today', '/api/activity', `/api/stats/daily?from=${today}&to=${today}`, ...extra];
      const seen: string[] = [];
      let ok = true;
      for (const route of routes) {
        const statuses = [];
        for (const token of [undefined, 'not-a-token', agents.asha.token, agents.bharat.token, admin.token])
          statuses.push((await site.request('GET', route, { token })).answer.status);
        // No token, a malformed one, a logged-out agent's, a signed-in agent's, the admin's.
        const right = statuses.join(',') === '401,401,401,403,200';
        ok &&= right;
        seen.push(`${route.split('?')[0]} ${statuses.join('/')}${right ? '' : ' (WRONG)'}`);
      }
      return {
        ok,
        detail: `none / malformed / logged-out agent / agent / admin: ${seen.join('; ')}${extra.length ? '' : ' (no /api/stats/ghadis in the OpenAPI document yet)'}`,
      };
    },
  );
  return [counted, badRanges, refusals];
}
