import { z } from 'zod';
import { DECLARATIONS_PER_PAGE, FEED_PATH } from '../../../shared/declaration-log-pages.js';
import { LOG_KEY, PERIODS_KEY, TODAY_KEY } from '../model/answer-keys.js';
import { type AnswerCaching, prepareFailure } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import { declarationFeed } from './declaration-feed.js';
import {
  cachingOf,
  defineRead,
  kept,
  noQuery,
  originOf,
  type PublicRead,
  type ReadContext,
} from './read-definition.js';
import { robotsTxt, SITEMAP_PATH, type SitemapContents, sitemapAnswer } from './site-files.js';

/**
 * A part's number as the index names it: no leading zero, so that each part has one address.
 * Six digits reach 50 billion addresses.
 */
const sitemapPartParams = z.object({
  part: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, 'Must be a part number (1, 2, …)')
    .transform(Number),
});

/**
 * Parts kept, each up to 50 000 addresses; further ones, which only a site of hundreds of thousands
 * of pages has, are made per request. Their 404s are kept too: the keys are as few as the parts.
 */
const KEPT_PARTS = 4;

/** The sitemap lists the pages that exist: the periods with results and the current ones. */
const SITEMAP_CACHING = cachingOf([PERIODS_KEY, TODAY_KEY], true);
const FEED_CACHING = cachingOf([LOG_KEY, TODAY_KEY], true);
/** robots.txt changes only with PUBLIC_URL, which a restart takes. */
const ROBOTS_CACHING = cachingOf([], false);
/**
 * Without PUBLIC_URL the files name each request's own address: for that request alone, never for a
 * shared cache that may not key its copies by Host.
 */
export const ONE_ADDRESS = { ...cachingOf([], true), shared: false } as const;

/** The feed's entries: the latest page of the log. */
async function feedOf(context: ReadContext, origin: string, compress = true, caching = FEED_CACHING) {
  const head = await context.declarations.head();
  const entries = await context.declarations.newestFirstPage(head, 1, DECLARATIONS_PER_PAGE);
  return declarationFeed(
    origin,
    entries,
    { timeZone: context.model.timeZone, today: context.model.today() },
    { caching, compress },
  );
}

async function contentsOf({ model, pages }: ReadContext): Promise<SitemapContents> {
  const [ghadis, periods] = await Promise.all([model.ghadis(), model.chartPeriods()]);
  return { ghadis, periods, withPages: pages !== null, today: model.today() };
}

/** The file, or the 404 of a part the sitemap does not have (a site small enough for one file has none). */
async function sitemapFileOf(
  context: ReadContext,
  origin: string,
  part: number | null,
  compress: boolean,
  caching: AnswerCaching = SITEMAP_CACHING,
): Promise<Built> {
  const options = { caching, compress };
  const answer = await sitemapAnswer(origin, await contentsOf(context), part, options);
  return {
    answer: answer ?? (await prepareFailure(404, `The sitemap has no part ${part}`, caching)),
    keep: true,
  };
}

/**
 * The site's files: /sitemap.xml and, past one file's limits, its parts; the declaration feed; robots.txt.
 * The sitemap and its parts: Without PUBLIC_URL they name each request's
 * own origin, so they are made per request. A result may begin a chart's year or month, and the day
 * may begin another (every answer is dropped then).
 */
export const SITE_FILE_READS: readonly PublicRead[] = [
  defineRead({
    path: SITEMAP_PATH,
    query: noQuery,
    access: 'public',
    key: (_, { publicUrl }) => (publicUrl ? 'sitemap' : null),
    build: (_, context) => sitemapFileOf(context, context.publicUrl ?? '', null, true),
    live: async (_, context, request) => ({
      ready: (await sitemapFileOf(context, originOf(request, context), null, false, ONE_ADDRESS)).answer,
    }),
  }),

  defineRead({
    path: '/sitemap/:part.xml',
    params: sitemapPartParams,
    query: noQuery,
    access: 'public',
    key: ({ params }, { publicUrl }) => (publicUrl && params.part <= KEPT_PARTS ? String(params.part) : null),
    build: ({ params }, context) => sitemapFileOf(context, context.publicUrl ?? '', params.part, true),
    live: async ({ params }, context, request) => ({
      ready: (
        await sitemapFileOf(
          context,
          originOf(request, context),
          params.part,
          false,
          context.publicUrl ? SITEMAP_CACHING : ONE_ADDRESS,
        )
      ).answer,
    }),
  }),

  defineRead({
    path: FEED_PATH,
    query: noQuery,
    access: 'public',
    // Without PUBLIC_URL the feed names each request's own origin, so it is made per request.
    key: (_, { publicUrl }) => (publicUrl ? 'feed' : null),
    build: async (_, context) => kept(await feedOf(context, context.publicUrl ?? '')),
    live: async (_, context, request) => ({
      ready: await feedOf(context, originOf(request, context), false, ONE_ADDRESS),
    }),
  }),

  defineRead({
    path: '/robots.txt',
    query: noQuery,
    access: 'public',
    key: (_, { publicUrl }) => (publicUrl ? 'robots' : null),
    build: async (_, { publicUrl }) => kept(await robotsTxt(publicUrl ?? '', { caching: ROBOTS_CACHING })),
    live: async (_, context, request) => ({
      ready: await robotsTxt(originOf(request, context), { caching: ONE_ADDRESS, compress: false }),
    }),
  }),
];
