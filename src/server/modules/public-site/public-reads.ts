import type { z } from 'zod';
import { itemAnswer, listAnswer } from '../../../shared/schemas/common.js';
import { contentBlockRecord, slugParams } from '../../../shared/schemas/content-blocks.js';
import {
  DEFAULT_DECLARATIONS_LIMIT,
  type DeclarationsQuery,
  declarationHeadAnswer,
  declarationsAnswer,
  declarationsQuery,
  MAX_DECLARATIONS_LIMIT,
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
import { BadRequestError } from '../../errors.js';
import { jsonListStream } from '../../lib/json-list-stream.js';
import type { DeclarationLog } from '../declarations/declaration-log.js';
import { encodeJson, prepareFailure } from './cached-answer.js';
import { CHART_READS } from './chart-reads.js';
import { PAGE_READS } from './public-page-reads.js';
import {
  defineRead,
  EVERYTHING,
  ghadiNameParams,
  kept,
  noQuery,
  type PublicRead,
  RESULTS_AND_GHADIS,
  type ReadContext,
  type ReadInput,
} from './read-definition.js';
import type { Built } from './read-model.js';
import { SITE_FILE_READS } from './site-file-reads.js';

const ghadiListAnswer = listAnswer(ghadiRecord);

/** One ghadi's results (a month, a year or the latest), or the 404 of a name no live ghadi has. */
async function ghadiResults(
  { params, query }: ReadInput<z.infer<typeof ghadiNameParams>, z.infer<typeof ghadiResultsQuery>>,
  { model }: ReadContext,
): Promise<Built> {
  const rows = await model.ghadiResults(params.name, query.month, query.year);
  // A known ghadi's answer is kept for every spelling of its name, so it names the ghadi as the site does.
  const name = rows === undefined ? params.name : (model.keptName(params.name) ?? params.name);
  const answer = rows
    ? await encodeJson(ghadiResultsAnswer, { success: true, data: rows })
    : await prepareFailure(404, `No data available for ${name}`);
  return { answer, keep: rows !== undefined };
}

/** A window of the declaration log, with the head it was read up to. */
async function declarationsWindow(query: DeclarationsQuery, declarations: DeclarationLog) {
  // The head first: entries appended meanwhile are then past it, never missing from before it.
  const head = await declarations.head();
  const data = (await declarations.list(query)).filter((entry) => entry.seq <= head.seq);
  return { success: true as const, data, head };
}
const ghadiResultsAnswer = listAnswer(publicResultRecord);
const contentAnswer = itemAnswer(contentBlockRecord);

/** Every public read: the API's here, the charts (chart-reads.ts), then the pages and site files (public-page-reads.ts). */
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
    live: async ({ query, admin }, { results }) => {
      if (admin && query.page === undefined && query.limit === undefined) {
        return { stream: jsonListStream(results.everyAdminRecord(query)) };
      }
      if (!admin && query.limit !== undefined && query.limit > MAX_PUBLIC_LIMIT) {
        throw new BadRequestError(`limit: Must be ${MAX_PUBLIC_LIMIT} or less`);
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
    // Every spelling of a ghadi's name (any case, hyphens for spaces) is one answer, kept under the
    // name as the site spells it. An unknown name's 404 is made for its request alone, so that
    // made-up names cannot fill the cache.
    key: ({ params, query }, { model }) => {
      const name = model.keptName(params.name);
      if (name === null) return null;
      return `${name}|${query.month ?? ''}|${query.year ?? ''}`;
    },
    build: ghadiResults,
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
    // Kept for the pages a reader walks the whole log by (after = a multiple of the default or the
    // largest limit, no filter); any other window is answered for its request alone.
    key: ({ query }) =>
      query.gid === undefined &&
      query.date === undefined &&
      (query.limit === DEFAULT_DECLARATIONS_LIMIT || query.limit === MAX_DECLARATIONS_LIMIT) &&
      query.after % query.limit === 0
        ? `${query.after}|${query.limit}`
        : null,
    build: async ({ query }, { declarations }) =>
      kept(await encodeJson(declarationsAnswer, await declarationsWindow(query, declarations))),
    live: async ({ query }, { declarations }) => ({ json: await declarationsWindow(query, declarations) }),
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
  ...CHART_READS,
  ...PAGE_READS,
  ...SITE_FILE_READS,
];
