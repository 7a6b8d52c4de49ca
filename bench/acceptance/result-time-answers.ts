/**
 * The result-time group's checks of what a shared cache in front is told (issue 46), on a server of
 * ten years: the headers and keys of every public answer, the 404s of years and months without
 * results, and the sitemap against the pages that answer 200.
 */
import { monthChartPath, shiftMonth, yearChartPath } from '../../src/shared/chart-pages.js';
import { FIRST_CHART_YEAR, ghadiPagePath } from '../../src/shared/ghadi-page-month.js';
import { foldName } from '../../src/shared/names.js';
import { inLanguage, LANGUAGES } from '../../src/shared/page-language.js';
import { addressSource, send, signIn } from '../lib/client.js';
import { readingSet } from '../lib/reading-set.js';
import { SEED_ADMIN } from '../lib/seed.js';
import type { TimedAnswer } from '../lib/timed-request.js';
import { readAll } from '../scenarios/reading-load.js';
import type { Seeded } from '../scenarios/setup.js';
import type { CheckResult } from './types.js';

const KEY =
  /^(site|today|home|log|periods|ghadi-\d+|day-\d{4}-\d{2}-\d{2}|month-\d{4}-\d{2}|month-\d+-\d{4}-\d{2}|year-\d+-\d{4}|results-\d+|content-[a-z0-9-]+)$/;

/** What is wrong with a public answer's caching headers ('' when nothing). */
function publicHeadersWrong(answer: TimedAnswer): string {
  const control = String(answer.headers['cache-control'] ?? '');
  const wrong: string[] = [];
  for (const part of ['public', 'max-age=0', 'stale-if-error=86400'])
    if (!control.split(/,\s*/).includes(part)) wrong.push(`Cache-Control lacks ${part}`);
  if (control.includes('stale-while-revalidate'))
    wrong.push('Cache-Control tells browsers stale-while-revalidate');
  const forCaches = String(answer.headers['cdn-cache-control'] ?? '');
  if (!forCaches.split(/,\s*/).includes('stale-while-revalidate=86400'))
    wrong.push('CDN-Cache-Control lacks stale-while-revalidate=86400');
  const shared = /s-maxage=(\d+)/.exec(control)?.[1];
  if (shared !== '1' && shared !== '86400') wrong.push(`s-maxage ${shared ?? 'missing'}`);
  const keys = String(answer.headers['surrogate-key'] ?? '');
  if (keys === '' || keys !== String(answer.headers['cache-tag'] ?? '').replaceAll(',', ' '))
    wrong.push(`Surrogate-Key "${keys}" and Cache-Tag "${answer.headers['cache-tag'] ?? ''}" differ`);
  const unknown = keys.split(' ').filter((key) => !KEY.test(key));
  if (unknown.length > 0) wrong.push(`unknown keys ${unknown.join(' ')}`);
  if (!keys.split(' ').includes('site')) wrong.push('no site key');
  for (const varying of ['set-cookie', 'x-request-id'])
    if (answer.headers[varying]) wrong.push(`${varying} sent`);
  const vary = String(answer.headers.vary ?? '').toLowerCase();
  if (vary !== '' && vary !== 'accept-encoding') wrong.push(`Vary: ${vary}`);
  return wrong.join('; ');
}

/** Every kind of public answer at least once: pages in both languages, their JSON, the site's files. */
function publicAddresses(seeded: Seeded, today: string): string[] {
  const ghadi = seeded.seed.ghadis[0];
  if (!ghadi) throw new Error('the seed has no ghadi');
  const lastYear = Number(today.slice(0, 4)) - 1;
  const pastMonth = shiftMonth(today.slice(0, 7), -3);
  const pages = [
    '/',
    ghadiPagePath(ghadi.name),
    `${ghadiPagePath(ghadi.name)}?month=${Number(pastMonth.slice(5))}&year=${pastMonth.slice(0, 4)}`,
    yearChartPath(ghadi.name, Number(today.slice(0, 4))),
    yearChartPath(ghadi.name, lastYear),
    monthChartPath(today.slice(0, 7)),
    monthChartPath(pastMonth),
    '/declarations',
  ].flatMap((page) => LANGUAGES.map((language) => inLanguage(language, page)));
  const name = encodeURIComponent(foldName(ghadi.name));
  return [
    ...pages,
    '/api/home',
    '/api/ghadis',
    '/api/site',
    `/api/results/${name}`,
    `/api/results/${name}?month=${Number(pastMonth.slice(5))}&year=${pastMonth.slice(0, 4)}`,
    `/api/results?month=${today.slice(0, 7)}`,
    `/api/charts/${name}/${lastYear}`,
    `/api/charts/month/${pastMonth}`,
    '/api/declarations',
    '/api/declarations/head',
    '/sitemap.xml',
    '/feed.xml',
    '/robots.txt',
  ];
}

export async function headersCheck(baseUrl: string, seeded: Seeded, today: string): Promise<CheckResult> {
  const nextAddress = addressSource();
  const wrong: string[] = [];
  const addresses = publicAddresses(seeded, today);
  for (const address of addresses) {
    const answer = await send(baseUrl, address, { method: 'GET', address: nextAddress() });
    const problem = answer.status === 200 ? publicHeadersWrong(answer) : `answered ${answer.status}`;
    if (problem) wrong.push(`${address}: ${problem}`);
  }
  // Never on what is private: an admin's list, the live stream.
  const token = await signIn(baseUrl, SEED_ADMIN, nextAddress());
  const own = await send(baseUrl, '/api/users', { method: 'GET', address: nextAddress(), token });
  if (own.headers['cache-control'] !== 'private, no-store' || own.headers['surrogate-key'])
    wrong.push(
      `/api/users (admin): Cache-Control ${own.headers['cache-control']}, keys ${own.headers['surrogate-key'] ?? 'none'}`,
    );
  return {
    name: 'every public answer tells a shared cache its lifetime and its keys; private ones are private',
    ok: wrong.length === 0,
    detail:
      wrong.length === 0
        ? `${addresses.length} public answers (pages in both languages, their JSON, sitemap, feed, robots): s-maxage 1 or 86400, swr and sie a day, Surrogate-Key = Cache-Tag, no cookie, Vary only Accept-Encoding; /api/users private`
        : wrong.slice(0, 6).join(' | '),
  };
}

export async function emptyPeriodsCheck(
  baseUrl: string,
  seeded: Seeded,
  today: string,
): Promise<CheckResult> {
  const firstYear = Number(seeded.seed.firstDate.slice(0, 4));
  const firstMonth = seeded.seed.firstDate.slice(0, 7);
  const empty: string[] = [];
  for (const ghadi of seeded.seed.ghadis.slice(0, 3))
    for (let year = FIRST_CHART_YEAR; year < firstYear; year++) empty.push(yearChartPath(ghadi.name, year));
  for (
    let month = shiftMonth(firstMonth, -1);
    month >= `${FIRST_CHART_YEAR}-01`;
    month = shiftMonth(month, -12)
  )
    empty.push(monthChartPath(month));
  const asked = empty.flatMap((page) => LANGUAGES.map((language) => inLanguage(language, page)));
  const json = seeded.seed.ghadis
    .slice(0, 3)
    .map((ghadi) => `/api/charts/${encodeURIComponent(foldName(ghadi.name))}/${firstYear - 1}`);
  const read = await readAll(baseUrl, [...asked, ...json], 2, addressSource(), true);
  const not404 = read.answers
    .filter(({ answer }) => answer.status !== 404)
    .map(({ path, answer }) => `${path} ${answer.status}`);
  const current = await readAll(
    baseUrl,
    [
      yearChartPath(seeded.seed.ghadis[0]?.name ?? '', Number(today.slice(0, 4))),
      monthChartPath(today.slice(0, 7)),
    ],
    1,
    addressSource(),
  );
  return {
    name: 'a year or a month without results answers 404 (pages and JSON); the current ones answer 200',
    ok: not404.length === 0 && current.ok === 2,
    detail: `${read.answers.length} empty years and months asked: ${read.answers.length - not404.length} answered 404${not404.length ? `; not: ${not404.slice(0, 5).join(', ')}` : ''}; the current year and month: ${current.ok} of 2 answered 200`,
  };
}

function locationsOf(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] as string);
}

export async function sitemapCheck(baseUrl: string, seeded: Seeded, today: string): Promise<CheckResult> {
  const nextAddress = addressSource();
  const index = (
    await send(baseUrl, '/sitemap.xml', { method: 'GET', address: nextAddress() })
  ).body.toString('utf8');
  let listed = locationsOf(index);
  if (/<sitemapindex/.test(index)) {
    const parts = await Promise.all(
      listed.map((part) => send(baseUrl, new URL(part).pathname, { method: 'GET', address: nextAddress() })),
    );
    listed = parts.flatMap((part) => locationsOf(part.body.toString('utf8')));
  }
  const paths = new Set(
    listed.map((location) => {
      const url = new URL(location);
      return url.pathname + url.search;
    }),
  );
  // Every chart page the reading set holds answers 200: each must be listed.
  const set = readingSet(seeded.seed, today);
  const charts = [...set.year, ...set.month];
  const missing = charts.filter((page) => !paths.has(page));
  const read = await readAll(baseUrl, [...paths], 4, nextAddress);
  return {
    name: 'the sitemap lists exactly the pages that answer 200',
    ok: read.others.length === 0 && read.ok === paths.size && missing.length === 0,
    detail:
      `${paths.size} addresses listed: ${read.ok} answered 200${read.others.length ? `, others ${read.others.join(', ')}` : ''}; ` +
      `${charts.length - missing.length} of the ${charts.length} year and month charts with results listed` +
      (missing.length ? ` (missing: ${missing.slice(0, 4).join(', ')})` : ''),
  };
}
