/**
 * The public pages' month tables: the home page's record chart (every ghadi, the current UTC month)
 * and a ghadi's results table (one month), both with a row per day. Pure: no server or DOM code.
 */
import type { PublicResultRecord } from './schemas/results.js';

/** Spec section 9: record chart and results table have 31 day rows. */
export const DAY_ROWS = 31;

/** Day numbers 1..31, the rows of both month tables. */
export const DAYS: readonly number[] = Array.from({ length: DAY_ROWS }, (_, index) => index + 1);

/** The current UTC month as YYYY-MM (the record chart's month). */
export function utcYearMonth(now: Date = new Date()): string {
  return now.toISOString().slice(0, 7);
}

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
