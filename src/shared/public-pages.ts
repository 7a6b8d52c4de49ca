/**
 * The public pages' data and constants, shared by the server (which renders and caches the pages)
 * and the browser (which hydrates them and refreshes them live). Pure: no server or DOM code.
 */
import { foldName } from './names.js';
import type { DeclarationEntry, DeclarationHead } from './schemas/declarations.js';
import type { GhadiRecord } from './schemas/ghadis.js';
import type { PublicResultRecord } from './schemas/results.js';

/** Content blocks the home page shows: the blog (spec) and an optional banner (content, not an image). */
export const BLOG_SLUG = 'blog-section';
export const BANNER_SLUG = 'home-banner';
export const BLOG_MISSING_TEXT = 'Section not found.';

/** Spec section 9: record chart and results table have 31 day rows; five year choices. */
export const DAY_ROWS = 31;
export const YEAR_CHOICES = 5;
export const VISITOR_STATS_REFRESH_MS = 15_000;

/** Spec section 2: the static promotional rates and time table. */
export const RATES = [
  { game: 'Jodi', stake: 10, payout: 1050 },
  { game: 'Harup', stake: 100, payout: 1050 },
] as const;
export const TIME_TABLE = [
  { name: 'NCR', time: '1:45 PM' },
  { name: 'Delhi Bazar', time: '2:45 PM' },
  { name: 'Shiri Ganesh', time: '4:15 PM' },
  { name: 'Faridabad', time: '5:50 PM' },
  { name: 'Ghaziabad', time: '9:15 PM' },
  { name: 'Gali', time: '11:15 PM' },
  { name: 'Disawer', time: '4:00 AM' },
] as const;

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** One ghadi as the public pages need it. */
export type PublicGhadi = Pick<GhadiRecord, 'GID' | 'NameEn' | 'NameHn' | 'RTime'>;

/** What GET /api/home answers and the home page embeds: everything the home page shows. */
export interface HomePageData {
  page: 'home';
  /** The id of the latest live event this data includes: the page's event stream starts after it. */
  version: number;
  /** The site's name (sent with the data, so that the public bundle does not import the zod schemas). */
  siteName: string;
  /** Today in the site's time zone (YYYY-MM-DD): the chart's "today". */
  today: string;
  /** The record chart's month, YYYY-MM in UTC (spec: UTC month and year). */
  recordMonth: string;
  /** Every live ghadi by OrderId, with today's and yesterday's results. */
  ghadis: GhadiRecord[];
  /** The record month's results that have a ghadi name. */
  record: PublicResultRecord[];
  blogHtml: string | null;
  bannerHtml: string | null;
}

export interface ResultsPageData {
  page: 'results';
  version: number;
  siteName: string;
  /** The name as addressed in the URL (decoded). */
  name: string;
  today: string;
  /** The site's IANA time zone (SITE_TIMEZONE): declared times are shown in it. */
  timeZone: string;
  month: number;
  year: number;
  /** Null when no live ghadi has this name (the page answers 404). */
  ghadi: PublicGhadi | null;
  /** Null when the month has no results (spec: "No data available for {name}"). */
  results: PublicResultRecord[] | null;
}

/** The public declaration log, newest first, a page at a time (/declarations?page=N). */
export interface DeclarationsPageData {
  page: 'declarations';
  siteName: string;
  today: string;
  timeZone: string;
  /** The log's latest entry when the page was built; the entries shown are at or before it. */
  head: DeclarationHead;
  /** This page's entries, newest first; empty past the end (the page answers 404). */
  entries: DeclarationEntry[];
  /** 1-based. */
  pageNumber: number;
  /** At least 1 (an empty log has one empty page). */
  pageCount: number;
}

export type PublicPageData = HomePageData | ResultsPageData | DeclarationsPageData;

export const DECLARATIONS_PATH = '/declarations';
export const FEED_PATH = '/feed.xml';
/** Entries on a page of /declarations, and in /feed.xml. */
export const DECLARATIONS_PER_PAGE = 50;

/** A page of the log; the first page has no query. */
export function declarationsPagePath(pageNumber: number): string {
  return pageNumber === 1 ? DECLARATIONS_PATH : `${DECLARATIONS_PATH}?page=${pageNumber}`;
}

/** How many pages a log of `entries` entries fills (one page when it is empty). */
export function declarationsPageCount(entries: number): number {
  return Math.max(1, Math.ceil(entries / DECLARATIONS_PER_PAGE));
}

/** What a correction is called wherever it is marked: "corrected, was 45". */
export function correctionLabel(previous: string | null): string {
  return previous === null ? 'corrected' : `corrected, was ${previous}`;
}

/** What the server-side bundle (src/web/entry-server.tsx) exports. */
export interface PublicPageRenderer {
  renderPage(data: PublicPageData): string;
}

/** The page of one ghadi: /satta-results/{lower-cased English name}, URL-encoded. */
export function ghadiPagePath(nameEn: string): string {
  return `/satta-results/${encodeURIComponent(foldName(nameEn))}`;
}

/** The page of one ghadi for a month; the current month's page has no query. */
export function ghadiMonthPath(name: string, month: number, year: number, today: string): string {
  const path = ghadiPagePath(name);
  return isCurrentMonth(month, year, today) ? path : `${path}?month=${month}&year=${year}`;
}

export function isCurrentMonth(month: number, year: number, today: string): boolean {
  return year === yearOf(today) && month === monthOf(today);
}

export function yearOf(date: string): number {
  return Number(date.slice(0, 4));
}

export function monthOf(date: string): number {
  return Number(date.slice(5, 7));
}

/** The year choices: this year and the four before, newest first. */
export function yearChoices(today: string): number[] {
  const year = yearOf(today);
  return Array.from({ length: YEAR_CHOICES }, (_, index) => year - index);
}

/**
 * The month and year a results page shows: the query's when both are valid choices,
 * otherwise the current month (an address the selectors cannot produce falls back to the default).
 */
export function chosenMonth(
  today: string,
  month: string | number | undefined,
  year: string | number | undefined,
): { month: number; year: number } {
  const m = Number(month);
  const y = Number(year);
  if (Number.isInteger(m) && m >= 1 && m <= 12 && yearChoices(today).includes(y))
    return { month: m, year: y };
  return { month: monthOf(today), year: yearOf(today) };
}

export function monthLabel(month: number, year: number): string {
  return `${MONTH_NAMES[month - 1] ?? ''} ${year}`;
}

/** "2026-11" as "November 2026". */
export function yearMonthLabel(yearMonth: string): string {
  return monthLabel(Number(yearMonth.slice(5, 7)), Number(yearMonth.slice(0, 4)));
}

/** The current UTC month as YYYY-MM (the record chart's month). */
export function utcYearMonth(now: Date = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/** Day numbers 1..31, the rows of both month tables. */
export const DAYS: readonly number[] = Array.from({ length: DAY_ROWS }, (_, index) => index + 1);

/** Results by day of month (1..31) for one month; a later row for the same day does not win over the first. */
export function resultsByDay(
  results: readonly PublicResultRecord[],
  yearMonth: string,
): Map<number, PublicResultRecord> {
  const byDay = new Map<number, PublicResultRecord>();
  for (const result of results) {
    if (!result.Date.startsWith(yearMonth)) continue;
    const day = Number(result.Date.slice(8, 10));
    if (!byDay.has(day)) byDay.set(day, result);
  }
  return byDay;
}

/** The record chart's cells: ghadi name → day → result, from results that have a name. */
export function recordGrid(
  results: readonly PublicResultRecord[],
  yearMonth: string,
): Map<string, Map<number, PublicResultRecord>> {
  const grid = new Map<string, Map<number, PublicResultRecord>>();
  for (const result of results) {
    if (!result.Name || !result.Date.startsWith(yearMonth)) continue;
    let days = grid.get(result.Name);
    if (!days) {
      days = new Map();
      grid.set(result.Name, days);
    }
    const day = Number(result.Date.slice(8, 10));
    if (!days.has(day)) days.set(day, result);
  }
  return grid;
}

/** "2026-11-22" as "22 November 2026". */
export function longDate(date: string): string {
  return `${Number(date.slice(8, 10))} ${monthLabel(monthOf(date), yearOf(date))}`;
}

/** "2026-11-22" as "22 Nov 2026". */
export function shortDate(date: string): string {
  return `${Number(date.slice(8, 10))} ${MONTH_NAMES[monthOf(date) - 1]?.slice(0, 3) ?? ''} ${yearOf(date)}`;
}

export function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}
