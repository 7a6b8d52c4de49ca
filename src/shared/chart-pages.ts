/**
 * The chart pages' addresses and ranges: a ghadi's year, /satta-results/{name}/{year}, and every
 * ghadi's month, /chart/{YYYY-MM}. Pure: shared by the server (routes, sitemap, 404s) and the pages.
 */
import { twoDigits } from './date-labels.js';
import { FIRST_CHART_YEAR, ghadiPagePath } from './ghadi-page-month.js';
import { foldName } from './names.js';

export const MONTH_CHART_PREFIX = '/chart/';

/** A ghadi's year chart: its results page's address and the year. */
export function yearChartPath(nameEn: string, year: number): string {
  return `${ghadiPagePath(nameEn)}/${year}`;
}

/** Every ghadi's chart of a month (YYYY-MM). */
export function monthChartPath(month: string): string {
  return `${MONTH_CHART_PREFIX}${month}`;
}

/** The year chart's data: GET /api/charts/{folded name}/{year}. */
export function yearChartApiPath(nameEn: string, year: number): string {
  return `/api/charts/${encodeURIComponent(foldName(nameEn))}/${year}`;
}

/** The month chart's data: GET /api/charts/month/{YYYY-MM}. */
export function monthChartApiPath(month: string): string {
  return `/api/charts/month/${month}`;
}

/** Whether a year has a chart: from FIRST_CHART_YEAR to the site's current year. */
export function yearCharted(year: number, today: string): boolean {
  return Number.isInteger(year) && year >= FIRST_CHART_YEAR && year <= Number(today.slice(0, 4));
}

/** Whether a month (YYYY-MM) has a chart: from FIRST_CHART_YEAR's January to the site's current month. */
export function monthCharted(month: string, today: string): boolean {
  return (
    /^\d{4}-(0[1-9]|1[0-2])$/.test(month) && month >= `${FIRST_CHART_YEAR}-01` && month <= today.slice(0, 7)
  );
}

/** The month `step` months after (or before, when negative) a YYYY-MM month. */
export function shiftMonth(month: string, step: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + step;
  return `${Math.floor(index / 12)}-${twoDigits((index % 12) + 1)}`;
}

/** How many days a month (1-12) of a year has. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether a ghadi's year chart exists: a charted year in which it has results, or the current year. */
export function yearHasChart(year: number, years: readonly number[], today: string): boolean {
  return yearCharted(year, today) && (year === Number(today.slice(0, 4)) || years.includes(year));
}

/** Whether a month chart exists: a charted month in which any ghadi has results, or the current month. */
export function monthHasChart(month: string, months: readonly string[], today: string): boolean {
  return monthCharted(month, today) && (month === today.slice(0, 7) || months.includes(month));
}

/** The nearest months before and after `month` that have a chart (`months`: those with results). */
export function neighbourMonths(
  month: string,
  months: readonly string[],
  today: string,
): { previousMonth: string | null; nextMonth: string | null } {
  const charted = [...new Set([...months, today.slice(0, 7)])]
    .filter((each) => monthCharted(each, today))
    .sort();
  return {
    previousMonth: charted.filter((each) => each < month).at(-1) ?? null,
    nextMonth: charted.find((each) => each > month) ?? null,
  };
}
