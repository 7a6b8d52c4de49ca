/**
 * The console group's check of GET /api/stats/ghadis (each ghadi's punctuality, docs/api.md), when
 * the server has it: over the last 30 days, every live ghadi's days owed a result, declared, on time,
 * on-time rate and median delay, reckoned here from what the group declared and when (the first
 * declaration's request; a correction changes nothing; an import counts when it was imported).
 */
import { jsonOf } from '../lib/timed-request.js';
import { check } from './check.js';
import { OVERDUE_AFTER_MINUTES, type Scenario } from './console-scenario.js';
import type { CheckResult } from './types.js';

const MINUTE_MS = 60_000;

export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Whether the server's OpenAPI document lists GET /api/stats/ghadis (added beside this group). */
export async function hasGhadiStats(scenario: Scenario): Promise<boolean> {
  const sent = await scenario.site.call('GET', '/api/openapi.json', 200);
  const spec = jsonOf<{ paths?: Record<string, unknown> }>(sent.answer, 'GET /api/openapi.json');
  return spec.paths?.['/api/stats/ghadis'] !== undefined;
}

interface Punctuality {
  GID: number;
  NameEn: string;
  days: number;
  declared: number;
  onTime: number;
  onTimeRate: number | null;
  medianDelayMinutes: number | null;
}

/** What a ghadi's entry must be at `now`: delays as a range, the first declaration known to its request. */
function expected(scenario: Scenario, gid: number, from: string, now: number) {
  const { site } = scenario;
  const { clock } = site;
  const ghadi = site.ghadi(gid);
  const tally = { days: 0, declared: 0, onTime: 0, delays: [] as Array<[number, number]> };
  for (let date = from; date <= clock.today; date = addDays(date, 1)) {
    const iso = clock.dueAtOf(ghadi.RTime, date);
    const dueAt = iso === null ? null : Date.parse(iso);
    const result = site.results.get(`${gid}|${date}`);
    if (!result) {
      // Every ghadi was made today (the starter ones at the server's start): no day before is owed.
      const owed = date === clock.today && dueAt !== null && now >= dueAt + OVERDUE_AFTER_MINUTES * MINUTE_MS;
      if (owed) tally.days++;
      continue;
    }
    tally.days++;
    tally.declared++;
    if (dueAt === null) continue;
    const { startedAt, endedAt } = result.firstSent;
    if (endedAt < dueAt + OVERDUE_AFTER_MINUTES * MINUTE_MS) tally.onTime++;
    tally.delays.push([Math.max(0, startedAt - dueAt) / MINUTE_MS, Math.max(0, endedAt - dueAt) / MINUTE_MS]);
  }
  const readable = clock.dueAtOf(ghadi.RTime) !== null;
  const rate = readable && tally.days > 0 ? Math.round((tally.onTime / tally.days) * 1000) / 1000 : null;
  // At most one declared date per ghadi here: its delay is the median.
  const [delay] = tally.delays;
  return { ...tally, rate, delay: readable ? (delay ?? null) : null, several: tally.delays.length > 1 };
}

export async function punctualityCheck(scenario: Scenario): Promise<CheckResult> {
  return check(
    'GET /api/stats/ghadis (30 days): each live ghadi’s days owed, declared, on time, rate and median delay',
    async () => {
      const { site, admin } = scenario;
      const from = addDays(site.clock.today, -29);
      const sent = await site.call('GET', `/api/stats/ghadis?from=${from}&to=${site.clock.today}`, 200, {
        token: admin.token,
      });
      const rows = jsonOf<{ data: Punctuality[] }>(sent.answer, 'GET /api/stats/ghadis').data;
      const live = [...site.ghadis.values()]
        .filter((ghadi) => !ghadi.deleted)
        .sort((x, y) => x.OrderId - y.OrderId || x.GID - y.GID);
      const problems: string[] = [];
      const order = (list: Array<{ GID: number }>) => list.map((ghadi) => ghadi.GID).join(',');
      if (order(rows) !== order(live)) problems.push(`order ${order(rows)}, expected ${order(live)}`);
      let late = 0;
      let onTime = 0;
      for (const row of rows) {
        if (!site.ghadis.has(row.GID)) continue;
        // At the request's start or end: a starter ghadi's deadline may pass in between.
        const [early, lateEnough] = [sent.startedAt, sent.endedAt].map((now) =>
          expected(scenario, row.GID, from, now),
        );
        if (!early || !lateEnough || early.several) continue;
        const counts = (e: typeof early) => `${e.days}/${e.declared}/${e.onTime}/${e.rate}`;
        const got = `${row.days}/${row.declared}/${row.onTime}/${row.onTimeRate}`;
        if (got !== counts(early) && got !== counts(lateEnough))
          problems.push(`${row.NameEn}: days/declared/onTime/rate ${got}, expected ${counts(early)}`);
        const delay = early.delay;
        const delayRight =
          delay === null
            ? row.medianDelayMinutes === null
            : row.medianDelayMinutes !== null &&
              row.medianDelayMinutes >= Math.round(delay[0] * 10) / 10 - 0.1 &&
              row.medianDelayMinutes <= Math.round(delay[1] * 10) / 10 + 0.1;
        if (!delayRight)
          problems.push(
            `${row.NameEn}: median delay ${row.medianDelayMinutes}, expected ${delay ? delay[0].toFixed(1) : null}`,
          );
        late += row.declared - row.onTime;
        onTime += row.onTime;
      }
      const deleted = rows.some((row) => row.GID === scenario.deletedGhadi.GID);
      if (deleted) problems.push('the deleted ghadi is listed');
      const sample = rows
        .filter((row) => row.declared > 0)
        .map((row) => `${row.NameEn.replace('Console ', '')} ${row.medianDelayMinutes} min`)
        .join(', ');
      return {
        ok: problems.length === 0 && onTime > 0 && late > 0,
        detail: `${rows.length} live ghadis from ${from}: ${onTime} on time, ${late} late declared dates; median delays ${sample}; ${problems.length} problems${problems.length ? `: ${problems.slice(0, 6).join('; ')}` : ''}`,
      };
    },
  );
}
