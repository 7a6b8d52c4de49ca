import { monthCharted, monthChartPath, yearCharted, yearChartPath } from '../../../shared/chart-pages.js';
import { DECLARATIONS_PATH } from '../../../shared/declaration-log-pages.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { inLanguage, LANGUAGES, type Language } from '../../../shared/page-language.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { hasWeeklyCharts, WEEKLY_VIEWS, weeklyChartPath } from '../../../shared/weekly-chart-pages.js';
import type { ChartPeriods } from '../../modules/results/results-chart-repository.js';
import { type CachedAnswer, type PrepareOptions, prepareAnswer } from '../model/cached-answer.js';

/** Characters XML 1.0 does not allow at all (control characters): a reader would reject the whole feed. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text for XML content and attribute values (the sitemap's and the feed's). */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

export const SITEMAP_PATH = '/sitemap.xml';

/** The address of part `part` (from 1) of a sitemap too large for one file. */
export function sitemapPartPath(part: number): string {
  return `/sitemap/${part}.xml`;
}

/** What one sitemap file may hold: the protocol allows 50 000 addresses and 50 MB (uncompressed). */
export interface SitemapLimits {
  urls: number;
  bytes: number;
}

export const SITEMAP_LIMITS: SitemapLimits = { urls: 50_000, bytes: 50 * 1024 * 1024 };

/** What the sitemap lists the public pages of. */
export interface SitemapContents {
  /** The live ghadis, in the order the site lists them (a panna or open/close one has weekly charts). */
  ghadis: ReadonlyArray<Pick<GhadiRecord, 'GID' | 'NameEn'> & Partial<Pick<GhadiRecord, 'Kind'>>>;
  periods: ChartPeriods;
  /**
   * Whether the server renders the public pages. Without them only the home and results pages exist
   * (the web app renders those two in the browser); the log, the charts and the Hindi pages do not.
   */
  withPages: boolean;
  /** The site's date: the current year and month have charts whether or not they hold results yet. */
  today: string;
}

interface SitemapPage {
  /** The English address. */
  path: string;
  /** Shows today's results, so it changes every day; a past year or month changes only on a correction. */
  daily: boolean;
}

/** The pages a sitemap lists, English addresses, the most read first (they go in the first part). */
function sitemapPages({ ghadis, periods, withPages, today }: SitemapContents): SitemapPage[] {
  const year = Number(today.slice(0, 4));
  const month = today.slice(0, 7);
  const pages: SitemapPage[] = [{ path: '/', daily: true }];
  if (withPages) pages.push({ path: DECLARATIONS_PATH, daily: true });
  for (const ghadi of ghadis) pages.push({ path: ghadiPagePath(ghadi.NameEn), daily: true });
  if (!withPages) return pages;
  for (const ghadi of ghadis) {
    const years = [...new Set([...(periods.years.get(ghadi.GID) ?? []), year])]
      .filter((each) => yearCharted(each, today))
      .sort((a, b) => b - a);
    for (const each of years) pages.push({ path: yearChartPath(ghadi.NameEn, each), daily: each === year });
  }
  // Weekly charts exist for the years with results only (the current one too only once it has some).
  for (const ghadi of ghadis) {
    if (!ghadi.Kind || !hasWeeklyCharts(ghadi.Kind)) continue;
    const years = (periods.years.get(ghadi.GID) ?? []).filter((each) => yearCharted(each, today));
    for (const each of [...years].sort((a, b) => b - a))
      for (const view of WEEKLY_VIEWS)
        pages.push({ path: weeklyChartPath(view, ghadi.NameEn, each), daily: each === year });
  }
  const months = [...new Set([...periods.months, month])]
    .filter((each) => monthCharted(each, today))
    .sort()
    .reverse();
  for (const each of months) pages.push({ path: monthChartPath(each), daily: each === month });
  return pages;
}

/**
 * A page's <url> in each language, each naming both (hreflang alternates, as Google reads them from
 * sitemaps): search engines then pair the alternates even before they crawl the pages' own links.
 */
function urlEntries(origin: string, page: SitemapPage, languages: readonly Language[]): string[] {
  const address = (language: Language) => escapeXml(`${origin}${inLanguage(language, page.path)}`);
  const changes = page.daily ? '<changefreq>daily</changefreq>' : '';
  const alternates =
    languages.length > 1
      ? languages
          .map(
            (language) => `<xhtml:link rel="alternate" hreflang="${language}" href="${address(language)}"/>`,
          )
          .join('')
      : '';
  return languages.map((language) => `  <url><loc>${address(language)}</loc>${changes}${alternates}</url>`);
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const URLSET_OPEN =
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">';
const URLSET_CLOSE = '</urlset>';

function urlsetXml(entries: readonly string[]): string {
  return [XML_DECLARATION, URLSET_OPEN, ...entries, URLSET_CLOSE, ''].join('\n');
}

function sitemapIndexXml(origin: string, parts: number): string {
  const entries = Array.from(
    { length: parts },
    (_, index) => `  <sitemap><loc>${escapeXml(`${origin}${sitemapPartPath(index + 1)}`)}</loc></sitemap>`,
  );
  return [
    XML_DECLARATION,
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</sitemapindex>',
    '',
  ].join('\n');
}

/** The entries cut into files, in order, each within the limits (an entry is never split). */
function intoParts(entries: readonly string[], limits: SitemapLimits): string[][] {
  // The file's own lines (declaration, open and close tags), each with its newline.
  const frame = Buffer.byteLength(urlsetXml([]));
  const parts: string[][] = [];
  let part: string[] = [];
  let bytes = frame;
  for (const entry of entries) {
    const size = Buffer.byteLength(entry) + 1;
    if (part.length > 0 && (part.length >= limits.urls || bytes + size > limits.bytes)) {
      parts.push(part);
      part = [];
      bytes = frame;
    }
    part.push(entry);
    bytes += size;
  }
  if (part.length > 0 || parts.length === 0) parts.push(part);
  return parts;
}

/**
 * /sitemap.xml (`part` null), or its part `part` (from 1). While every address fits in one file,
 * /sitemap.xml is that file and there are no parts; past the limits it is an index naming the parts.
 * Null for a part that does not exist. `limits` are lowered only by tests.
 */
export function sitemapFile(
  origin: string,
  contents: SitemapContents,
  part: number | null,
  limits: SitemapLimits = SITEMAP_LIMITS,
): string | null {
  const languages = contents.withPages ? LANGUAGES : (['en'] as const);
  const entries = sitemapPages(contents).flatMap((page) => urlEntries(origin, page, languages));
  const parts = intoParts(entries, limits);
  const lone = parts.length === 1;
  if (part === null) return lone ? urlsetXml(parts[0] ?? []) : sitemapIndexXml(origin, parts.length);
  const chosen = lone ? undefined : parts[part - 1];
  return chosen ? urlsetXml(chosen) : null;
}

/** sitemapFile as an answer (null for a part that does not exist). */
export async function sitemapAnswer(
  origin: string,
  contents: SitemapContents,
  part: number | null,
  options: PrepareOptions,
): Promise<CachedAnswer | null> {
  const body = sitemapFile(origin, contents, part);
  return body === null ? null : prepareAnswer(200, 'application/xml; charset=utf-8', body, options);
}

/** /robots.txt: everything but the admin and agent areas, and where the sitemap is. */
export function robotsTxt(origin: string, options: PrepareOptions): Promise<CachedAnswer> {
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /agent',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
  return prepareAnswer(200, 'text/plain; charset=utf-8', body, options);
}
