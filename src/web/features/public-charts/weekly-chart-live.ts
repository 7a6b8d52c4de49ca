import type { LiveEvent } from '../../../shared/live-events.js';
import type { WeeklyChartPageData } from '../../../shared/public-page-data.js';
import type { WeeklyChart } from '../../../shared/schemas/charts.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { weeklyChartApiPath } from '../../../shared/weekly-chart-pages.js';
import { withWeeklyResult } from '../../../shared/weekly-charts.js';
import type { Loaded } from '../../lib/live-updates.js';
import { getJson } from '../../lib/public-fetch.js';

/**
 * A weekly chart page's data: `removed` once its ghadi is deleted while the page is open; `stale`
 * when an event says what the page cannot apply by itself (a result removed, which may uncover a
 * holiday; the ghadi's kind or days changed), so the page loads the chart afresh.
 */
export type WeeklyChartState = WeeklyChartPageData & { removed?: boolean; stale?: boolean };

/** Whether the ghadi's kind or running days are no longer the chart's (its columns, its cells' parts). */
function reshaped(chart: WeeklyChart, ghadi: GhadiRecord): boolean {
  const days = [...chart.days].sort((a, b) => a - b);
  return ghadi.Kind !== chart.Kind || ghadi.Days.join() !== days.join();
}

function renamed(chart: WeeklyChart, ghadi: GhadiRecord): WeeklyChart {
  const { NameEn, NameHn } = ghadi;
  return NameEn === chart.NameEn && NameHn === chart.NameHn ? chart : { ...chart, NameEn, NameHn };
}

const needingReload = (data: WeeklyChartState): WeeklyChartState =>
  data.stale ? data : { ...data, stale: true };

const removed = (data: WeeklyChartState): WeeklyChartState =>
  data.removed ? data : { ...data, removed: true };

/**
 * A weekly chart page's data after a live event; the same object when the event does not concern it.
 * A declared open half, its close, and a correction each fill in their cell at once. A holiday
 * added or removed comes as a resync, which reloads the chart.
 */
export function applyWeeklyChartEvent(data: WeeklyChartState, event: LiveEvent): WeeklyChartState {
  switch (event.kind) {
    case 'result': {
      if (event.gid !== data.chart.GID) return data;
      // Its results are no longer public, but a visitor reading the chart keeps what was shown.
      if (event.ghadi?.isActive !== true) return removed(data);
      if (event.result === null || reshaped(data.chart, event.ghadi)) return needingReload(data);
      const { result } = event;
      const chart = withWeeklyResult(renamed(data.chart, event.ghadi), {
        Date: result.Date,
        Result: result.Result,
        Corrected: result.Corrected,
      });
      const year = Number(result.Date.slice(0, 4));
      const years = chart.years.includes(year) ? chart.years : [...chart.years, year].sort((a, b) => a - b);
      return { ...data, removed: false, chart: years === chart.years ? chart : { ...chart, years } };
    }
    case 'ghadi': {
      if (event.gid !== data.chart.GID) return data;
      if (event.ghadi?.isActive !== true) return removed(data);
      if (reshaped(data.chart, event.ghadi)) return needingReload(data);
      const chart = renamed(data.chart, event.ghadi);
      return chart === data.chart && !data.removed ? data : { ...data, removed: false, chart };
    }
    case 'day':
      return event.today === data.today ? data : { ...data, today: event.today };
    default:
      return data;
  }
}

/** The chart afresh (after a resync, while the event stream is down, or when it went stale). */
export async function reloadWeeklyChart(current: WeeklyChartState): Promise<Loaded<WeeklyChartState>> {
  // A deleted ghadi's chart answers 404: keep what is shown.
  if (current.removed) return { data: current };
  const answer = await getJson<{ data: WeeklyChart }>(
    weeklyChartApiPath(current.chart.NameEn, current.chart.year),
  );
  return { data: { ...current, stale: false, chart: answer.data } };
}
