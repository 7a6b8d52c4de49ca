import type { ResultRecord } from '../../../shared/schemas/results.js';

/** One fixed format (e.g. "22 Nov 2026"), so what the admin reads is also what they can search for. */
const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  // DateTime is the business date at UTC midnight: reading it in UTC keeps the day it stands for.
  timeZone: 'UTC',
});

export function displayDate(result: ResultRecord): string {
  const instant = new Date(result.DateTime);
  return Number.isNaN(instant.getTime()) ? result.Date : DATE_FORMAT.format(instant);
}

/** Case-insensitive match on agent, ghadi, result and date (YYYY-MM-DD or as displayed). */
export function matchesSearch(result: ResultRecord, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return [result.CreatedByName, result.Name, result.Result, result.Date, displayDate(result)].some((field) =>
    field.toLowerCase().includes(needle),
  );
}
