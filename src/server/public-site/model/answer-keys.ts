import { addDays } from '../../../shared/dates.js';
import { BANNER_SLUG, BLOG_SLUG } from '../../../shared/home-content-blocks.js';
import type { Change } from '../../modules/changes/change.js';
import type { ChartPeriods } from '../../modules/results/results-chart-repository.js';

/**
 * The names of what a public answer shows (its surrogate keys): the answer cache drops by them, and a
 * shared cache in front of the site purges by them (`Surrogate-Key`, `Cache-Tag`). One change drops
 * the keys `keysDroppedBy` names, and so exactly the answers that show what it changed.
 */

/** Every public answer: a whole-site drop (a ghadi added, deleted, renamed or moved; a new month). */
export const SITE_KEY = 'site';
/** What changes with the site's date: today's board, the current month's and year's pages. */
export const TODAY_KEY = 'today';
/** The board: every ghadi with today's, yesterday's and its latest value, and the home page. */
export const HOME_KEY = 'home';
/** The declaration log: its pages, windows, head and feed, and the newest results. */
export const LOG_KEY = 'log';
/** The holidays: their list, and what each closes (boards, weekly charts). */
export const HOLIDAYS_KEY = 'holidays';
/** Which years and months have results: the charts' links between periods, the sitemap, the 404s. */
export const PERIODS_KEY = 'periods';

/** A ghadi's own record (its time, its names as its pages show them). */
export const ghadiKey = (gid: number) => `ghadi-${gid}`;
/** Every ghadi's results of one day. */
export const dayKey = (date: string) => `day-${date}`;
/** Every ghadi's results of one month (YYYY-MM). */
export const monthKey = (month: string) => `month-${month}`;
/** One ghadi's results of one year. */
export const yearKey = (gid: number, year: number | string) => `year-${gid}-${year}`;
/** One ghadi's results of one month (its results page). */
export const ghadiMonthKey = (gid: number, month: string) => `month-${gid}-${month}`;
/** Every result of one ghadi (its whole list). */
export const ghadiResultsKey = (gid: number) => `results-${gid}`;
/** A content block, by its slug (escaped: keys are separated by spaces and commas). */
export const contentKey = (slug: string) => `content-${encodeURIComponent(slug)}`;

/** What the board shows: every ghadi, with today's, yesterday's and its latest value. */
export function boardKeys(today: string): string[] {
  return [HOME_KEY, TODAY_KEY, dayKey(today), dayKey(addDays(today, -1))];
}

/**
 * What a ghadi's embed shows: its own record (time, names, closed), its latest values (any result of
 * it drops `results-G`), and today's and yesterday's, which move with the day.
 */
export function ghadiEmbedKeys(gid: number): string[] {
  return [ghadiKey(gid), ghadiResultsKey(gid), TODAY_KEY];
}

/** What the home page shows: the board, the record chart's month and the blocks it embeds. */
export function homeKeys(today: string, recordMonth: string): string[] {
  return [...boardKeys(today), monthKey(recordMonth), contentKey(BLOG_SLUG), contentKey(BANNER_SLUG)];
}

/**
 * Whether a period that ends on `lastDay` (YYYY-MM-DD) may still change without a correction: it holds
 * today or yesterday (a ghadi due after midnight is declared on the next day). Such answers carry
 * TODAY_KEY and a shared cache keeps them a second; closed ones a day.
 */
export function periodOpen(lastDay: string, today: string): boolean {
  return lastDay >= addDays(today, -1);
}

/** The last day of a month (YYYY-MM): a string that sorts after every date in it. */
export const monthEnd = (month: string) => `${month}-31`;
export const yearEnd = (year: number | string) => `${year}-12-31`;

/**
 * The keys a change drops, in the process that applies it and in the shared cache its writer purges.
 * `today` is the site's date when the change is applied.
 */
export function keysDroppedBy(change: Change, today: string, periods?: ChartPeriods): string[] {
  switch (change.kind) {
    case 'result': {
      const { gid, date } = change;
      const month = date.slice(0, 7);
      const keys = [
        dayKey(date),
        monthKey(month),
        ghadiMonthKey(gid, month),
        yearKey(gid, date.slice(0, 4)),
        ghadiResultsKey(gid),
        // The board shows each ghadi's latest value, whatever its date.
        HOME_KEY,
        LOG_KEY,
      ];
      // A new result before this month may be the first of its year or month: a page appears. The
      // current month and year are listed whether or not they have results, but a ghadi's years (its
      // charts' links, its weekly charts) gain the current one at its first result of the year.
      // Periods not read yet (or dropped by this very change, for the purge that follows) count as
      // lacking it.
      const yearListed = periods?.years.get(gid)?.includes(Number(date.slice(0, 4))) === true;
      if (change.created !== false && (month < today.slice(0, 7) || !yearListed)) keys.push(PERIODS_KEY);
      return keys;
    }
    case 'ghadi':
      return change.listed === false ? [ghadiKey(change.gid), HOME_KEY] : [SITE_KEY];
    case 'content':
      return [contentKey(change.slug)];
    case 'results-imported':
      return [SITE_KEY];
    case 'holiday': {
      // One ghadi's: its board row and its weekly charts of that year; every ghadi's: the whole site.
      const { gid, date } = change;
      return gid === null
        ? [SITE_KEY]
        : [HOLIDAYS_KEY, HOME_KEY, ghadiKey(gid), yearKey(gid, date.slice(0, 4))];
    }
    case 'day': {
      const { previous } = change;
      // Every page names the current month (its menu's chart) and year (its footer).
      if (previous === undefined || previous.slice(0, 7) !== change.today.slice(0, 7)) return [SITE_KEY];
      if (previous !== change.today) return [TODAY_KEY];
      // UTC midnight alone: the home page's record chart is of the UTC month.
      return change.utcDate.endsWith('-01') ? [HOME_KEY] : [];
    }
  }
}
