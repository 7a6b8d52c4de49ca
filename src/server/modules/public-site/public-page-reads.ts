import { z } from 'zod';
import {
  DECLARATIONS_PATH,
  DECLARATIONS_PER_PAGE,
  declarationsPageCount,
  FEED_PATH,
} from '../../../shared/declaration-log-pages.js';
import { chosenMonth, ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { foldName } from '../../../shared/names.js';
import type {
  DeclarationsPageData,
  PublicPageData,
  ResultsPageData,
} from '../../../shared/public-page-data.js';
import type { DeclarationEntry, DeclarationHead } from '../../../shared/schemas/declarations.js';
import { SITE_NAME } from '../../../shared/site.js';
import type { DeclarationLog } from '../declarations/declaration-log.js';
import { declarationFeed } from './declaration-feed.js';
import {
  defineRead,
  EVERYTHING,
  ghadiNameParams,
  kept,
  noQuery,
  originOf,
  type PublicRead,
  RESULTS_AND_GHADIS,
  type ReadContext,
  type ReadInput,
} from './read-definition.js';
import type { Built } from './read-model.js';
import { robotsTxt, sitemapXml } from './site-files.js';

function renderPage(context: ReadContext, status: number, data: PublicPageData, compress = true) {
  if (!context.pages) throw new Error('The public pages are not built');
  return context.pages.page(status, data, context.publicUrl, compress);
}

/** The page number an address asks for (none: the first); null for anything the pager never links to. */
function pageNumberOf(value: unknown): number | null {
  if (value === undefined) return 1;
  return typeof value === 'string' && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

/**
 * Page `pageNumber` of the log up to `head`, newest first. Counted back from the head (seq has no
 * gaps), so entries appended after it was read shift no page, and each read is by the seq index.
 */
async function logPage(
  declarations: DeclarationLog,
  head: DeclarationHead,
  pageNumber: number,
): Promise<DeclarationEntry[]> {
  const newest = head.seq - (pageNumber - 1) * DECLARATIONS_PER_PAGE;
  const after = Math.max(0, newest - DECLARATIONS_PER_PAGE);
  if (newest <= after) return [];
  return (await declarations.list({ after, limit: newest - after })).reverse();
}

/** The feed's entries: the latest page of the log. */
async function feedOf(context: ReadContext, origin: string, compress = true) {
  const head = await context.declarations.head();
  const entries = await logPage(context.declarations, head, 1);
  return declarationFeed(
    origin,
    entries,
    { timeZone: context.model.timeZone, today: context.model.today() },
    compress,
  );
}

const resultsPageQuery = z.object({ month: z.unknown().optional(), year: z.unknown().optional() });

/** A ghadi's month page, or the 404 page of a name no live ghadi has (never compressed nor kept). */
async function resultsPage(
  { params, query }: ReadInput<z.infer<typeof ghadiNameParams>, z.infer<typeof resultsPageQuery>>,
  context: ReadContext,
  keepable: boolean,
): Promise<Built> {
  const { model } = context;
  const today = model.today();
  const chosen = chosenMonth(today, query.month as string, query.year as string);
  const version = model.version;
  const ghadi = await model.publicGhadi(params.name);
  const results = ghadi ? await model.ghadiResults(params.name, chosen.month, chosen.year) : null;
  const data: ResultsPageData = {
    page: 'results',
    version,
    siteName: SITE_NAME,
    name: params.name,
    today,
    timeZone: model.timeZone,
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
  keepable: boolean,
): Promise<Built> {
  const { model, declarations } = context;
  // The head first: the page then shows exactly the entries up to the head it names.
  const head = await declarations.head();
  const pageCount = declarationsPageCount(head.seq);
  const pageNumber = pageNumberOf(query.page) ?? 0;
  const exists = pageNumber >= 1 && pageNumber <= pageCount;
  const data: DeclarationsPageData = {
    page: 'declarations',
    siteName: SITE_NAME,
    today: model.today(),
    timeZone: model.timeZone,
    head,
    entries: exists ? await logPage(declarations, head, pageNumber) : [],
    pageNumber,
    pageCount,
  };
  const keep = keepable && exists;
  return { answer: await renderPage(context, exists ? 200 : 404, data, keep), keep };
}

/** The server-rendered pages and the site's files (sitemap, robots, feed); the API's reads are in public-reads.ts. */
export const PAGE_READS: readonly PublicRead[] = [
  defineRead({
    path: '/',
    query: noQuery,
    access: 'public',
    pageOnly: true,
    dependsOn: EVERYTHING,
    maxKept: 1,
    key: () => 'home',
    build: async (_, context) => kept(await renderPage(context, 200, await context.model.homeData())),
  }),

  defineRead({
    path: '/satta-results/:name',
    params: ghadiNameParams,
    // Any query is accepted: a month or year the selectors cannot produce shows the current month.
    query: resultsPageQuery,
    access: 'public',
    pageOnly: true,
    dependsOn: RESULTS_AND_GHADIS,
    maxKept: 1000,
    // Kept only under the address the site links to (the name folded) and the month shown. Another
    // spelling is redirected there, and an unknown ghadi's 404 is made for its request alone, so that
    // no one can fill the cache.
    key: ({ params, query }, { model }) => {
      if (params.name !== foldName(params.name) || model.isUnknownGhadi(params.name)) return null;
      const chosen = chosenMonth(model.today(), query.month as string, query.year as string);
      return `${params.name}|${chosen.year}-${chosen.month}`;
    },
    build: (input, context) => resultsPage(input, context, true),
    live: async (input, context, request) => {
      const ghadi = await context.model.publicGhadi(input.params.name);
      if (ghadi && input.params.name !== foldName(input.params.name)) {
        const search = request.url.indexOf('?');
        return { redirect: ghadiPagePath(ghadi.NameEn) + (search === -1 ? '' : request.url.slice(search)) };
      }
      return { ready: (await resultsPage(input, context, false)).answer };
    },
  }),

  defineRead({
    path: DECLARATIONS_PATH,
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
    build: ({ query }, context) => declarationsPage(query, context, true),
    live: async ({ query }, context) => ({ ready: (await declarationsPage(query, context, false)).answer }),
  }),

  defineRead({
    path: FEED_PATH,
    query: noQuery,
    access: 'public',
    dependsOn: RESULTS_AND_GHADIS,
    maxKept: 1,
    // Without PUBLIC_URL the feed names each request's own origin, so it is made per request.
    key: (_, { publicUrl }) => (publicUrl ? 'feed' : null),
    build: async (_, context) => kept(await feedOf(context, context.publicUrl ?? '')),
    live: async (_, context, request) => ({
      ready: await feedOf(context, originOf(request, context), false),
    }),
  }),

  defineRead({
    path: '/sitemap.xml',
    query: noQuery,
    access: 'public',
    dependsOn: ['ghadi'],
    maxKept: 1,
    // Without PUBLIC_URL the file names each request's own origin, so it is made per request.
    key: (_, { publicUrl }) => (publicUrl ? 'sitemap' : null),
    build: async (_, { model, publicUrl, pages }) =>
      kept(await sitemapXml(publicUrl ?? '', await model.ghadis(), pages !== null)),
    live: async (_, context, request) => ({
      ready: await sitemapXml(
        originOf(request, context),
        await context.model.ghadis(),
        context.pages !== null,
        false,
      ),
    }),
  }),

  defineRead({
    path: '/robots.txt',
    query: noQuery,
    access: 'public',
    dependsOn: [],
    maxKept: 1,
    key: (_, { publicUrl }) => (publicUrl ? 'robots' : null),
    build: async (_, { publicUrl }) => kept(await robotsTxt(publicUrl ?? '')),
    live: async (_, context, request) => ({ ready: await robotsTxt(originOf(request, context), false) }),
  }),
];
