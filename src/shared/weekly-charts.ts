/**
 * The weekly charts' grid (their addresses: weekly-chart-pages.ts): a row per week, Monday first, and
 * a column per weekday the ghadi runs. Pure: the server builds its answers with it, and an open page
 * applies a live result the same way; only the weekly charts' own pages load it.
 */
import { addDays } from './dates.js';
import { mondayFirst, partsOf, weekdayOf } from './matka.js';
import type { WeekCell, WeeklyChart } from './schemas/charts.js';
import type { WeeklyKind } from './weekly-chart-pages.js';

/** A result as a weekly cell needs it. */
export interface WeeklyResult {
  Date: string;
  Result: string;
  Corrected: boolean;
}

/**
 * A result's cell: its value in parts. A value of no form of the kind (declared before the ghadi's
 * kind changed) shows whole, as its jodi, and is not taken for an open half.
 */
export function resultCellOf(kind: WeeklyKind, result: WeeklyResult): WeekCell {
  const parts = partsOf(kind, result.Result) ?? {
    Open: '',
    Jodi: result.Result,
    Close: kind === 'open-close' ? '' : null,
  };
  return { Date: result.Date, Result: result.Result, ...parts, Corrected: result.Corrected };
}

/** A weekday's place in a Monday-first week: Monday 0 … Sunday 6. */
const placeOf = (day: number) => (day + 6) % 7;

/** The Monday of a date's week. */
export function mondayOf(date: string): string {
  return addDays(date, -placeOf(weekdayOf(date)));
}

/** The date of weekday `day` in the week that starts on the Monday `from`. */
export function dateInWeek(from: string, day: number): string {
  return addDays(from, placeOf(day));
}

/**
 * The weeks of `year` from the first cell shown to the last, consecutive, each with a cell per
 * running weekday (`days`, Monday first): `shown`'s cell of that date, or null (none, or a date in
 * another year). Dates on other weekdays have no column and do not stretch the range. Nothing
 * shown: no weeks.
 */
export function weeksOf(
  year: number,
  days: readonly number[],
  shown: ReadonlyMap<string, WeekCell>,
): WeeklyChart['weeks'] {
  const prefix = `${year}-`;
  const dates = [...shown.keys()]
    .filter((date) => date.startsWith(prefix) && days.includes(weekdayOf(date)))
    .sort();
  const first = dates[0];
  const last = dates.at(-1);
  if (first === undefined || last === undefined) return [];
  const weeks: WeeklyChart['weeks'] = [];
  for (let from = mondayOf(first); from <= last; from = addDays(from, 7)) {
    const cells = days.map((day) => {
      const date = dateInWeek(from, day);
      return date.startsWith(prefix) ? (shown.get(date) ?? null) : null;
    });
    weeks.push({ from, to: addDays(from, 6), cells });
  }
  return weeks;
}

/**
 * A ghadi's weekly chart of `year` from its results of that year (any order), its holidays (its own
 * and every ghadi's) and the years it has results in. A result declared on a holiday shows instead
 * of the holiday; a result on a weekday the ghadi does not run has no column.
 */
export function weeklyChartOf(
  ghadi: { GID: number; NameEn: string; NameHn: string; Kind: WeeklyKind; Days: readonly number[] },
  year: number,
  results: readonly WeeklyResult[],
  holidays: readonly string[],
  years: readonly number[],
): WeeklyChart {
  const days = mondayFirst(ghadi.Days);
  const shown = new Map<string, WeekCell>();
  for (const date of holidays) shown.set(date, { Date: date, Holiday: true });
  for (const result of results) shown.set(result.Date, resultCellOf(ghadi.Kind, result));
  const { GID, NameEn, NameHn, Kind } = ghadi;
  return { GID, NameEn, NameHn, Kind, year, years: [...years], days, weeks: weeksOf(year, days, shown) };
}

/** The chart with a result set (declared, completed or corrected); the same chart when it has no cell for it. */
export function withWeeklyResult(chart: WeeklyChart, result: WeeklyResult): WeeklyChart {
  if (!result.Date.startsWith(`${chart.year}-`) || !chart.days.includes(weekdayOf(result.Date))) return chart;
  const shown = new Map<string, WeekCell>();
  for (const week of chart.weeks) for (const cell of week.cells) if (cell) shown.set(cell.Date, cell);
  shown.set(result.Date, resultCellOf(chart.Kind, result));
  return { ...chart, weeks: weeksOf(chart.year, chart.days, shown) };
}
