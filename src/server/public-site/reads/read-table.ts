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
import { holidayRecord } from '../../../shared/schemas/holidays.js';
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
import type { DeclarationLog } from '../../modules/declarations/declaration-log.js';
import {
  boardKeys,
  contentKey,
  ghadiKey,
  ghadiMonthKey,
  ghadiResultsKey,
  HOLIDAYS_KEY,
  homeKeys,
  LOG_KEY,
  monthEnd,
  monthKey,
  TODAY_KEY,
} from '../model/answer-keys.js';
import { encodeJson, prepareFailure } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import { CHART_READS } from './chart-reads.js';
import { EMBED_READS } from './embed-reads.js';
import { FEED_AND_CALENDAR_READS } from './feed-and-calendar-reads.js';
import { PAGE_READS } from './page-reads.js';
import { PUNCTUALITY_READS } from './punctuality-reads.js';
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
import { RECEIPT_READS } from './receipt-reads.js';
import { SITE_FILE_READS } from './site-file-reads.js';
import { WEEKLY_CHART_READS } from './weekly-chart-reads.js';

const ghadiListAnswer = listAnswer(ghadiRecord);
const ghadiResultsAnswer = listAnswer(publicResultRecord);
const contentAnswer = itemAnswer(contentBlockRecord);
const holidayListAnswer = listAnswer(holidayRecord);

/** The month GET /api/results/{name} shows for a month and year query (each defaults to today's). */
function queriedMonth(today: string, month?: number, year?: number): string {
  return `${year ?? today.slice(0, 4)}-${String(month ?? Number(today.slice(5, 7))).padStart(2, '0')}`;
}

/** One ghadi's results (a month, or all of them), or the 404 of a name no live ghadi has. */
async function ghadiResults(
  { params, query }: ReadInput<z.infer<typeof ghadiNameParams>, z.infer<typeof ghadiResultsQuery>>,
  { model }: ReadContext,
): Promise<Built> {
  const ghadi = await model.ghadiNamed(params.name);
  if (!ghadi) {
    return {
      answer: await prepareFailure(404, `No data available for ${params.name}`, cachingOf([], true)),
      keep: false,
    };
  }
  const rows = await model.ghadiResults(params.name, query.month, query.year);
  const today = model.today();
  const caching =
    query.month === undefined && query.year === undefined
      ? cachingOf([ghadiKey(ghadi.GID), ghadiResultsKey(ghadi.GID)], true)
      : periodCaching(monthEnd(queriedMonth(today, query.month, query.year)), today, [
          ghadiKey(ghadi.GID),
          ghadiMonthKey(ghadi.GID, queriedMonth(today, query.month, query.year)),
        ]);
  // A known ghadi's answer is kept for every spelling of its name, so it names the ghadi as the site does.
  const answer = rows
    ? await encodeJson(ghadiResultsAnswer, { success: true, data: rows }, caching)
    : await prepareFailure(
        404,
        `No data available for ${model.keptName(params.name) ?? params.name}`,
        caching,
      );
  return { answer, keep: true };
}

/** A window of the declaration log, with the head it was read up to. */
async function declarationsWindow(query: DeclarationsQuery, declarations: DeclarationLog) {
  // The head first: entries appended meanwhile are then past it, never missing from before it.
  const head = await declarations.head();
  const data = (await declarations.list(query)).filter((entry) => entry.seq <= head.seq);
  return { success: true as const, data, head };
}

/** Every public read: the API's here, the charts (chart-reads.ts), then the pages and site files (public-page-reads.ts). */
export const PUBLIC_READS: readonly PublicRead[] = [
  defineRead({
    path: '/api/ghadis',
    query: noQuery,
    response: ghadiListAnswer,
    access: 'public',
    key: () => 'all',
    build: async (_, { model }) =>
      kept(
        await encodeJson(
          ghadiListAnswer,
          { success: true, data: await model.ghadis() },
          cachingOf(boardKeys(model.today()), true),
        ),
      ),
  }),

  defineRead({
    path: '/api/results',
    query: resultListQuery,
    response: resultListAnswer,
    access: 'optional',
    // The public's month lists and newest page are cached; searches, other pages and everything an
    // admin asks are answered live, and the public's are limited per client address.
    key: ({ query, admin }) =>
      admin || query.q !== undefined || query.page !== undefined || query.limit !== undefined
        ? null
        : (query.month ?? 'newest'),
    build: async ({ query }, { model, results }) => {
      if (query.month) {
        return kept(
          await encodeJson(
            resultListAnswer,
            { success: true, data: await model.results(query.month) },
            periodCaching(monthEnd(query.month), model.today(), [monthKey(query.month)]),
          ),
        );
      }
      return kept(
        await encodeJson(
          resultListAnswer,
          { success: true, ...(await results.page({}, false, MAX_PUBLIC_LIMIT)) },
          cachingOf([LOG_KEY], true),
        ),
      );
    },
    live: async ({ query, admin }, { results }) => {
      if (admin && query.page === undefined && query.limit === undefined) {
        return { stream: jsonListStream(results.everyAdminRecord(query)) };
      }
      if (!admin && query.limit !== undefined && query.limit > MAX_PUBLIC_LIMIT) {
        throw new BadRequestError(`limit: Must be ${MAX_PUBLIC_LIMIT} or less`);
      }
      // Any result may show in a search or a page of the list.
      return {
        json: { success: true, ...(await results.page(query, admin, MAX_PUBLIC_LIMIT)) },
        caching: cachingOf([LOG_KEY], true),
      };
    },
  }),

  defineRead({
    path: '/api/results/:name',
    params: ghadiNameParams,
    query: ghadiResultsQuery,
    response: ghadiResultsAnswer,
    access: 'public',
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
    path: '/api/holidays',
    query: noQuery,
    response: holidayListAnswer,
    access: 'public',
    key: () => 'all',
    build: async (_, { model }) =>
      kept(
        await encodeJson(
          holidayListAnswer,
          { success: true, data: await model.holidays() },
          cachingOf([HOLIDAYS_KEY], true),
        ),
      ),
  }),

  defineRead({
    path: '/api/contentblocks/slug/:slug',
    params: slugParams,
    query: noQuery,
    response: contentAnswer,
    access: 'public',
    // Kept under the slug as stored (lower case) for an active block only: an unknown slug's 404 is
    // made per request, so that made-up slugs cannot fill the cache.
    key: ({ params }, { model }) => model.keptSlug(params.slug),
    build: async ({ params }, { model }) => {
      // Read first, so that the next request for a known slug finds its key.
      const slugs = await model.activeSlugs();
      const slug = params.slug.toLowerCase();
      const block = slugs.has(slug) ? await model.content(slug) : null;
      const caching = cachingOf([contentKey(slug)], true);
      return block
        ? kept(await encodeJson(contentAnswer, { success: true, data: block }, caching))
        : { answer: await prepareFailure(404, 'Content block not found', caching), keep: false };
    },
  }),

  defineRead({
    path: '/api/declarations',
    query: declarationsQuery,
    response: declarationsAnswer,
    access: 'public',
    // Kept for the pages a reader walks the whole log by (after = a multiple of the default or the
    // largest limit, no filter) up to the log's head; any other window is answered for its request
    // alone.
    key: ({ query }, { model }) => {
      const head = model.loadedHead();
      return head !== undefined &&
        query.after <= head.seq &&
        query.gid === undefined &&
        query.date === undefined &&
        (query.limit === DEFAULT_DECLARATIONS_LIMIT || query.limit === MAX_DECLARATIONS_LIMIT) &&
        query.after % query.limit === 0
        ? `${query.after}|${query.limit}`
        : null;
    },
    build: async ({ query }, { model, declarations }) => {
      const window = await declarationsWindow(query, declarations);
      await model.declarationHead();
      // A full window of the log never changes (only a ghadi's new name, which drops the whole site).
      const full =
        query.gid === undefined && query.date === undefined && query.after + query.limit <= window.head.seq;
      return kept(
        await encodeJson(
          declarationsAnswer,
          window,
          full ? cachingOf([], false) : cachingOf([LOG_KEY], true),
        ),
      );
    },
    live: async ({ query }, { model, declarations }) => {
      // The head read here is what keeps the next request's window.
      await model.declarationHead();
      return { json: await declarationsWindow(query, declarations), caching: cachingOf([LOG_KEY], true) };
    },
  }),

  defineRead({
    path: '/api/declarations/head',
    query: noQuery,
    response: declarationHeadAnswer,
    access: 'public',
    key: () => 'head',
    build: async (_, { declarations }) =>
      kept(
        await encodeJson(
          declarationHeadAnswer,
          { success: true, ...(await declarations.head()) },
          cachingOf([LOG_KEY], true),
        ),
      ),
  }),

  defineRead({
    path: '/api/home',
    query: noQuery,
    response: homeAnswer,
    access: 'public',
    key: () => 'home',
    build: async (_, { model }) => {
      const data = await model.homeData();
      return kept(
        await encodeJson(
          homeAnswer,
          { success: true, data },
          cachingOf(homeKeys(model.today(), data.recordMonth), true),
        ),
      );
    },
  }),

  defineRead({
    path: '/api/site',
    query: noQuery,
    response: siteInfo,
    access: 'public',
    key: () => 'site',
    build: async (_, { model }) =>
      kept(
        await encodeJson(
          siteInfo,
          { success: true, siteName: SITE_NAME, timeZone: model.timeZone, today: model.today() },
          cachingOf([TODAY_KEY], true),
        ),
      ),
  }),
  ...CHART_READS,
  ...WEEKLY_CHART_READS,
  ...PUNCTUALITY_READS,
  ...RECEIPT_READS,
  ...PAGE_READS,
  ...EMBED_READS,
  ...SITE_FILE_READS,
  ...FEED_AND_CALENDAR_READS,
];
