import { z } from 'zod';
import { monthChartOf, yearChartOf } from '../../../shared/chart-grids.js';
import { monthHasChart, neighbourMonths, yearCharted, yearHasChart } from '../../../shared/chart-pages.js';
import type { Language } from '../../../shared/page-language.js';
import type { PublicPageData } from '../../../shared/public-page-data.js';
import { SITE_NAME } from '../../../shared/site.js';
import { hasWeeklyCharts } from '../../../shared/weekly-chart-pages.js';
import { PERIODS_KEY } from '../model/answer-keys.js';
import type { Built } from '../model/kept-entry.js';
import { monthChartCaching, yearChartCaching } from './chart-reads.js';
import { notFoundPage, pageBasics, renderPage } from './page-common.js';
import { cachingOf, MAX_PATH_PARAM_LENGTH, type ReadContext, type ReadInput } from './read-definition.js';

/* The chart pages (a ghadi's year, every ghadi's month), as the page table builds them. */

/** Chart pages take any spelling of their parameters: what no chart has is the site's 404 page, not a 400. */
export const yearChartPageParams = z.object({
  name: z.string().min(1).max(MAX_PATH_PARAM_LENGTH),
  year: z.string().max(MAX_PATH_PARAM_LENGTH),
});
export const monthChartPageParams = z.object({ month: z.string().max(MAX_PATH_PARAM_LENGTH) });

/** The year a chart address names, when it is one a chart exists for. */
export function chartedYear(year: string, today: string): number | null {
  const value = /^\d{4}$/.test(year) ? Number(year) : Number.NaN;
  return yearCharted(value, today) ? value : null;
}

/** A ghadi's year chart, or the 404 page of an unknown ghadi or a year without a chart. */
export async function yearChartPage(
  { params }: ReadInput<z.infer<typeof yearChartPageParams>, unknown>,
  context: ReadContext,
  language: Language,
  keepable: boolean,
): Promise<Built> {
  const { model } = context;
  const today = model.today();
  const version = model.version;
  const year = chartedYear(params.year, today);
  const ghadi = year === null ? undefined : await model.ghadiNamed(params.name);
  if (year === null || !ghadi) return notFoundPage(context, language);
  const periods = await model.chartPeriods();
  if (!yearHasChart(year, periods.years.get(ghadi.GID) ?? [], today))
    return notFoundPage(context, language, cachingOf([PERIODS_KEY], true));
  const { rows, years } = await model.ghadiYear(ghadi.GID, year);
  const data: PublicPageData = {
    page: 'year-chart',
    ...pageBasics(model, language, await model.ghadiNames()),
    today,
    version,
    chart: yearChartOf(ghadi, year, rows, years),
    weekly: hasWeeklyCharts(ghadi.Kind),
  };
  const caching = yearChartCaching(ghadi.GID, year, today);
  return { answer: await renderPage(context, 200, data, caching, keepable), keep: keepable };
}

/** Every ghadi's month, or the 404 page of a month without a chart. */
export async function monthChartPage(
  { params }: ReadInput<z.infer<typeof monthChartPageParams>, unknown>,
  context: ReadContext,
  language: Language,
  keepable: boolean,
): Promise<Built> {
  const { model } = context;
  const today = model.today();
  const periods = await model.chartPeriods();
  if (!monthHasChart(params.month, periods.months, today))
    return notFoundPage(context, language, cachingOf([PERIODS_KEY], true));
  const version = model.version;
  const [ghadis, results] = await Promise.all([model.ghadis(), model.results(params.month)]);
  const data: PublicPageData = {
    page: 'month-chart',
    language,
    version,
    siteName: SITE_NAME,
    today,
    timeZone: model.timeZone,
    chart: monthChartOf(params.month, ghadis, results),
    ...neighbourMonths(params.month, periods.months, today),
  };
  const caching = monthChartCaching(params.month, today);
  return { answer: await renderPage(context, 200, data, caching, keepable), keep: keepable };
}
