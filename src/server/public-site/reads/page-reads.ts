import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MONTH_CHART_PREFIX, yearChartPath, yearHasChart } from '../../../shared/chart-pages.js';
import {
  DECLARATIONS_PATH,
  DECLARATIONS_PER_PAGE,
  declarationsPageCount,
} from '../../../shared/declaration-log-pages.js';
import { chosenMonth, ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { foldName } from '../../../shared/names.js';
import { inLanguage, LANGUAGES, type Language } from '../../../shared/page-language.js';
import type { PublicPageData } from '../../../shared/public-page-data.js';
import {
  ghadiKey,
  ghadiMonthKey,
  ghadiResultsKey,
  homeKeys,
  LOG_KEY,
  monthEnd,
  TODAY_KEY,
} from '../model/answer-keys.js';
import type { Built } from '../model/kept-entry.js';
import {
  chartedYear,
  monthChartPage,
  monthChartPageParams,
  yearChartPage,
  yearChartPageParams,
} from './chart-page-reads.js';
import { monthChartKey, yearChartKey } from './chart-reads.js';
import { NOTHING_HERE, pageBasics, renderPage } from './page-common.js';
import { punctualityLineOf } from './punctuality-reads.js';
import {
  cachingOf,
  defineRead,
  ghadiNameParams,
  kept,
  noQuery,
  type PublicRead,
  periodCaching,
  type ReadContext,
  type ReadInput,
} from './read-definition.js';

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
  const month = `${chosen.year}-${String(chosen.month).padStart(2, '0')}`;
  // The last 30 days' punctuality shows with the current month alone: older pages stay a closed period's.
  const current = ghadi !== null && month === today.slice(0, 7);
  const punctuality = ghadi && current ? await punctualityLineOf(context, ghadi, language) : null;
  const data: PublicPageData = {
    page: 'results',
    ...pageBasics(model, language, await model.ghadiNames()),
    today,
    version,
    name: params.name,
    ...chosen,
    ghadi,
    results: results ?? null,
    punctuality,
    siteUrl: context.publicUrl,
  };
  const keep = keepable && ghadi !== null;
  const keys = ghadi ? [ghadiKey(ghadi.GID), ghadiMonthKey(ghadi.GID, month)] : [];
  // Its punctuality's keys too (punctualityKeys): a month that holds today names the ghadi and today already.
  if (ghadi && current) keys.push(ghadiResultsKey(ghadi.GID));
  const caching = ghadi ? periodCaching(monthEnd(month), today, keys) : NOTHING_HERE;
  return { answer: await renderPage(context, ghadi ? 200 : 404, data, caching, keep), keep };
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
  const caching = cachingOf([LOG_KEY, TODAY_KEY], true);
  return { answer: await renderPage(context, exists ? 200 : 404, data, caching, keep), keep };
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
      key: () => 'home',
      build: async (_, context) => {
        const data = await context.model.homeData();
        const caching = cachingOf(homeKeys(context.model.today(), data.recordMonth), true);
        return kept(await renderPage(context, 200, { ...data, language }, caching));
      },
    }),

    defineRead({
      path: at('/satta-results/:name'),
      params: ghadiNameParams,
      // Any query is accepted: a month or year the selectors cannot produce shows the current month.
      query: resultsPageQuery,
      access: 'public',
      pageOnly: true,
      // Kept only under the address the site links to (the name folded) and the month shown. Another
      // spelling (other case, hyphens for spaces) is redirected there, and an unknown ghadi's 404 is
      // made for its request alone, so that no one can fill the cache.
      key: ({ params, query }, { model }) => {
        if (params.name !== model.keptName(params.name)) return null;
        const today = model.today();
        const chosen = chosenMonth(today, query.month as string, query.year as string);
        // Months of years with results only (and the current one): a made-up month is made per request.
        const ghadi = model.loadedGhadi(params.name);
        const years = ghadi ? model.loadedPeriods()?.years.get(ghadi.GID) : undefined;
        if (!ghadi || !yearHasChart(chosen.year, years ?? [], today)) return null;
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
      // As the results page: kept under the folded name, and only for a year with a chart.
      key: ({ params }, { model }) => {
        const year = chartedYear(params.year, model.today());
        if (year === null || params.name !== model.keptName(params.name)) return null;
        return yearChartKey(model, params.name, year);
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
      key: ({ params }, { model }) => monthChartKey(model, params.month),
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
      // The newest pages are the ones read and kept; a page further back, or an address no pager
      // links to, is made for its request alone (a crawler walking far back rebuilds only what it asks).
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
