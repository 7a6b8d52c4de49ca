import type { z } from 'zod';
import { monthChartOf, yearChartOf } from '../../../shared/chart-grids.js';
import { monthHasChart, yearHasChart } from '../../../shared/chart-pages.js';
import {
  monthChartAnswer,
  monthChartParams,
  yearChartAnswer,
  yearChartParams,
} from '../../../shared/schemas/charts.js';
import { ghadiKey, monthEnd, monthKey, PERIODS_KEY, yearEnd, yearKey } from '../model/answer-keys.js';
import { encodeJson, prepareFailure } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import type { ReadModel } from '../model/read-model.js';
import {
  cachingOf,
  defineRead,
  kept,
  noQuery,
  notKept,
  type PublicRead,
  periodCaching,
  type ReadContext,
  type ReadInput,
} from './read-definition.js';

type YearInput = ReadInput<z.infer<typeof yearChartParams>, z.infer<typeof noQuery>>;

/** A chart that does not exist is a 404 made per request: it names the periods, which a result may open. */
const noChart = cachingOf([PERIODS_KEY], true);

/**
 * The key of a ghadi's year chart, when the chart exists (a year with its results, or the current
 * one) and what it takes to tell is in memory; else null (answered for its request alone).
 */
export function yearChartKey(model: ReadModel, name: string, year: number): string | null {
  const ghadi = model.loadedGhadi(name);
  const periods = model.loadedPeriods();
  if (!ghadi || !periods) return null;
  return yearHasChart(year, periods.years.get(ghadi.GID) ?? [], model.today())
    ? `${ghadi.GID}|${year}`
    : null;
}

/** The key of a month chart when the month has one (results, or the current month); else null. */
export function monthChartKey(model: ReadModel, month: string): string | null {
  const periods = model.loadedPeriods();
  return periods && monthHasChart(month, periods.months, model.today()) ? month : null;
}

/** What a year chart shows: the ghadi's year, and the years that have charts (its links). */
export function yearChartCaching(gid: number, year: number, today: string) {
  return periodCaching(yearEnd(year), today, [ghadiKey(gid), yearKey(gid, year), PERIODS_KEY]);
}

/** What a month chart shows: every ghadi's month, and the months that have charts (the page's links). */
export function monthChartCaching(month: string, today: string) {
  return periodCaching(monthEnd(month), today, [monthKey(month), PERIODS_KEY]);
}

async function yearChartAnswerOf({ params }: YearInput, { model }: ReadContext): Promise<Built> {
  const [ghadi, periods] = await Promise.all([model.ghadiNamed(params.name), model.chartPeriods()]);
  const today = model.today();
  if (!ghadi || !yearHasChart(params.year, periods.years.get(ghadi.GID) ?? [], today))
    return notKept(await prepareFailure(404, `No chart for ${params.name} in ${params.year}`, noChart));
  const { rows, years } = await model.ghadiYear(ghadi.GID, params.year);
  return kept(
    await encodeJson(
      yearChartAnswer,
      { success: true, data: yearChartOf(ghadi, params.year, rows, years) },
      yearChartCaching(ghadi.GID, params.year, today),
    ),
  );
}

type MonthInput = ReadInput<z.infer<typeof monthChartParams>, z.infer<typeof noQuery>>;

async function monthChartAnswerOf({ params }: MonthInput, { model }: ReadContext): Promise<Built> {
  const periods = await model.chartPeriods();
  const today = model.today();
  if (!monthHasChart(params.month, periods.months, today))
    return notKept(await prepareFailure(404, `No chart for ${params.month}`, noChart));
  const [ghadis, results] = await Promise.all([model.ghadis(), model.results(params.month)]);
  return kept(
    await encodeJson(
      monthChartAnswer,
      { success: true, data: monthChartOf(params.month, ghadis, results) },
      monthChartCaching(params.month, today),
    ),
  );
}

/**
 * The charts' JSON: a ghadi's year, and every ghadi's month. Only charts that exist are kept; a year
 * or month without results (but the current one) is a 404 made per request.
 */
export const CHART_READS: readonly PublicRead[] = [
  defineRead({
    path: '/api/charts/month/:month',
    params: monthChartParams,
    query: noQuery,
    response: monthChartAnswer,
    access: 'public',
    key: ({ params }, { model }) => monthChartKey(model, params.month),
    build: monthChartAnswerOf,
  }),

  defineRead({
    path: '/api/charts/:name/:year',
    params: yearChartParams,
    query: noQuery,
    response: yearChartAnswer,
    access: 'public',
    // Kept under the ghadi (every spelling, hyphens for spaces too, is one answer).
    key: ({ params }, { model }) => yearChartKey(model, params.name, params.year),
    build: yearChartAnswerOf,
  }),
];
