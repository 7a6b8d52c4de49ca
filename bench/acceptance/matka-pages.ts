/**
 * The matka group's reading checks (matka-checks.ts builds the scene): the board and results pages in
 * both languages with JavaScript off; the weekly charts' JSON cell by cell against what was declared,
 * their pages and 404s; the sitemap; and a close step reaching an open panel chart in Chromium with no
 * request.
 */
import { execFile } from 'node:child_process';
import { isDeepStrictEqual, promisify } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.js';
import { check } from './check.js';
import type { Declared } from './matka-checks.js';
import { addDays, type Ghadi, type MatkaSite, weekdayOf } from './matka-site.js';
import type { CheckResult } from './types.js';

export interface MatkaScene {
  ghadis: Record<'market' | 'weekly' | 'live' | 'holiday' | 'offday' | 'starline' | 'rules' | 'jodi', Ghadi>;
  declared: Declared;
  /** Holidays added: of one ghadi, or (null) of every ghadi. */
  holidays: Array<{ date: string; gid: number | null }>;
  /** The Mon–Sat market's imported rows: [date, value]. */
  weeklyRows: Array<[string, string]>;
}

const listed = (problems: string[]) =>
  `${problems.length} problems${problems.length ? `: ${problems.slice(0, 6).join('; ')}` : ''}`;
const folded = (name: string) => encodeURIComponent(name.toLowerCase());
const text = async (site: MatkaSite, path: string) => {
  const answer = await site.get(path);
  return { status: answer.status, html: answer.body.toString() };
};

/** A stored value's parts as the weekly cells give them. */
function partsOf(value: string) {
  const whole = /^(\d{3})-(\d{2})-(\d{3})$/.exec(value);
  if (whole) return { Open: whole[1], Jodi: whole[2], Close: whole[3] };
  const half = /^(\d{3})-(\d)$/.exec(value);
  return half ? { Open: half[1], Jodi: half[2], Close: null } : null;
}

interface Weeks {
  days: number[];
  weeks: Array<{ from: string; to: string; cells: unknown[] }>;
}

/** What GET /api/charts/{name}/{year}/weeks must answer, from what was declared here (null: 404). */
export function expectedWeeks(scene: MatkaScene, ghadi: Ghadi, year: number): Weeks | null {
  const days = [1, 2, 3, 4, 5, 6, 0].filter((day) => ghadi.Days.includes(day));
  const inYear = (date: string) => date.startsWith(`${year}-`);
  const results = scene.declared.datesOf(ghadi.GID).filter(inYear);
  if (results.length === 0) return null;
  const runs = (date: string) => days.includes(weekdayOf(date));
  const holidays = new Set(
    scene.holidays
      .filter((h) => (h.gid === null || h.gid === ghadi.GID) && inYear(h.date) && runs(h.date))
      .map((h) => h.date),
  );
  const marked = [...results.filter(runs), ...holidays].sort();
  const mondayOf = (date: string) => addDays(date, -((weekdayOf(date) + 6) % 7));
  const weeks: Weeks['weeks'] = [];
  const last = marked.at(-1) as string;
  for (let monday = mondayOf(marked[0] as string); monday <= last; monday = addDays(monday, 7)) {
    const cells = days.map((day) => {
      const date = addDays(monday, (day + 6) % 7);
      if (!inYear(date)) return null;
      const declared = scene.declared.get(ghadi.GID, date);
      if (declared)
        return {
          Date: date,
          Result: declared.Result,
          ...partsOf(declared.Result),
          Corrected: declared.Corrected,
        };
      return holidays.has(date) ? { Date: date, Holiday: true } : null;
    });
    weeks.push({ from: monday, to: addDays(monday, 6), cells });
  }
  return { days, weeks };
}

async function weeksApiCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check(
    'GET /api/charts/{name}/{year}/weeks: every cell as declared, holidays marked; 404s',
    async () => {
      const problems: string[] = [];
      let [cells, charts] = [0, 0];
      const { market, weekly, starline, holiday, jodi } = scene.ghadis;
      for (const ghadi of [market, weekly, starline, holiday]) {
        const years = [...new Set(scene.declared.datesOf(ghadi.GID).map((date) => Number(date.slice(0, 4))))];
        for (const year of years) {
          const expected = expectedWeeks(scene, ghadi, year);
          const answer = await site.call<
            { GID: number; Kind: string; year: number; years: number[] } & Weeks
          >('GET', `/api/charts/${folded(ghadi.NameEn)}/${year}/weeks`);
          const data = answer.body.data;
          if (!expected || answer.status !== 200 || !data) {
            problems.push(`${ghadi.NameEn} ${year}: ${answer.status}`);
            continue;
          }
          charts++;
          if (
            data.GID !== ghadi.GID ||
            data.Kind !== ghadi.Kind ||
            data.year !== year ||
            !isDeepStrictEqual(data.years, years)
          )
            problems.push(
              `${ghadi.NameEn} ${year}: heading ${JSON.stringify({ ...data, weeks: undefined })}`,
            );
          if (!isDeepStrictEqual(data.days, expected.days))
            problems.push(`${ghadi.NameEn}: days ${JSON.stringify(data.days)}`);
          if (data.weeks.length !== expected.weeks.length)
            problems.push(
              `${ghadi.NameEn} ${year}: ${data.weeks.length} weeks, expected ${expected.weeks.length} (${expected.weeks[0]?.from}…)`,
            );
          for (const [index, week] of expected.weeks.entries()) {
            const got = data.weeks[index];
            if (got?.from !== week.from || got.to !== week.to)
              problems.push(
                `${ghadi.NameEn} week ${index}: ${got?.from}–${got?.to}, expected ${week.from}–${week.to}`,
              );
            for (const [column, cell] of week.cells.entries()) {
              cells++;
              if (!isDeepStrictEqual(got?.cells[column], cell))
                problems.push(
                  `${ghadi.NameEn} ${week.from} col ${column}: ${JSON.stringify(got?.cells[column])}, expected ${JSON.stringify(cell)}`,
                );
            }
          }
        }
      }
      const year = Number(site.today.slice(0, 4));
      for (const [path, why] of [
        [`/api/charts/${folded(jodi.NameEn)}/${year}/weeks`, 'a jodi ghadi'],
        [`/api/charts/${folded(weekly.NameEn)}/2001/weeks`, 'a year without results'],
        [`/api/charts/no-such-market/${year}/weeks`, 'an unknown name'],
      ] as const) {
        const answer = await site.call('GET', path);
        if (answer.status !== 404) problems.push(`${why}: ${answer.status}`);
      }
      return {
        ok: problems.length === 0 && charts >= 4,
        detail: `${charts} charts, ${cells} cells compared (results, open halves, corrections, holidays, off-days without a column, an admin's result on a holiday); 404 for a jodi ghadi, an empty year, an unknown name; ${listed(problems)}`,
      };
    },
  );
}

async function weeklyPagesCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check('the jodi and panel chart pages, English and Hindi, with JavaScript off', async () => {
    const problems: string[] = [];
    const { weekly, jodi } = scene.ghadis;
    const year = Number(scene.weeklyRows.at(-1)?.[0].slice(0, 4));
    const expected = expectedWeeks(scene, weekly, year);
    const seen: string[] = [];
    for (const [chart, english, hindi] of [
      ['jodi-chart', 'Jodi Chart', 'जोड़ी चार्ट'],
      ['panel-chart', 'Panel Chart', 'पैनल चार्ट'],
    ] as const) {
      for (const prefix of ['', '/hi']) {
        const path = `${prefix}/${chart}/${folded(weekly.NameEn)}/${year}`;
        const { status, html } = await text(site, path);
        const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
        const want = prefix ? `${weekly.NameHn} ${hindi} ${year}` : `${weekly.NameEn} ${english} ${year}`;
        const rows =
          (/<tbody[^>]*>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '').match(/<tr[\s>]/g)?.length ?? 0;
        const canonical = html.includes(`<link rel="canonical" href="${site.url}${path}"`);
        const alternate = html.includes(`hreflang="${prefix ? 'en' : 'hi'}"`);
        seen.push(`${path} ${status} "${title}" ${rows} rows`);
        if (
          status !== 200 ||
          !title.includes(want) ||
          rows !== expected?.weeks.length ||
          !canonical ||
          !alternate
        )
          problems.push(
            `${path}: ${status}, title "${title}", ${rows} rows (expected ${expected?.weeks.length}), canonical ${canonical}, alternate ${alternate}`,
          );
        if (chart === 'panel-chart') {
          // A whole day's cell reads open panna, jodi, close panna in that order.
          const whole = scene.weeklyRows.find(([, value]) => value.length === 10)?.[1] ?? '';
          const [open = '', pair = '', close = ''] = whole.split('-');
          const at = html.indexOf(`>${open}<`);
          const [first, second, third] = [at, html.indexOf(`>${pair}<`, at), html.indexOf(`>${close}<`, at)];
          if (!(first > 0 && first < second && second < third))
            problems.push(`${path}: ${whole} is not read open, jodi, close (${first},${second},${third})`);
        }
        if (!html.includes('<table')) problems.push(`${path}: no table`);
      }
      const missing = await text(site, `/${chart}/${folded(jodi.NameEn)}/${year}`);
      if (missing.status !== 404) problems.push(`${chart} of a jodi ghadi: ${missing.status}`);
    }
    return { ok: problems.length === 0, detail: `${seen.join('; ')}; jodi ghadis 404; ${listed(problems)}` };
  });
}

async function boardPagesCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check(
    'the board and results pages show each kind’s form, and holidays, in both languages with JavaScript off',
    async () => {
      const problems: string[] = [];
      const { live, starline, market } = scene.ghadis;
      const open = await site.submit(site.admin, live.GID, '156', site.today);
      if (open.status !== 200) problems.push(`open half: ${open.status}`);
      else scene.declared.set(live.GID, site.today, '156-2');
      const holiday = await site.call('POST', '/api/holidays', site.admin, {
        Date: site.today,
        GID: starline.GID,
      });
      if (holiday.status === 201) scene.holidays.push({ date: site.today, gid: starline.GID });
      const home = await text(site, '/');
      const hindi = await text(site, '/hi');
      const wants: Array<[string, string, string]> = [
        ['/', home.html, '156-2'],
        ['/', home.html, '5:45 PM'],
        ['/', home.html, '123-69-450'],
        ['/', home.html, 'Holiday'],
        ['/hi', hindi.html, '156-2'],
        ['/hi', hindi.html, '123-69-450'],
        ['/hi', hindi.html, 'छुट्टी'],
      ];
      for (const [path, html, want] of wants)
        if (!html.includes(want)) problems.push(`${path} lacks ${want}`);
      for (const prefix of ['', '/hi']) {
        const page = await text(site, `${prefix}/satta-results/${folded(market.NameEn)}`);
        for (const want of ['123-69-450', '130-40-550'])
          if (page.status !== 200 || !page.html.includes(want))
            problems.push(`${prefix}/satta-results lacks ${want} (${page.status})`);
      }
      return {
        ok: problems.length === 0,
        detail: `home and /hi (${home.status}, ${hindi.status}): an open half with the close time, a whole day, "Holiday"/"छुट्टी"; the results page in both languages; ${listed(problems)}`,
      };
    },
  );
}

async function sitemapCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check(
    '/sitemap.xml lists the weekly charts of markets and starlines, not of jodi ghadis',
    async () => {
      const locations = (xml: string) =>
        [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1] ?? '');
      const root = (await site.get('/sitemap.xml')).body.toString();
      const urls = new Set(root.includes('<sitemapindex') ? [] : locations(root));
      for (const part of root.includes('<sitemapindex') ? locations(root) : [])
        for (const url of locations((await site.get(part.replace(site.url, ''))).body.toString()))
          urls.add(url);
      const year = Number(scene.weeklyRows.at(-1)?.[0].slice(0, 4));
      const wanted = ['jodi-chart', 'panel-chart'].flatMap((chart) =>
        ['', '/hi'].map(
          (prefix) => `${site.url}${prefix}/${chart}/${folded(scene.ghadis.weekly.NameEn)}/${year}`,
        ),
      );
      const missing = wanted.filter((url) => !urls.has(url));
      const jodi = [...urls].filter(
        (url) => url.includes(`/${folded(scene.ghadis.jodi.NameEn)}/`) && /(jodi|panel)-chart/.test(url),
      );
      return {
        ok: missing.length === 0 && jodi.length === 0,
        detail: `${urls.size} URLs; ${wanted.length - missing.length}/${wanted.length} weekly chart URLs of the Mon–Sat market${missing.length ? ` (missing ${missing.join(', ')})` : ''}; ${jodi.length} of the jodi ghadi`,
      };
    },
  );
}

interface InPage {
  document: {
    documentElement: { dataset: Record<string, string | undefined> };
    querySelector(selector: string): { textContent: string | null } | null;
  };
}

async function liveCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check('a close step reaches an open panel chart in Chromium with no request', async () => {
    const { live } = scene.ghadis;
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const year = Number(site.today.slice(0, 4));
      await page.goto(`${site.url}/panel-chart/${folded(live.NameEn)}/${year}`);
      await page.waitForFunction(
        () => (globalThis as unknown as InPage).document.documentElement.dataset.live === 'open',
        null,
        { timeout: 15_000 },
      );
      await page.waitForTimeout(500);
      const requests: string[] = [];
      page.on('request', (request) =>
        requests.push(`${request.method()} ${new URL(request.url()).pathname}`),
      );
      const before = (await page.locator('table tbody').textContent()) ?? '';
      const started = Date.now();
      const [agent1 = ''] = site.agents;
      const close = await site.submit(agent1, live.GID, '280', site.today);
      if (close.status === 200) scene.declared.set(live.GID, site.today, '156-20-280');
      await page.waitForFunction(
        () =>
          (
            (globalThis as unknown as InPage).document.querySelector('table tbody')?.textContent ?? ''
          ).includes('280'),
        null,
        { timeout: 10_000 },
      );
      const shownMs = Date.now() - started;
      const after = (await page.locator('table tbody').textContent()) ?? '';
      return {
        ok:
          close.status === 200 &&
          requests.length === 0 &&
          !before.includes('280') &&
          after.includes('20') &&
          errors.length === 0,
        detail: `close 280 over 156-2 (${close.status}) shown ${shownMs} ms after the call; ${requests.length} requests meanwhile${requests.length ? ` (${requests.join(', ')})` : ''}; ${errors.length} page errors`,
      };
    } finally {
      await browser.close();
    }
  });
}

async function verifyCheck(site: MatkaSite): Promise<CheckResult> {
  return check(
    'npm run verify -- URL verifies the log and the published results, close steps included',
    async () => {
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'verify', '--', site.url]);
      return { ok: /verified/.test(stdout), detail: stdout.trim() };
    },
  );
}

export async function matkaPageChecks(site: MatkaSite, scene: MatkaScene): Promise<CheckResult[]> {
  return [
    await boardPagesCheck(site, scene),
    await weeksApiCheck(site, scene),
    await weeklyPagesCheck(site, scene),
    await sitemapCheck(site, scene),
    await liveCheck(site, scene),
    await verifyCheck(site),
  ];
}
