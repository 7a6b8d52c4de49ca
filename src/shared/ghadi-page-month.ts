/**
 * A ghadi's public results page, /satta-results/{name}?month=&year=: its address, and the month it
 * shows (the month and year selectors' choices). Pure: shared by the server and the web app.
 */
import { monthOf, yearOf } from './date-labels.js';
import { foldName } from './names.js';

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
