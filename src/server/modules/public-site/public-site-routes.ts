import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { z } from 'zod';
import { EVENTS_PATH, EVENTS_SINCE_PARAM } from '../../../shared/live-events.js';
import { languageOfPath } from '../../../shared/page-language.js';
import { ServiceUnavailableError } from '../../errors.js';
import { clientGroup } from '../../lib/client-address.js';
import { sendCached } from './cached-answer.js';
import { notFoundPage } from './public-page-reads.js';
import type { PublicSite } from './public-site.js';
import type { PublicRead, ReadContext, ReadInput } from './read-definition.js';
import type { Built } from './read-model.js';

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

/**
 * An answer built for this request alone, through the uncached builds' gate (admins pass by it): the
 * read's `live` answer, or else what its `build` makes, not kept.
 */
async function answerLive(
  read: PublicRead,
  input: ReadInput<unknown, unknown>,
  context: ReadContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const release = input.admin ? null : await context.uncachedBuilds.admit(clientGroup(request.ip));
  try {
    // A client that left while its build waited for a place is owed nothing: nothing is built.
    if (request.raw.destroyed || request.raw.socket.destroyed)
      throw new ServiceUnavailableError('The client has gone');
    const live = read.live
      ? await read.live(input, context, request)
      : { ready: (await read.build(input, context)).answer };
    if ('ready' in live) return sendCached(request, reply, live.ready, context.headers);
    if ('stream' in live) return reply.type('application/json; charset=utf-8').send(live.stream);
    if ('redirect' in live) return reply.redirect(live.redirect, 301);
    return live.json;
  } finally {
    release?.();
  }
}

/**
 * The site's 404 page for an address no route serves (Fastify's not-found handler calls this for page
 * addresses outside the app's), in the address's language. Made per request, never kept, and through
 * the uncached builds' gate like every other 404 page.
 */
export async function answerUnknownAddress(
  context: ReadContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const release = await context.uncachedBuilds.admit(clientGroup(request.ip));
  try {
    if (request.raw.destroyed || request.raw.socket.destroyed)
      throw new ServiceUnavailableError('The client has gone');
    const path = request.url.split('?')[0] ?? '';
    const { answer } = await notFoundPage(context, languageOfPath(path));
    return sendCached(request, reply, answer, context.headers);
  } finally {
    release();
  }
}

function answerRead(read: PublicRead, context: ReadContext, request: FastifyRequest, reply: FastifyReply) {
  const input: ReadInput<unknown, unknown> = {
    params: request.params,
    query: request.query,
    admin: request.user?.userType === 'admin',
  };
  const key = read.key(input, context);
  if (key === null) return answerLive(read, input, context, request, reply);
  const built = context.model.answer(read, key, () => read.build(input, context));
  const send = (ready: Built) => sendCached(request, reply, ready.answer, context.headers);
  return built instanceof Promise ? built.then(send) : send(built);
}

export interface PublicSiteRouteOptions {
  reads: readonly PublicRead[];
  context: ReadContext;
  site: PublicSite;
}

/** The public reads, generated from their table (public-reads.ts), and the live event stream. */
export async function publicSiteRoutes(
  app: FastifyInstance,
  { reads, context, site }: PublicSiteRouteOptions,
) {
  for (const read of reads) {
    app.get(
      read.path,
      {
        schema: {
          ...(read.params ? { params: read.params } : {}),
          querystring: read.query,
          ...(read.response ? { response: { 200: read.response } } : {}),
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
      if (since !== undefined && since > site.events.latestId) await site.catchUp();
      site.events.open(reply, clientGroup(request.ip), since);
    },
  );
}
