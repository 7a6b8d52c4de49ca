import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RouteOptions,
} from 'fastify';
import { EVENTS_PATH } from '../../../shared/public-pages.js';
import { type CachedAnswer, sendCached } from './cached-answer.js';
import type { Origins } from './front-door.js';
import type { LiveEvents } from './live-events.js';
import type { PublicSite } from './public-site.js';

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

/** Options of every public hot route: public, quiet, and no @fastify/compress hooks (answers come compressed). */
const HOT_ROUTE = { compress: false, decompress: false } as const;

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer | Promise<CachedAnswer>,
): FastifyReply | Promise<FastifyReply> {
  return answer instanceof Promise
    ? answer.then((ready) => sendCached(request, reply, ready))
    : sendCached(request, reply, answer);
}

/**
 * Tunes the public routes other modules declare, as they are declared (an onRoute hook; call it
 * before @fastify/compress and the modules are registered):
 * - the reads GET /api/ghadis, GET /api/results, GET /api/results/{name} and
 *   GET /api/contentblocks/slug/{slug} are answered from the public site's memory. Their modules keep
 *   declaring them, so validation, access and documentation stay theirs; only the handler is swapped,
 *   and GET /api/results with an admin token (or a search or page) still reaches the live handler;
 * - those reads and POST /api/visitor/track, GET /api/visitor/stats log quietly and skip compression
 *   hooks (cached answers are compressed already; the visitor answers are tiny).
 */
export function tunePublicRoutes(app: FastifyInstance, currentSite: () => PublicSite): void {
  const site = {
    ghadisAnswer: () => currentSite().ghadisAnswer(),
    resultsAnswer: (month: string | undefined) => currentSite().resultsAnswer(month),
    ghadiResultsAnswer: (name: string, month: number | undefined, year: number | undefined) =>
      currentSite().ghadiResultsAnswer(name, month, year),
    contentAnswer: (slug: string) => currentSite().contentAnswer(slug),
  };
  type Read = (request: FastifyRequest) => CachedAnswer | Promise<CachedAnswer> | null;
  const reads: Record<string, Read> = {
    '/api/ghadis': () => site.ghadisAnswer(),
    '/api/results': (request) => {
      const query = request.query as { month?: string; q?: string; page?: number; limit?: number };
      const plain = query.q === undefined && query.page === undefined && query.limit === undefined;
      return plain && request.user?.userType !== 'admin' ? site.resultsAnswer(query.month) : null;
    },
    '/api/results/:name': (request) => {
      const { name } = request.params as { name: string };
      const { month, year } = request.query as { month?: number; year?: number };
      return site.ghadiResultsAnswer(name, month, year);
    },
    '/api/contentblocks/slug/:slug': (request) =>
      site.contentAnswer((request.params as { slug: string }).slug),
  };

  const quiet = new Set(['POST /api/visitor/track', 'GET /api/visitor/stats', 'HEAD /api/visitor/stats']);

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const read = methods.every((method) => method === 'GET' || method === 'HEAD')
      ? reads[route.url]
      : undefined;
    if (!read && !methods.every((method) => quiet.has(`${method} ${route.url}`))) return;
    Object.assign(route, HOT_ROUTE);
    route.config = { ...route.config, quietLog: true };
    if (!read) return;
    const live = route.handler;
    route.handler = function cachedRead(this: FastifyInstance, request, reply) {
      const answer = read(request);
      return answer === null ? live.call(this, request, reply) : send(request, reply, answer);
    };
  });
}

export interface PublicSiteRouteOptions {
  site: PublicSite;
  events: LiveEvents;
  origins: Origins;
}

/** The server-rendered pages, sitemap, robots.txt and the live event stream. */
export async function publicSiteRoutes(
  app: FastifyInstance,
  { site, events, origins }: PublicSiteRouteOptions,
) {
  const originOf = (request: FastifyRequest) => origins.of(request);
  const page = { ...HOT_ROUTE, config: { access: 'public' as const, quietLog: true } };

  if (site.rendersPages) {
    app.get('/', page, (request, reply) => send(request, reply, site.homePage(originOf(request))));

    app.get('/satta-results/:name', page, (request, reply) => {
      const { name } = request.params as { name: string };
      // Any query is accepted: a month or year the selectors cannot produce shows the current month.
      const { month, year } = request.query as { month?: unknown; year?: unknown };
      return send(request, reply, site.resultsPage(originOf(request), name, month, year));
    });
  }

  app.get('/sitemap.xml', page, (request, reply) => send(request, reply, site.sitemap(originOf(request))));
  app.get('/robots.txt', page, (request, reply) => send(request, reply, site.robots(originOf(request))));

  app.get(EVENTS_PATH, page, (request, reply) => events.open(request, reply));
}
