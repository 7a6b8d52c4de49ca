import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { monthChartOf, yearChartOf } from '../../../shared/chart-grids.js';
import { MONTH_CHART_PREFIX, monthCharted, yearCharted, yearChartPath } from '../../../shared/chart-pages.js';
import {
  DECLARATIONS_PATH,
  DECLARATIONS_PER_PAGE,
  declarationsPageCount,
} from '../../../shared/declaration-log-pages.js';
import { chosenMonth, ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { foldName } from '../../../shared/names.js';
import { inLanguage, LANGUAGES, type Language } from '../../../shared/page-language.js';
import type { GhadiNames, PublicPageData } from '../../../shared/public-page-data.js';
import { SITE_NAME } from '../../../shared/site.js';
import { isDatabaseUnavailable } from '../../db/database-errors.js';
import {
  defineRead,
  EVERYTHING,
  ghadiNameParams,
  kept,
  MAX_PATH_PARAM_LENGTH,
  noQuery,
  type PublicRead,
  RESULTS_AND_GHADIS,
  type ReadContext,
  type ReadInput,
} from './read-definition.js';
import type { Built, ReadModel } from './read-model.js';

function renderPage(context: ReadContext, status: number, data: PublicPageData, compress = true) {
  if (!context.pages) throw new Error('The public pages are not built');
  return context.pages.page(status, data, context.publicUrl, compress);
}

/** What the pages' data shares: the language, the site's name, day and zone, and the ticker's ghadis. */
function pageBasics(model: ReadModel, language: Language, ghadiNames: GhadiNames[]) {
  return { language, siteName: SITE_NAME, today: model.today(), timeZone: model.timeZone, ghadiNames };
}

/** The site's 404 page in a language, made for its request alone (never compressed nor kept). */
export async function notFoundPage(context: ReadContext, language: Language): Promise<Built> {
  const { model } = context;
  // A page that says there is nothing here needs no data: without the database it goes without them.
  const ghadiNames = await Promise.resolve(model.ghadiNames()).catch((error: unknown) => {
    if (isDatabaseUnavailable(error)) return [];
    throw error;
  });
  const data: PublicPageData = { page: 'not-found', ...pageBasics(model, language, ghadiNames) };
  return { answer: await renderPage(context, 404, data, false), keep: false };
}

/** A request path with its query string kept: a respelled name redirects there with the same query. */
function withQueryOf(request: FastifyRequest, path: string): string {
  const search = request.url.indexOf('?');
  return path + (search === -1 ? '' : request.url.slice(search));
}

/** The page number an address asks for (none: the first); null for anything the pager never links to. */
function pageNumberOf(value: unknown): number | null {
  if (value === undefined) return 1;
  return typeof value === 'string' && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

const resultsPageQuery = z.object({ month: z.unknown().optional(), year: z.unknown().optional() });

/** A ghadi's month page, or the 404 page of a name no live ghadi has (never compressed nor kept). */
async function resultsPage(
  { params, query }: ReadInput<z.infer<typeof ghadiNameParams>, z.infer<typeof resultsPageQuery>>,
  context: ReadContext,
  language: Language,
  keepable: boolean,
): Promise<Built> {
  const { model } = context;
  const today = model.today();
  const chosen = chosenMonth(today, query.month as string, query.year as string);
  const version = model.version;
  const ghadi = await model.publicGhadi(params.name);
  const results = ghadi ? await model.ghadiResults(params.name, chosen.month, chosen.year) : null;
  const data: PublicPageData = {
    page: 'results',
    ...pageBasics(model, language, await model.ghadiNames()),
    today,
    version,
    name: params.name,
    ...chosen,
    ghadi,
    results: results ?? null,
  };
  const keep = keepable && ghadi !== null;
  return { answer: await renderPage(context, ghadi ? 200 : 404, data, keep), keep };
}

/** The declaration log's pages kept; the rest are made per request. */
const KEPT_DECLARATION_PAGES = 20;

/** A page of the declaration log, or the 404 page of one past its end (never compressed nor kept). */
async function declarationsPage(
  query: { page?: unknown },
  context: ReadContext,
  language: Language,
  keepable: boolean,
): Promise<Built> {
  const { model, declarations } = context;
  // The head first: the page then shows exactly the entries up to the head it names.
  const head = await declarations.head();
  const pageCount = declarationsPageCount(head.seq);
  const pageNumber = pageNumberOf(query.page) ?? 0;
  const exists = pageNumber >= 1 && pageNumber <= pageCount;
  const data: PublicPageData = {
    page: 'declarations',
    ...pageBasics(model, language, await model.ghadiNames()),
    head,
    entries: exists ? await declarations.newestFirstPage(head, pageNumber, DECLARATIONS_PER_PAGE) : [],
    pageNumber,
    pageCount,
  };
  const keep = keepable && exists;
  return { answer: await renderPage(context, exists ? 200 : 404, data, keep), keep };
}

/** Chart pages take any spelling of their parameters: what no chart has is the site's 404 page, not a 400. */
const yearChartPageParams = z.object({
  name: z.string().min(1).max(MAX_PATH_PARAM_LENGTH),
  year: z.string().max(MAX_PATH_PARAM_LENGTH),
});
const monthChartPageParams = z.object({ month: z.string().max(MAX_PATH_PARAM_LENGTH) });

/** The year a chart address names, when it is one a chart exists for. */
function chartedYear(year: string, today: string): number | null {
  const value = /^\d{4}$/.test(year) ? Number(year) : Number.NaN;
  return yearCharted(value, today) ? value : null;
}

/** A ghadi's year chart, or the 404 page of an unknown ghadi or a year without a chart. */
async function yearChartPage(
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
  const { rows, years } = await model.ghadiYear(ghadi.GID, year);
  const data: PublicPageData = {
    page: 'year-chart',
    ...pageBasics(model, language, await model.ghadiNames()),
    today,
    version,
    chart: yearChartOf(ghadi, year, rows, years),
  };
  return { answer: await renderPage(context, 200, data, keepable), keep: keepable };
}

/** Every ghadi's month, or the 404 page of a month without a chart. */
async function monthChartPage(
  { params }: ReadInput<z.infer<typeof monthChartPageParams>, unknown>,
  context: ReadContext,
  language: Language,
  keepable: boolean,
): Promise<Built> {
  const { model } = context;
  const today = model.today();
  if (!monthCharted(params.month, today)) return notFoundPage(context, language);
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
  };
  return { answer: await renderPage(context, 200, data, keepable), keep: keepable };
}

/**
 * The server-rendered pages in one language: English at the site's addresses, Hindi under /hi.
 * Each language's reads are their own entries, so each keeps its own answers.
 */
function pageReads(language: Language): PublicRead[] {
  const at = (path: string) => inLanguage(language, path);
  return [
    defineRead({
      path: at('/'),
      query: noQuery,
      access: 'public',
      pageOnly: true,
      dependsOn: EVERYTHING,
      maxKept: 1,
      key: () => 'home',
      build: async (_, context) =>
        kept(await renderPage(context, 200, { ...(await context.model.homeData()), language })),
    }),

    defineRead({
      path: at('/satta-results/:name'),
      params: ghadiNameParams,
      // Any query is accepted: a month or year the selectors cannot produce shows the current month.
      query: resultsPageQuery,
      access: 'public',
      pageOnly: true,
      dependsOn: RESULTS_AND_GHADIS,
      maxKept: 1000,
      // Kept only under the address the site links to (the name folded) and the month shown. Another
      // spelling (other case, hyphens for spaces) is redirected there, and an unknown ghadi's 404 is
      // made for its request alone, so that no one can fill the cache.
      key: ({ params, query }, { model }) => {
        if (params.name !== model.keptName(params.name)) return null;
        const chosen = chosenMonth(model.today(), query.month as string, query.year as string);
        return `${params.name}|${chosen.year}-${chosen.month}`;
      },
      build: (input, context) => resultsPage(input, context, language, true),
      live: async (input, context, request) => {
        const ghadi = await context.model.publicGhadi(input.params.name);
        if (ghadi && input.params.name !== foldName(ghadi.NameEn))
          return { redirect: withQueryOf(request, at(ghadiPagePath(ghadi.NameEn))) };
        return { ready: (await resultsPage(input, context, language, false)).answer };
      },
    }),

    defineRead({
      path: at('/satta-results/:name/:year'),
      params: yearChartPageParams,
      query: noQuery,
      access: 'public',
      pageOnly: true,
      dependsOn: RESULTS_AND_GHADIS,
      maxKept: 2000,
      // As the results page: kept under the folded name and a charted year only.
      key: ({ params }, { model }) => {
        const year = chartedYear(params.year, model.today());
        if (year === null || params.name !== model.keptName(params.name)) return null;
        return `${params.name}|${year}`;
      },
      build: (input, context) => yearChartPage(input, context, language, true),
      live: async (input, context, request) => {
        const year = chartedYear(input.params.year, context.model.today());
        const ghadi = year === null ? null : await context.model.publicGhadi(input.params.name);
        if (ghadi && year !== null && input.params.name !== foldName(ghadi.NameEn))
          return { redirect: withQueryOf(request, at(yearChartPath(ghadi.NameEn, year))) };
        return { ready: (await yearChartPage(input, context, language, false)).answer };
      },
    }),

    defineRead({
      path: at(`${MONTH_CHART_PREFIX}:month`),
      params: monthChartPageParams,
      query: noQuery,
      access: 'public',
      pageOnly: true,
      dependsOn: RESULTS_AND_GHADIS,
      maxKept: 400,
      key: ({ params }, { model }) => (monthCharted(params.month, model.today()) ? params.month : null),
      build: (input, context) => monthChartPage(input, context, language, true),
      live: async (input, context) => ({
        ready: (await monthChartPage(input, context, language, false)).answer,
      }),
    }),

    defineRead({
      path: at(DECLARATIONS_PATH),
      query: z.object({ page: z.unknown().optional() }),
      access: 'public',
      pageOnly: true,
      // A ghadi's new name shows in every entry of it.
      dependsOn: RESULTS_AND_GHADIS,
      // The newest pages are the ones read and kept; a page further back, or an address no pager
      // links to, is made for its request alone (a crawler walking far back rebuilds only what it asks).
      maxKept: KEPT_DECLARATION_PAGES,
      key: ({ query }) => {
        const pageNumber = pageNumberOf(query.page);
        return pageNumber === null || pageNumber > KEPT_DECLARATION_PAGES ? null : String(pageNumber);
      },
      build: ({ query }, context) => declarationsPage(query, context, language, true),
      live: async ({ query }, context) => ({
        ready: (await declarationsPage(query, context, language, false)).answer,
      }),
    }),
  ];
}

/** The server-rendered pages in both languages. */
export const PAGE_READS: readonly PublicRead[] = LANGUAGES.flatMap(pageReads);
