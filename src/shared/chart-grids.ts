/**
 * The charts' grids from public results: a ghadi's year (12 months × 31 days) and every ghadi's
 * month (31 days × one column per ghadi). Pure: the server builds its answers with them, and a
 * page can apply a live result to a grid the same way.
 */

import { chartKindOf } from './chart-cell-form.js';
import { DAY_ROWS } from './month-tables.js';
import type { ChartCell, MonthChart, YearChart } from './schemas/charts.js';
import type { GhadiRecord } from './schemas/ghadis.js';
import type { PublicResultRecord } from './schemas/results.js';

const cellOf = (result: YearChartResult): ChartCell => ({
  Result: result.Result,
  Corrected: result.Corrected,
});

const emptyDays = (): ChartCell[] => new Array<ChartCell>(DAY_ROWS).fill(null);

/** Month (0-11) and day index (0-30) of a YYYY-MM-DD date. */
function place(date: string): [month: number, day: number] {
  return [Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) - 1];
}

/** What a chart cell is made of: a public result's ghadi, date, value and correction mark. */
export type YearChartResult = Pick<PublicResultRecord, 'GID' | 'Date' | 'Result' | 'Corrected'>;

/** What a chart names a ghadi by; its Kind (a jodi ghadi's when absent) says how its cells read. */
type ChartedGhadi = Pick<GhadiRecord, 'GID' | 'NameEn' | 'NameHn'> & Partial<Pick<GhadiRecord, 'Kind'>>;

/** A ghadi's year chart from its results of that year (any order) and the years it has results in. */
export function yearChartOf(
  ghadi: ChartedGhadi,
  year: number,
  results: readonly YearChartResult[],
  years: readonly number[],
): YearChart {
  const months = Array.from({ length: 12 }, emptyDays);
  const prefix = `${year}-`;
  for (const result of results) {
    if (result.GID !== ghadi.GID || !result.Date.startsWith(prefix)) continue;
    const [month, day] = place(result.Date);
    const row = months[month];
    if (row && day >= 0 && day < DAY_ROWS) row[day] = cellOf(result);
  }
  const { GID, NameEn, NameHn } = ghadi;
  return { GID, NameEn, NameHn, ...chartKindOf(ghadi.Kind ?? 'jodi'), year, years: [...years], months };
}

/** Every live ghadi's month chart (columns by the list's order: OrderId) from that month's results. */
export function monthChartOf(
  month: string,
  ghadis: readonly ChartedGhadi[],
  results: readonly PublicResultRecord[],
): MonthChart {
  const column = new Map(ghadis.map((ghadi, index) => [ghadi.GID, index]));
  const days = Array.from({ length: DAY_ROWS }, () => new Array<ChartCell>(ghadis.length).fill(null));
  for (const result of results) {
    const index = column.get(result.GID);
    if (index === undefined || !result.Date.startsWith(`${month}-`)) continue;
    const row = days[place(result.Date)[1]];
    if (row) row[index] = cellOf(result);
  }
  const columns = ghadis.map(({ GID, NameEn, NameHn, Kind }) => ({
    GID,
    NameEn,
    NameHn,
    ...chartKindOf(Kind ?? 'jodi'),
  }));
  return { month, ghadis: columns, days };
}
