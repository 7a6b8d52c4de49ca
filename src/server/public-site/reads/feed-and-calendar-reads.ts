import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CALENDAR_PATH } from '../../../shared/ghadi-feed-paths.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { SITE_NAME } from '../../../shared/site.js';
import { ghadiKey, ghadiResultsKey } from '../model/answer-keys.js';
import { type AnswerCaching, type CachedAnswer, prepareFailure } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import { calendarAnswer } from './ghadi-calendar.js';
import { FEED_ENTRIES, type FeedFormat, feedAnswer } from './ghadi-feeds.js';
import {
  cachingOf,
  defineRead,
  ghadiNameParams,
  type LiveAnswer,
  noQuery,
  originOf,
  type PublicRead,
  type ReadContext,
} from './read-definition.js';
import { ONE_ADDRESS } from './site-file-reads.js';

/**
 * The calendars and a ghadi's feeds (docs/api.md, "Feeds and calendars"): files with absolute
 * addresses, so, as the sitemap, they are kept only under PUBLIC_URL and made per request (for that
 * request's own origin, never for a shared cache) without it. A ghadi's files are kept under its
 * folded name, however the address spelled it; an unknown name's 404 is made for its request alone.
 *
 * What they show: a calendar its ghadis' times (a time change drops `ghadi-{GID}`; a ghadi added,
 * renamed or deleted drops the site); a feed its ghadi's log entries (each declaration drops
 * `results-{GID}`).
 */

type NameInput = { params: z.infer<typeof ghadiNameParams> };

/** How a file made for `origin` may be kept: as `caching` under PUBLIC_URL, for that request alone else. */
function cachingFor(context: ReadContext, caching: AnswerCaching): AnswerCaching {
  return context.publicUrl ? caching : ONE_ADDRESS;
}

const notFound = (name: string): Promise<CachedAnswer> =>
  prepareFailure(404, `No data available for ${name}`, cachingOf([], true));

/** Every live ghadi's times. */
async function siteCalendar(context: ReadContext, origin: string, compress: boolean): Promise<CachedAnswer> {
  const ghadis = await context.model.ghadis();
  const caching = cachingFor(
    context,
    cachingOf(
      ghadis.map((ghadi) => ghadiKey(ghadi.GID)),
      true,
    ),
  );
  return calendarAnswer(origin, `${SITE_NAME} – result times`, ghadis, context.model.timeZone, {
    caching,
    compress,
  });
}

/** A file about one ghadi, or the 404 of a name no live ghadi has (never kept). */
async function ghadiFile(
  { params }: NameInput,
  context: ReadContext,
  compress: boolean,
  make: (ghadi: GhadiRecord, compress: boolean) => Promise<CachedAnswer>,
): Promise<Built> {
  const ghadi = await context.model.ghadiNamed(params.name);
  if (!ghadi) return { answer: await notFound(params.name), keep: false };
  return { answer: await make(ghadi, compress), keep: true };
}

function ghadiCalendar(context: ReadContext, origin: string) {
  return (ghadi: GhadiRecord, compress: boolean) =>
    calendarAnswer(origin, `${ghadi.NameEn} – ${SITE_NAME}`, [ghadi], context.model.timeZone, {
      caching: cachingFor(context, cachingOf([ghadiKey(ghadi.GID)], true)),
      compress,
    });
}

function ghadiFeed(context: ReadContext, origin: string, format: FeedFormat) {
  return async (ghadi: GhadiRecord, compress: boolean) => {
    const entries = await context.declarations.newestOfGhadi(ghadi.GID, FEED_ENTRIES);
    const caching = cachingOf([ghadiKey(ghadi.GID), ghadiResultsKey(ghadi.GID)], true);
    return feedAnswer(format, origin, ghadi, entries, context.model.timeZone, {
      caching: cachingFor(context, caching),
      compress,
    });
  };
}

type Maker = (
  context: ReadContext,
  origin: string,
) => (ghadi: GhadiRecord, compress: boolean) => Promise<CachedAnswer>;

/** One ghadi's file: kept under PUBLIC_URL for a live ghadi, else made for the request. */
function ghadiFileRead(file: string, maker: Maker): PublicRead {
  return defineRead({
    path: `/satta-results/:name/${file}`,
    params: ghadiNameParams,
    query: noQuery,
    access: 'public',
    key: ({ params }, { model, publicUrl }) => (publicUrl ? model.keptName(params.name) : null),
    build: (input, context) => ghadiFile(input, context, true, maker(context, context.publicUrl ?? '')),
    live: async (input, context, request: FastifyRequest): Promise<LiveAnswer> => {
      const origin = originOf(request, context);
      return { ready: (await ghadiFile(input, context, false, maker(context, origin))).answer };
    },
  });
}

export const FEED_AND_CALENDAR_READS: readonly PublicRead[] = [
  defineRead({
    path: CALENDAR_PATH,
    query: noQuery,
    access: 'public',
    key: (_, { publicUrl }) => (publicUrl ? 'calendar' : null),
    build: async (_, context) => ({
      answer: await siteCalendar(context, context.publicUrl ?? '', true),
      keep: true,
    }),
    live: async (_, context, request) => ({
      ready: await siteCalendar(context, originOf(request, context), false),
    }),
  }),
  ghadiFileRead('calendar.ics', ghadiCalendar),
  ghadiFileRead('feed.xml', (context, origin) => ghadiFeed(context, origin, 'atom')),
  ghadiFileRead('feed.json', (context, origin) => ghadiFeed(context, origin, 'json')),
];
