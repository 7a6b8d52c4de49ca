import type { PublicResultRecord } from '../../../shared/schemas/results.js';

/** Rows per page of the history (spec section 9: agent history page size 10). */
export const HISTORY_PAGE_SIZE = 10;

/** 2026-11-22 as people in India also write it: 22-11-2026 and 22/11/2026. */
function dayFirstForms(date: string): string[] {
  const [year, month, day] = date.split('-');
  if (!year || !month || !day) return [];
  return [`${day}-${month}-${year}`, `${day}/${month}/${year}`];
}

/** Results whose value or date contains the search text, ignoring case; order is kept (newest first). */
export function filterHistory(rows: PublicResultRecord[], search: string): PublicResultRecord[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return rows;
  return rows.filter(
    (row) =>
      row.Result.toLowerCase().includes(needle) ||
      [row.Date, ...dayFirstForms(row.Date)].some((form) => form.includes(needle)),
  );
}
