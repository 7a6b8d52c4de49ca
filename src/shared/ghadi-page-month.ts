/**
 * A ghadi's public results page, /satta-results/{name}?month=&year=: its address, and the month it
 * shows (the month and year selectors' choices). Pure: shared by the server and the web app.
 */
import { monthOf, yearOf } from './date-labels.js';
import { foldName } from './names.js';

/** The first year the site's pages show: a results page's month, a year chart, a month chart. */
export const FIRST_CHART_YEAR = 2000;

/** Spec section 9: five year choices. */
export const YEAR_CHOICES = 5;

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

/**
 * The year selector's choices, newest first: this year and the four before (spec section 9), and the
 * year shown when it is older (a year chart links to any month since FIRST_CHART_YEAR, and the
 * selector says what the page shows).
 */
export function yearChoices(today: string, shown?: number): number[] {
  const year = yearOf(today);
  const choices = Array.from({ length: YEAR_CHOICES }, (_, index) => year - index);
  return shown !== undefined && shown < year - (YEAR_CHOICES - 1) ? [...choices, shown] : choices;
}

/**
 * The month and year a results page shows: the query's when the month is 1-12 and the year from
 * FIRST_CHART_YEAR to this year (what the selectors and the year charts link to), otherwise the
 * current month (an address nothing links to falls back to the default).
 */
export function chosenMonth(
  today: string,
  month: string | number | undefined,
  year: string | number | undefined,
): { month: number; year: number } {
  const m = Number(month);
  const y = Number(year);
  if (
    Number.isInteger(m) &&
    m >= 1 &&
    m <= 12 &&
    Number.isInteger(y) &&
    y >= FIRST_CHART_YEAR &&
    y <= yearOf(today)
  )
    return { month: m, year: y };
  return { month: monthOf(today), year: yearOf(today) };
}
