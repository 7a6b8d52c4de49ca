import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { yearHasChart } from '../../../shared/chart-pages.js';
import { foldName } from '../../../shared/names.js';
import { inLanguage, LANGUAGES, type Language } from '../../../shared/page-language.js';
import type { PublicPageData } from '../../../shared/public-page-data.js';
import { type WeeklyChart, weeklyChartAnswer, yearChartParams } from '../../../shared/schemas/charts.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import {
  hasWeeklyCharts,
  WEEKLY_VIEWS,
  type WeeklyView,
  weeklyChartPath,
} from '../../../shared/weekly-chart-pages.js';
import { weeklyChartOf } from '../../../shared/weekly-charts.js';
import { ghadiKey, HOLIDAYS_KEY, PERIODS_KEY, yearEnd, yearKey } from '../model/answer-keys.js';
import { type AnswerCaching, encodeJson, prepareFailure } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import type { ReadModel } from '../model/read-model.js';
import { chartedYear, yearChartPageParams } from './chart-page-reads.js';
import { yearChartKey } from './chart-reads.js';
import { notFoundPage, pageBasics, renderPage } from './page-common.js';
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

/*
 * A panna or open/close ghadi's weekly charts: GET /api/charts/{name}/{year}/weeks, and its pages
 * /jodi-chart/{name}/{year} and /panel-chart/{name}/{year} in both languages (one data, two views).
 * Kept as the year chart is: under the ghadi and year, for a year with a chart only.
 */

/**
 * What a weekly chart shows: the ghadi (its names, kind and days), its results and holidays of the
 * year (a holiday drops HOLIDAYS_KEY and the year's key), and the years that have charts (its links).
 */
export function weeklyChartCaching(gid: number, year: number, today: string): AnswerCaching {
  return periodCaching(yearEnd(year), today, [ghadiKey(gid), yearKey(gid, year), HOLIDAYS_KEY, PERIODS_KEY]);
}

/** A chart, or why there is none with the caching of the 404 that says so (what may make one). */
type WeeklyFound =
  | { chart: WeeklyChart; caching: AnswerCaching }
  | { missing: string; caching: AnswerCaching };

const NO_CHART = cachingOf([PERIODS_KEY], true);

const showsResult = (chart: WeeklyChart) =>
  chart.weeks.some((week) => week.cells.some((cell) => cell !== null && 'Result' in cell));

/**
 * A live ghadi's weekly chart of `year`. None for a year without its results (the periods tell for
 * past years; the current one, which they list for every ghadi, by its rows), nor for a jodi ghadi.
 */
async function weeklyChartFor(model: ReadModel, ghadi: GhadiRecord, year: number): Promise<WeeklyFound> {
  const today = model.today();
  const periods = await model.chartPeriods();
  if (!yearHasChart(year, periods.years.get(ghadi.GID) ?? [], today))
    return { missing: `No chart for ${ghadi.NameEn} in ${year}`, caching: NO_CHART };
  // Its kind may change (its key is dropped then).
  if (!hasWeeklyCharts(ghadi.Kind))
    return {
      missing: `${ghadi.NameEn} is a jodi ghadi: it has no weekly charts`,
      caching: cachingOf([ghadiKey(ghadi.GID)], true),
    };
  const caching = weeklyChartCaching(ghadi.GID, year, today);
  const { rows, holidays, years } = await model.ghadiWeeks(ghadi.GID, year);
  const chart = weeklyChartOf({ ...ghadi, Kind: ghadi.Kind }, year, rows, holidays, years);
  return showsResult(chart)
    ? { chart, caching }
    : { missing: `No results of ${ghadi.NameEn} in ${year}`, caching };
}

type WeeksInput = ReadInput<z.infer<typeof yearChartParams>, z.infer<typeof noQuery>>;

async function weeklyChartAnswerOf({ params }: WeeksInput, { model }: ReadContext): Promise<Built> {
  const ghadi = await model.ghadiNamed(params.name);
  if (!ghadi)
    return notKept(await prepareFailure(404, `No chart for ${params.name} in ${params.year}`, NO_CHART));
  const found = await weeklyChartFor(model, ghadi, params.year);
  // A chart that does not exist is made per request, as the year chart's 404.
  if ('missing' in found) return notKept(await prepareFailure(404, found.missing, found.caching));
  return kept(await encodeJson(weeklyChartAnswer, { success: true, data: found.chart }, found.caching));
}

/** A weekly chart page, or the 404 page of an unknown ghadi, a year without a chart, or a jodi ghadi. */
async function weeklyChartPage(
  { params }: ReadInput<z.infer<typeof yearChartPageParams>, unknown>,
  context: ReadContext,
  language: Language,
  view: WeeklyView,
  keepable: boolean,
): Promise<Built> {
  const { model } = context;
  // Before any read: the page's event stream replays what happens after it.
  const version = model.version;
  const year = chartedYear(params.year, model.today());
  const ghadi = year === null ? undefined : await model.ghadiNamed(params.name);
  if (year === null || !ghadi) return notFoundPage(context, language);
  const found = await weeklyChartFor(model, ghadi, year);
  if ('missing' in found) return notFoundPage(context, language, found.caching);
  const data: PublicPageData = {
    page: 'weekly-chart',
    ...pageBasics(model, language, await model.ghadiNames()),
    version,
    view,
    chart: found.chart,
  };
  return { answer: await renderPage(context, 200, data, found.caching, keepable), keep: keepable };
}

/** A request path with its query string kept: a respelled name redirects there with the same query. */
function withQueryOf(request: FastifyRequest, path: string): string {
  const search = request.url.indexOf('?');
  return path + (search === -1 ? '' : request.url.slice(search));
}

function weeklyPageRead(language: Language, view: WeeklyView): PublicRead {
  const at = (path: string) => inLanguage(language, path);
  return defineRead({
    path: at(`/${view}-chart/:name/:year`),
    params: yearChartPageParams,
    query: noQuery,
    access: 'public',
    pageOnly: true,
    // As the year chart's page: kept under the folded name, and only for a year with a chart.
    key: ({ params }, { model }) => {
      const year = chartedYear(params.year, model.today());
      if (year === null || params.name !== model.keptName(params.name)) return null;
      return yearChartKey(model, params.name, year);
    },
    build: (input, context) => weeklyChartPage(input, context, language, view, true),
    live: async (input, context, request) => {
      const year = chartedYear(input.params.year, context.model.today());
      const ghadi = year === null ? null : await context.model.publicGhadi(input.params.name);
      if (ghadi && year !== null && input.params.name !== foldName(ghadi.NameEn))
        return { redirect: withQueryOf(request, at(weeklyChartPath(view, ghadi.NameEn, year))) };
      return { ready: (await weeklyChartPage(input, context, language, view, false)).answer };
    },
  });
}

/** The weekly charts' JSON, and their pages in both views and languages. */
export const WEEKLY_CHART_READS: readonly PublicRead[] = [
  defineRead({
    path: '/api/charts/:name/:year/weeks',
    params: yearChartParams,
    query: noQuery,
    response: weeklyChartAnswer,
    access: 'public',
    // Kept under the ghadi, as its year chart (every spelling of the name is one answer).
    key: ({ params }, { model }) => yearChartKey(model, params.name, params.year),
    build: weeklyChartAnswerOf,
  }),
  ...LANGUAGES.flatMap((language) => WEEKLY_VIEWS.map((view) => weeklyPageRead(language, view))),
];
