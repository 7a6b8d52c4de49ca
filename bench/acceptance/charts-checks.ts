/**
 * Issue 31's first "Done when", from outside, on a server of its own (node dist/server/server.js, a
 * fresh SQLite file, PUBLIC_URL set), over HTTP only:
 * - seeds two years of results for 3 ghadis through the API, admin and agents (charts-seed.ts);
 * - compares every cell of GET /api/charts/{name}/{year} and /api/charts/month/{YYYY-MM} with what it
 *   declared (value, Corrected, null for empty dates and days a month lacks), and their 404s and 400s;
 * - reads the year and month pages in English and Hindi with JavaScript off (charts-pages.ts);
 * - finds the chart URLs in the sitemap, and sees a declared result appear live in Chromium with no
 *   request (charts-live.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, startServer } from '../lib/server-process.js';
import { jsonOf } from '../lib/timed-request.js';
import { liveCheck, notFoundCheck, sitemapCheck } from './charts-live.js';
import { pageChecks } from './charts-pages.js';
import {
  addDays,
  type Cell,
  type ChartGhadi,
  type ChartsSite,
  daysIn,
  seedSite,
  two,
  yearApiPath,
} from './charts-seed.js';
import { check } from './check.js';
import { siteEnv } from './site-env.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

/** Where a chart's cell differs from what was declared ('' when it agrees). */
function cellDiff(actual: unknown, expected: Cell | null): string {
  return isDeepStrictEqual(actual, expected)
    ? ''
    : `${JSON.stringify(actual)} (declared ${JSON.stringify(expected)})`;
}

async function yearApiCheck(site: ChartsSite): Promise<CheckResult> {
  return check('GET /api/charts/{name}/{year}: every cell of 2 years × 3 ghadis as declared', async () => {
    const problems: string[] = [];
    let [cells, charted, empty] = [0, 0, 0];
    for (const ghadi of site.mine) {
      for (const year of site.years) {
        const answer = await site.get(yearApiPath(ghadi.NameEn, year));
        // A year in which the ghadi has no result has no chart: 404, like the years outside 2000..now.
        if (!site.declared.yearsOf(ghadi.GID).includes(year)) {
          empty++;
          if (answer.status !== 404) problems.push(`${ghadi.NameEn} ${year} (no result): ${answer.status}`);
          continue;
        }
        charted++;
        const chart = jsonOf<{
          data?: { GID: number; NameHn: string; year: number; years: number[]; months: unknown[][] };
        }>(answer, 'year chart').data;
        if (answer.status !== 200 || !chart) {
          problems.push(`${ghadi.NameEn} ${year}: ${answer.status}`);
          continue;
        }
        if (chart.GID !== ghadi.GID || chart.NameHn !== ghadi.NameHn || chart.year !== year)
          problems.push(`${ghadi.NameEn} ${year}: names or year`);
        if (!isDeepStrictEqual(chart.years, site.declared.yearsOf(ghadi.GID)))
          problems.push(
            `${ghadi.NameEn} ${year}: years ${JSON.stringify(chart.years)}, declared in ${JSON.stringify(site.declared.yearsOf(ghadi.GID))}`,
          );
        for (let month = 1; month <= 12; month++) {
          for (let day = 1; day <= 31; day++, cells++) {
            const date = `${year}-${two(month)}-${two(day)}`;
            const expected = day <= daysIn(year, month) ? site.declared.cell(ghadi.GID, date) : null;
            const diff = cellDiff(chart.months[month - 1]?.[day - 1], expected);
            if (diff) problems.push(`${ghadi.NameEn} ${date}: ${diff}`);
          }
        }
      }
    }
    const [first] = site.mine;
    const respelled = first
      ? await site.get(`/api/charts/${encodeURIComponent(first.NameEn.toUpperCase())}/${site.years[0]}`)
      : undefined;
    const canonical = first ? await site.get(yearApiPath(first.NameEn, site.years[0] ?? 0)) : undefined;
    if (respelled?.body.toString() !== canonical?.body.toString())
      problems.push('another spelling of the name answers otherwise');
    return {
      ok: problems.length === 0 && cells === charted * 12 * 31 && charted > 0,
      detail: `${cells} cells compared in ${charted} charts (${empty} years without a result: 404) (${site.declared.corrections} corrected values, nulls for empty dates and days a month lacks); another spelling answers the same: ${respelled?.body.toString() === canonical?.body.toString()}; ${problems.length} differences${problems.length ? `: ${problems.slice(0, 5).join('; ')}` : ''}`,
    };
  });
}

async function monthApiCheck(site: ChartsSite): Promise<CheckResult> {
  return check(
    'GET /api/charts/month/{YYYY-MM}: every cell of every month of the 2 years as declared',
    async () => {
      const problems: string[] = [];
      let [cells, charted] = [0, 0];
      const withResults = site.declared.months();
      for (const month of site.months) {
        const answer = await site.get(`/api/charts/month/${month}`);
        // A month in which no live ghadi has a result has no chart: 404.
        if (!withResults.has(month)) {
          if (answer.status !== 404) problems.push(`${month} (no result): ${answer.status}`);
          continue;
        }
        charted++;
        const chart = jsonOf<{ data?: { month: string; ghadis: ChartGhadi[]; days: unknown[][] } }>(
          answer,
          'month chart',
        ).data;
        if (answer.status !== 200 || !chart || chart.month !== month) {
          problems.push(`${month}: ${answer.status}`);
          continue;
        }
        if (!isDeepStrictEqual(chart.ghadis, site.ghadis))
          problems.push(`${month}: columns are not the live ghadis by OrderId`);
        const length = daysIn(Number(month.slice(0, 4)), Number(month.slice(5, 7)));
        for (let day = 1; day <= 31; day++) {
          for (const [column, ghadi] of site.ghadis.entries()) {
            cells++;
            const expected = day <= length ? site.declared.cell(ghadi.GID, `${month}-${two(day)}`) : null;
            const diff = cellDiff(chart.days[day - 1]?.[column], expected);
            if (diff) problems.push(`${ghadi.NameEn} ${month}-${two(day)}: ${diff}`);
          }
        }
      }
      return {
        ok: problems.length === 0 && cells === charted * 31 * site.ghadis.length && charted > 0,
        detail: `${charted} of ${site.months.length} months (the others without a result: 404) × 31 days × ${site.ghadis.length} ghadis = ${cells} cells compared; ${problems.length} differences${problems.length ? `: ${problems.slice(0, 5).join('; ')}` : ''}`,
      };
    },
  );
}

async function apiRefusalsCheck(site: ChartsSite): Promise<CheckResult> {
  return check('the chart API: 404 for what has no chart, 400 for a malformed year or month', async () => {
    const [year = 0] = site.years.slice(-1);
    const name = site.mine[0]?.NameEn ?? '';
    const next = addDays(`${site.today.slice(0, 7)}-28`, 7).slice(0, 7);
    const cases: Array<[string, number]> = [
      [`/api/charts/no-such-ghadi/${year}`, 404],
      [yearApiPath(name, 1999), 404],
      [yearApiPath(name, year + 1), 404],
      [yearApiPath(name, '20x5'), 400],
      ['/api/charts/month/1999-12', 404],
      [`/api/charts/month/${next}`, 404],
      ['/api/charts/month/2025-13', 400],
    ];
    const seen: string[] = [];
    let ok = true;
    for (const [address, status] of cases) {
      const answer = await site.get(address);
      const body = jsonOf<{ success?: boolean; message?: string }>(answer, address);
      const right = answer.status === status && body.success === false && typeof body.message === 'string';
      ok &&= right;
      seen.push(
        `${decodeURIComponent(address.replace('/api/charts/', ''))} ${answer.status}${right ? '' : ' (WRONG)'}`,
      );
    }
    return { ok, detail: seen.join(', ') };
  });
}

export const chartsChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-charts-'));
  const port = await freePort();
  const started = Date.now();
  const server = await startServer({
    port,
    env: {
      ...siteEnv(settings, `sqlite:${path.join(dir, 'site.db')}`, port),
    },
  });
  try {
    const seedStart = Date.now();
    const { site, seeding } = await seedSite(server.url, { ...settings, admin: SEED_ADMIN });
    const results: CheckResult[] = [
      {
        ...seeding,
        detail: `${seeding.detail} (server up in ${seedStart - started} ms, seeded in ${Date.now() - seedStart} ms)`,
      },
      await yearApiCheck(site),
      await monthApiCheck(site),
      await apiRefusalsCheck(site),
      ...(await pageChecks(site)),
      await notFoundCheck(site),
      await sitemapCheck(site),
      await liveCheck(site),
    ];
    return results;
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
