import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { z } from 'zod';
import { EVENTS_PATH, EVENTS_SINCE_PARAM } from '../../../shared/live-events.js';
import { languageOfPath } from '../../../shared/page-language.js';
import { ServiceUnavailableError } from '../../errors.js';
import { clientGroup } from '../../lib/client-address.js';
import type { ChangePublisher } from '../live/change-publisher.js';
import { SITE_KEY } from '../model/answer-keys.js';
import type { CachedAnswer } from '../model/cached-answer.js';
import type { Served } from '../model/kept-entry.js';
import { notFoundPage } from '../reads/page-common.js';
import { cachingOf, type PublicRead, type ReadContext, type ReadInput } from '../reads/read-definition.js';
import { CHANGE_ID_HEADER, cachingHeaders, keyHeaders, sendCached } from './answer-delivery.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A busy public route: no "incoming request" / "request completed" lines (errors still log). */
    quietLog?: boolean;
  }
}

/**
 * Fastify's request log lines cost more than a cached answer; the public hot paths skip them
 * (a reverse proxy's access log is the place for page views). Pass as Fastify's logController.
 */
export function publicLogController(): LogController {
  return new LogController({
    disableRequestLogging: (request) => request.routeOptions.config.quietLog === true,
  });
}

const eventId = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const eventsQuery = z.object({ [EVENTS_SINCE_PARAM]: eventId.optional() });

/** The last event a page has: Last-Event-ID on a reconnect, else the version it was rendered at. */
function lastSeen(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id'];
  if (typeof header === 'string' && header !== '') {
    const parsed = eventId.safeParse(header);
    // An id this server never gave: start over from a resync.
    return parsed.success ? parsed.data : -1;
  }
  return (request.query as z.infer<typeof eventsQuery>)[EVENTS_SINCE_PARAM];
}

/** A client that left while its build waited for a place is owed nothing: nothing is built. */
function stillThere(request: FastifyRequest): void {
  if (request.raw.destroyed || request.raw.socket.destroyed)
    throw new ServiceUnavailableError('The client has gone');
}

/**
 * Sends an answer; `version` is the change id the answer is known to include (a fresh kept answer
 * includes every change so far; one built for this request, those applied when its build began).
 */
function send(
  request: FastifyRequest,
  reply: FastifyReply,
  context: ReadContext,
  served: Served,
  version = context.model.version,
) {
  const { entry } = served;
  const state = { site: context.headers, version, stale: served.stale };
  return sendCached(request, reply, served.answer, state, (encoding) => {
    if (entry) context.model.answers.made(entry, encoding);
  });
}

function sendReady(
  request: FastifyRequest,
  reply: FastifyReply,
  context: ReadContext,
  answer: CachedAnswer,
  version: number,
) {
  return send(request, reply, context, { answer, stale: false, entry: null }, version);
}

/**
 * An answer built for this request alone, through the build gate as an uncached one (an admin's is
 * not limited): the read's `live` answer, or else what its `build` makes, not kept.
 */
async function answerLive(
  read: PublicRead,
  input: ReadInput<unknown, unknown>,
  context: ReadContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const builder = { address: input.admin ? null : clientGroup(request.ip), uncached: true };
  // An admin's answer is theirs alone; the public's may be kept by a shared cache like the others.
  if (input.admin) reply.header('cache-control', 'private, no-store');
  return context.builds.run(builder, async () => {
    stillThere(request);
    // What the answer includes: the changes applied before it is read.
    const version = context.model.version;
    const live = read.live
      ? await read.live(input, context, request)
      : { ready: (await read.build(input, context)).answer };
    if ('ready' in live) return sendReady(request, reply, context, live.ready, version);
    if ('stream' in live) return reply.type('application/json; charset=utf-8').send(live.stream);
    if ('redirect' in live) {
      // The address the site spells a ghadi's pages with changes only with the whole site.
      reply.headers({
        ...cachingHeaders(cachingOf([], true), false),
        ...keyHeaders([SITE_KEY]),
        [CHANGE_ID_HEADER]: String(version),
      });
      return reply.redirect(live.redirect, 301);
    }
    if (!input.admin)
      reply.headers({
        ...cachingHeaders(live.caching, false),
        ...keyHeaders(live.caching.keys),
        [CHANGE_ID_HEADER]: String(version),
      });
    return live.json;
  });
}

/**
 * The site's 404 page for an address no route serves (Fastify's not-found handler calls this for page
 * addresses outside the app's), in the address's language, through the build gate like every other
 * 404 page.
 */
export async function answerUnknownAddress(
  context: ReadContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  return context.builds.run({ address: clientGroup(request.ip), uncached: true }, async () => {
    stillThere(request);
    context.model.rollOverIfDue();
    const path = request.url.split('?')[0] ?? '';
    const version = context.model.version;
    const { answer } = await notFoundPage(context, languageOfPath(path));
    return sendReady(request, reply, context, answer, version);
  });
}

async function answerRead(
  read: PublicRead,
  context: ReadContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const input: ReadInput<unknown, unknown> = {
    params: request.params,
    query: request.query,
    admin: request.user?.userType === 'admin',
  };
  // The date first: a new day drops what it changes before anything is looked up.
  context.model.rollOverIfDue();
  // What keys are made of is read first, rather than answer this request as if it were not kept.
  const reading = context.model.keysReady();
  // Without the database, a key that needs none (the home page's) still finds its last answer.
  if (reading) await reading.catch(() => {});
  const key = read.key(input, context);
  if (key === null) return answerLive(read, input, context, request, reply);
  const builder = { address: clientGroup(request.ip), uncached: false };
  const served = context.model.answers.serve(
    read.path,
    key,
    () => read.build(input, context),
    (build) =>
      context.builds.run(builder, () => {
        stillThere(request);
        return build();
      }),
  );
  return send(request, reply, context, served instanceof Promise ? await served : served);
}

export interface PublicSiteRouteOptions {
  reads: readonly PublicRead[];
  context: ReadContext;
  publisher: ChangePublisher;
}

/** The public reads, generated from their table (reads/read-table.ts), and the live event stream. */
export async function publicSiteRoutes(
  app: FastifyInstance,
  { reads, context, publisher }: PublicSiteRouteOptions,
) {
  for (const read of reads) {
    app.get(
      read.path,
      {
        schema: {
          ...(read.params ? { params: read.params } : {}),
          querystring: read.query,
          ...(read.response ? { response: { 200: read.response, ...read.otherAnswers } } : {}),
        },
        config: { access: read.access, quietLog: true },
        // Cached answers come compressed; only an answer made live (JSON) goes through @fastify/compress.
        ...(read.live ? {} : { compress: false as const, decompress: false as const }),
      },
      (request, reply) => answerRead(read, context, request, reply),
    );
  }

  app.get(
    EVENTS_PATH,
    {
      schema: { querystring: eventsQuery },
      config: { access: 'public', quietLog: true },
      compress: false,
      decompress: false,
    },
    async (request, reply) => {
      const since = lastSeen(request);
      // A page that saw a later event on another process: this one reads the log first.
      if (since !== undefined && since > publisher.events.latestId) await publisher.catchUp();
      publisher.events.open(reply, clientGroup(request.ip), since);
    },
  );
}
