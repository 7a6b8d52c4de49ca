import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { chosenMonth, type PublicPageData, type ResultsPageData } from '../../../shared/public-pages.js';
import { itemAnswer, listAnswer } from '../../../shared/schemas/common.js';
import { contentBlockRecord, slugParams } from '../../../shared/schemas/content-blocks.js';
import {
  declarationHeadAnswer,
  declarationsAnswer,
  declarationsQuery,
} from '../../../shared/schemas/declarations.js';
import { ghadiRecord } from '../../../shared/schemas/ghadis.js';
import { homeAnswer } from '../../../shared/schemas/home.js';
import {
  ghadiResultsQuery,
  MAX_PUBLIC_LIMIT,
  publicResultRecord,
  resultListAnswer,
  resultListQuery,
} from '../../../shared/schemas/results.js';
import { SITE_NAME, siteInfo } from '../../../shared/site.js';
import { BadRequestError, TooManyRequestsError } from '../../errors.js';
import { clientGroup } from '../../lib/client-address.js';
import { jsonListStream } from '../../lib/json-list-stream.js';
import { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import { type CachedAnswer, encodeJson, prepareFailure } from './cached-answer.js';
import { defineRead, MAX_PATH_PARAM_LENGTH, type PublicRead, type ReadContext } from './read-definition.js';
import type { Built } from './read-model.js';
import { robotsTxt, sitemapXml } from './site-files.js';

const kept = (answer: CachedAnswer): Built => ({ answer, keep: true });
const noQuery = z.object({});
const RESULTS_AND_GHADIS = ['result', 'ghadi'] as const;
const EVERYTHING = ['result', 'ghadi', 'content'] as const;

/** What the site's own addresses are prefixed with in files that need absolute URLs. */
function originOf(request: FastifyRequest, context: ReadContext): string {
  return context.publicUrl ?? `${request.protocol}://${request.host}`;
}

function renderPage(context: ReadContext, status: number, data: PublicPageData, compress = true) {
  if (!context.pages) throw new Error('The public pages are not built');
  return context.pages.page(status, data, context.publicUrl, compress);
}

const ghadiNameParams = z.object({ name: z.string().min(1).max(MAX_PATH_PARAM_LENGTH) });

const ghadiListAnswer = listAnswer(ghadiRecord);
const ghadiResultsAnswer = listAnswer(publicResultRecord);
const contentAnswer = itemAnswer(contentBlockRecord);

export const PUBLIC_READS: readonly PublicRead[] = [
  defineRead({
    path: '/api/ghadis',
    query: noQuery,
    response: ghadiListAnswer,
    access: 'public',
    dependsOn: RESULTS_AND_GHADIS,
    maxKept: 1,
    key: () => 'all',
    build: async (_, { model }) =>
      kept(await encodeJson(ghadiListAnswer, { success: true, data: await model.ghadis() })),
  }),

  defineRead({
    path: '/api/results',
    query: resultListQuery,
    response: resultListAnswer,
    access: 'optional',
    dependsOn: RESULTS_AND_GHADIS,
    maxKept: 24,
    // The public's month lists and newest page are cached; searches, other pages and everything an
    // admin asks are answered live, and the public's are limited per client address.
    key: ({ query, admin }) =>
      admin || query.q !== undefined || query.page !== undefined || query.limit !== undefined
        ? null
        : (query.month ?? 'newest'),
    build: async ({ query }, { model, results }) =>
      kept(
        await encodeJson(resultListAnswer, {
          success: true,
          ...(query.month
            ? { data: await model.results(query.month) }
            : await results.page({}, false, MAX_PUBLIC_LIMIT)),
        }),
      ),
    live: async ({ query, admin }, { results, publicQueries }, request) => {
      if (admin && query.page === undefined && query.limit === undefined) {
        return { stream: jsonListStream(results.everyAdminRecord(query)) };
      }
      if (!admin) {
        if (query.limit !== undefined && query.limit > MAX_PUBLIC_LIMIT) {
          throw new BadRequestError(`limit: Must be ${MAX_PUBLIC_LIMIT} or less`);
        }
        if (!publicQueries.take(clientGroup(request.ip))) {
          throw new TooManyRequestsError(
            'Too many searches from your address; try again in a minute',
            PerMinuteLimit.secondsToNextMinute(),
          );
        }
      }
      return { json: { success: true, ...(await results.page(query, admin, MAX_PUBLIC_LIMIT)) } };
    },
  }),

  defineRead({
    path: '/api/results/:name',
    params: ghadiNameParams,
    query: ghadiResultsQuery,
    response: ghadiResultsAnswer,
    access: 'public',
    dependsOn: RESULTS_AND_GHADIS,
    maxKept: 2000,
    key: ({ params, query }) => `${params.name}|${query.month ?? ''}|${query.year ?? ''}`,
    build: async ({ params, query }, { model }) => {
      const rows = await model.ghadiResults(params.name, query.month, query.year);
      const answer = rows
        ? await encodeJson(ghadiResultsAnswer, { success: true, data: rows })
        : await prepareFailure(404, `No data available for ${params.name}`);
      // Unknown names are not kept, so that made-up names cannot fill the cache.
      return { answer, keep: rows !== undefined };
    },
  }),

  defineRead({
    path: '/api/contentblocks/slug/:slug',
    params: slugParams,
    query: noQuery,
    response: contentAnswer,
    access: 'public',
    dependsOn: ['content'],
    maxKept: 200,
    key: ({ params }) => params.slug,
    build: async ({ params }, { model }) => {
      const block = await model.content(params.slug);
      return kept(
        block
          ? await encodeJson(contentAnswer, { success: true, data: block })
          : await prepareFailure(404, 'Content block not found'),
      );
    },
  }),

  defineRead({
    path: '/api/declarations',
    query: declarationsQuery,
    response: declarationsAnswer,
    access: 'public',
    // A ghadi's new name shows in every entry of it.
    dependsOn: RESULTS_AND_GHADIS,
    maxKept: 200,
    key: ({ query }) => `${query.after}|${query.limit}|${query.gid ?? ''}|${query.date ?? ''}`,
    build: async ({ query }, { declarations }) => {
      // The head first: entries appended meanwhile are then past it, never missing from before it.
      const head = await declarations.head();
      const data = (await declarations.list(query)).filter((entry) => entry.seq <= head.seq);
      return kept(await encodeJson(declarationsAnswer, { success: true, data, head }));
    },
  }),

  defineRead({
    path: '/api/declarations/head',
    query: noQuery,
    response: declarationHeadAnswer,
    access: 'public',
    dependsOn: ['result'],
    maxKept: 1,
    key: () => 'head',
    build: async (_, { declarations }) =>
      kept(await encodeJson(declarationHeadAnswer, { success: true, ...(await declarations.head()) })),
  }),

  defineRead({
    path: '/api/home',
    query: noQuery,
    response: homeAnswer,
    access: 'public',
    dependsOn: EVERYTHING,
    maxKept: 1,
    key: () => 'home',
    build: async (_, { model }) =>
      kept(await encodeJson(homeAnswer, { success: true, data: await model.homeData() })),
  }),

  defineRead({
    path: '/api/site',
    query: noQuery,
    response: siteInfo,
    access: 'public',
    dependsOn: [],
    maxKept: 1,
    key: () => 'site',
    build: async (_, { model }) =>
      kept(
        await encodeJson(siteInfo, {
          success: true,
          siteName: SITE_NAME,
          timeZone: model.timeZone,
          today: model.today(),
        }),
      ),
  }),

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
    query: z.object({ month: z.unknown().optional(), year: z.unknown().optional() }),
    access: 'public',
    pageOnly: true,
    dependsOn: RESULTS_AND_GHADIS,
    maxKept: 1000,
    key: ({ params, query }, { model }) => {
      const chosen = chosenMonth(model.today(), query.month as string, query.year as string);
      return `${params.name}|${chosen.year}-${chosen.month}`;
    },
    build: async ({ params, query }, context) => {
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
        ...chosen,
        ghadi,
        results: results ?? null,
      };
      // An unknown ghadi's 404 page is made for its request alone, so that no one can fill the cache.
      const known = ghadi !== null;
      return { answer: await renderPage(context, known ? 200 : 404, data, known), keep: known };
    },
  }),

  defineRead({
    path: '/sitemap.xml',
    query: noQuery,
    access: 'public',
    dependsOn: ['ghadi'],
    maxKept: 1,
    // Without PUBLIC_URL the file names each request's own origin, so it is made per request.
    key: (_, { publicUrl }) => (publicUrl ? 'sitemap' : null),
    build: async (_, { model, publicUrl }) => kept(await sitemapXml(publicUrl ?? '', await model.ghadis())),
    live: async (_, context, request) => ({
      ready: await sitemapXml(originOf(request, context), await context.model.ghadis(), false),
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
