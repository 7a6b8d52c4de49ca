import { chartKindOf } from '../../../shared/chart-cell-form.js';
import { monthChartApiPath, yearChartApiPath } from '../../../shared/chart-pages.js';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { MonthChartPageData, YearChartPageData } from '../../../shared/public-page-data.js';
import type { ChartCell, MonthChart, YearChart } from '../../../shared/schemas/charts.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import type { Loaded } from '../../lib/live-updates.js';
import { getJson } from '../../lib/public-fetch.js';

/** A year chart page's data; `removed` once its ghadi is deleted while the page is open. */
export type YearChartState = YearChartPageData & { removed?: boolean };

/**
 * A monthly chart page's data; `stale` when an event says the columns changed in a way it does not
 * carry enough to apply (a new ghadi's results, a new OrderId), so the page reloads the chart.
 */
export type MonthChartState = MonthChartPageData & { stale?: boolean };

/** Public pages show listed, active ghadis only; a deleted one's event carries null. */
function isListed(ghadi: GhadiRecord | null): ghadi is GhadiRecord {
  return ghadi?.isActive === true;
}

function cellOf(result: PublicResultRecord | null): ChartCell {
  return result ? { Result: result.Result, Corrected: result.Corrected } : null;
}

/** Month index (0-11) and day index (0-30) of a YYYY-MM-DD date. */
function place(date: string): [month: number, day: number] {
  return [Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) - 1];
}

/** What a chart shows of a ghadi: its names, and its kind (how its cells read; absent for jodi). */
type Shown = { NameEn: string; NameHn: string; Kind?: GhadiRecord['Kind'] };

function sameNames(shown: Shown, ghadi: GhadiRecord): boolean {
  return (
    shown.NameEn === ghadi.NameEn && shown.NameHn === ghadi.NameHn && (shown.Kind ?? 'jodi') === ghadi.Kind
  );
}

/** `shown` with a ghadi's names and kind as its row now has them. */
function shownAs<T extends Shown>(shown: T, ghadi: GhadiRecord): T {
  const { Kind: _, ...rest } = shown;
  return { ...rest, NameEn: ghadi.NameEn, NameHn: ghadi.NameHn, ...chartKindOf(ghadi.Kind) } as T;
}

function withYearCell(chart: YearChart, date: string, cell: ChartCell): YearChart {
  const [month, day] = place(date);
  const months = chart.months.map((days, index) =>
    index === month ? days.map((value, dayIndex) => (dayIndex === day ? cell : value)) : days,
  );
  return { ...chart, months };
}

/**
 * `years` after a result of `year` was set or removed. A removal can only be told to empty the
 * shown year (the page holds no other year's results), so other years stay listed.
 */
function withYears(chart: YearChart, year: number, declared: boolean): YearChart {
  const listed = chart.years.includes(year);
  if (declared && !listed) return { ...chart, years: [...chart.years, year].sort((a, b) => a - b) };
  const emptied = year === chart.year && chart.months.every((days) => days.every((cell) => cell === null));
  if (!declared && listed && emptied)
    return { ...chart, years: chart.years.filter((shown) => shown !== year) };
  return chart;
}

/** A year chart page's data after a live event; the same object when the event does not concern it. */
export function applyYearChartEvent(data: YearChartState, event: LiveEvent): YearChartState {
  switch (event.kind) {
    case 'result': {
      if (event.gid !== data.chart.GID) return data;
      // Its results are no longer public, but a visitor reading the chart keeps what was shown.
      if (!isListed(event.ghadi)) return data.removed ? data : { ...data, removed: true };
      const year = Number(event.date.slice(0, 4));
      let chart: YearChart = shownAs(data.chart, event.ghadi);
      if (year === chart.year) chart = withYearCell(chart, event.date, cellOf(event.result));
      return { ...data, removed: false, chart: withYears(chart, year, event.result !== null) };
    }
    case 'ghadi': {
      if (event.gid !== data.chart.GID) return data;
      if (!isListed(event.ghadi)) return data.removed ? data : { ...data, removed: true };
      if (!data.removed && sameNames(data.chart, event.ghadi)) return data;
      return { ...data, removed: false, chart: shownAs(data.chart, event.ghadi) };
    }
    case 'day':
      return event.today === data.today ? data : { ...data, today: event.today };
    default:
      return data;
  }
}

function withoutColumn(chart: MonthChart, column: number): MonthChart {
  return {
    ...chart,
    ghadis: chart.ghadis.filter((_, index) => index !== column),
    days: chart.days.map((cells) => cells.filter((_, index) => index !== column)),
  };
}

function renamedColumn(chart: MonthChart, column: number, ghadi: GhadiRecord): MonthChart {
  const shown = chart.ghadis[column];
  if (!shown || sameNames(shown, ghadi)) return chart;
  return {
    ...chart,
    ghadis: chart.ghadis.map((row, index) => (index === column ? shownAs(row, ghadi) : row)),
  };
}

function withMonthCell(chart: MonthChart, column: number, date: string, cell: ChartCell): MonthChart {
  const day = place(date)[1];
  const days = chart.days.map((cells, index) =>
    index === day ? cells.map((value, at) => (at === column ? cell : value)) : cells,
  );
  return { ...chart, days };
}

function needingReload(data: MonthChartState): MonthChartState {
  return data.stale ? data : { ...data, stale: true };
}

/** A monthly chart page's data after a live event; the same object when the event does not concern it. */
export function applyMonthChartEvent(data: MonthChartState, event: LiveEvent): MonthChartState {
  switch (event.kind) {
    case 'result': {
      const column = data.chart.ghadis.findIndex((ghadi) => ghadi.GID === event.gid);
      if (!isListed(event.ghadi))
        return column < 0 ? data : { ...data, chart: withoutColumn(data.chart, column) };
      // A ghadi the page has no column for: its other results of the month are not in the event.
      if (column < 0) return needingReload(data);
      let chart = renamedColumn(data.chart, column, event.ghadi);
      if (event.date.startsWith(`${chart.month}-`))
        chart = withMonthCell(chart, column, event.date, cellOf(event.result));
      return chart === data.chart ? data : { ...data, chart };
    }
    case 'ghadi': {
      const column = data.chart.ghadis.findIndex((ghadi) => ghadi.GID === event.gid);
      if (!isListed(event.ghadi))
        return column < 0 ? data : { ...data, chart: withoutColumn(data.chart, column) };
      if (column < 0) return needingReload(data);
      // The columns carry no OrderId, so an edit that moved the ghadi shows only after a reload;
      // the new name shows at once.
      return { ...needingReload(data), chart: renamedColumn(data.chart, column, event.ghadi) };
    }
    case 'day':
      return event.today === data.today ? data : { ...data, today: event.today };
    default:
      return data;
  }
}

/** The year chart afresh (after a resync, or while the event stream is down). */
export async function reloadYearChart(current: YearChartState): Promise<Loaded<YearChartState>> {
  // A deleted ghadi's chart answers 404: keep what is shown.
  if (current.removed) return { data: current };
  const answer = await getJson<{ data: YearChart }>(
    yearChartApiPath(current.chart.NameEn, current.chart.year),
  );
  return { data: { ...current, chart: answer.data } };
}

/** The monthly chart afresh (after a resync, while the event stream is down, or when it went stale). */
export async function reloadMonthChart(current: MonthChartState): Promise<Loaded<MonthChartState>> {
  const answer = await getJson<{ data: MonthChart }>(monthChartApiPath(current.chart.month));
  return { data: { ...current, stale: false, chart: answer.data } };
}
