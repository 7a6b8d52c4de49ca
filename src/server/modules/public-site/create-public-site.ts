import http, { type IncomingMessage, type RequestListener } from 'node:http';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import type { DatabaseHealth } from '../../db/database-health.js';
import type { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import type { ResponseHeaders } from '../../lib/response-headers.js';
import type { ServerTimeouts } from '../../lib/server-timeouts.js';
import type { ChangeLog } from '../changes/change-log.js';
import type { DeclarationLog } from '../declarations/declaration-log.js';
import type { PublicCacheUse } from '../metrics/metrics.js';
import type { ResultsService } from '../results/results-service.js';
import { AnswerCache, type LookupOutcome } from './answer-cache.js';
import { BuildGate, type BuildLimits } from './build-gate.js';
import { type AnswerSeries, FastPath } from './fast-path.js';
import type { RouteSeen } from './fast-path-router.js';
import type { LiveEvents } from './live-event-streams.js';
import { NotFoundAnswers } from './not-found-answers.js';
import type { PublicPages } from './page-html.js';
import type { PublicData } from './public-data.js';
import { PUBLIC_READS } from './public-reads.js';
import { PublicSite } from './public-site.js';
import { answerUnknownAddress, publicSiteRoutes } from './public-site-routes.js';
import { PurgeSender } from './purge-sender.js';
import type { ReadContext } from './read-definition.js';

export interface PublicSiteDependencies {
  data: PublicData;
  changes: ChangeLog;
  results: ResultsService;
  declarations: DeclarationLog;
  /** The open pages' event streams. */
  events: LiveEvents;
  /** The server renderer, or null when the public pages are not built (their reads are not served). */
  pages: PublicPages | null;
  headers: ResponseHeaders;
  timeZone: string;
  /** PUBLIC_URL (an origin), or null. */
  publicUrl: string | null;
  /** Public answers built and not kept (searches, unknown names, deep pages) per client address and minute. */
  publicQueries: PerMinuteLimit;
  /** Bytes the kept answers may take (PUBLIC_CACHE_MB). */
  cacheBytes: number;
  /** The limits on building public answers. */
  buildLimits: BuildLimits;
  /** Where this process's changes are purged (PURGE_URL), or null. */
  purgeUrl: string | null;
  log: FastifyBaseLogger;
  /** Counts a visit, as POST /api/visitor/track does. */
  trackVisit: (sessionId: string, request: IncomingMessage) => void;
  /** The HTTP server's limits on slow clients. */
  timeouts: ServerTimeouts;
  databaseHealth: DatabaseHealth;
  metrics: {
    cacheLookup(route: string, outcome: LookupOutcome): void;
    answerBuilt(route: string, kind: 'reader' | 'rebuild'): void;
    purged(outcome: 'sent' | 'failed'): void;
    requestSeries(method: string, route: string, status: number): AnswerSeries;
  };
}

/** What the app wires in, each part once, in the order Fastify needs it. */
export interface PublicSiteParts {
  /** The read model, the live event streams and the site's clock. */
  site: PublicSite;
  /**
   * Before the server closes (Fastify's preClose): ends the live streams, and from then on answers
   * every request the fast path does not with the API's 503, as Fastify would with its own body.
   */
  close(): void;
  /** Fastify's serverFactory: Node's HTTP server, with the fast path before Fastify's handler. */
  serverFactory: (handler: RequestListener, options: FastifyServerOptions) => http.Server;
  /** Fastify's onRoute hook, added before any route: the fast path must know every route Fastify has. */
  learnRoute: (route: RouteSeen) => void;
  /** The public reads' routes and the live event stream, to register with the other routes. */
  routes: (app: FastifyInstance) => Promise<void>;
  /** The site's 404 page for an address no route serves, or null when the pages are not built. */
  notFoundPage: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | null;
  /** What the kept answers take and how builds are going (the metrics). */
  cacheUse: () => PublicCacheUse;
}

/** Whether an Origin header names this site: PUBLIC_URL, or without it the host the request was sent to. */
function ownOrigin(publicUrl: string | null) {
  return (origin: string, host: string | undefined): boolean =>
    publicUrl ? origin === publicUrl : origin.slice(origin.indexOf('//') + 2) === host;
}

/**
 * Node's HTTP server set up as Fastify sets up its own, with its timeouts (the headers' one Fastify
 * has no option for), and the fast path offered each request before Fastify.
 */
function serverWithFastPath(
  fastPath: FastPath,
  timeouts: ServerTimeouts,
  closing: () => { headers: Record<string, string>; body: Buffer } | null,
) {
  return (handler: RequestListener, options: FastifyServerOptions): http.Server => {
    const server = http.createServer(
      { connectionsCheckingInterval: timeouts.checkEveryMs },
      (request, response) => {
        if (fastPath.serve(request, response)) return;
        const refusal = closing();
        if (refusal) response.writeHead(503, refusal.headers).end(refusal.body);
        else handler(request, response);
      },
    );
    server.keepAliveTimeout = options.keepAliveTimeout ?? timeouts.keepAliveMs;
    server.requestTimeout = options.requestTimeout ?? timeouts.requestMs;
    server.headersTimeout = Math.min(timeouts.headersMs, server.requestTimeout || Number.POSITIVE_INFINITY);
    server.setTimeout(options.connectionTimeout ?? 0);
    return server;
  };
}

const CLOSING_BODY = Buffer.from(
  JSON.stringify({ success: false, message: 'The server is restarting; try again in a moment' }),
);
const CLOSING_HEADERS: Record<string, string> = {
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(CLOSING_BODY.length),
  'cache-control': 'no-store',
  'retry-after': '2',
  connection: 'close',
};

/**
 * The public site, composed in one place: its read model and live events started after the change
 * log's latest entry, the table of public reads (those that need the server renderer only when it is
 * built), and the fast path that answers their built answers before Fastify. ChangeLog.start first.
 */
export function createPublicSite(deps: PublicSiteDependencies): PublicSiteParts {
  const builds = new BuildGate(deps.publicQueries, deps.buildLimits);
  const answers = new AnswerCache(builds, {
    maxBytes: deps.cacheBytes,
    onLookup: (route, outcome) => deps.metrics.cacheLookup(route, outcome),
    onBuild: (route, kind) => deps.metrics.answerBuilt(route, kind),
    databaseUnavailable: () => deps.databaseHealth.unavailable,
    onDatabaseFailure: (error) => deps.databaseHealth.failed(error),
  });
  const site = new PublicSite({
    data: deps.data,
    changes: deps.changes,
    timeZone: deps.timeZone,
    log: deps.log,
    events: deps.events,
    answers,
    purges: deps.purgeUrl
      ? new PurgeSender(deps.purgeUrl, deps.log, { purged: (outcome) => deps.metrics.purged(outcome) })
      : null,
  });
  site.start();
  const reads = PUBLIC_READS.filter((read) => !read.pageOnly || deps.pages);
  const context: ReadContext = {
    model: site.model,
    pages: deps.pages,
    publicUrl: deps.publicUrl,
    results: deps.results,
    declarations: deps.declarations,
    headers: deps.headers,
    builds,
    notFound: new NotFoundAnswers(),
  };
  const fastPath = new FastPath({
    reads,
    context,
    isOwnOrigin: ownOrigin(deps.publicUrl),
    trackVisit: deps.trackVisit,
    requestSeries: (method, route, status) => deps.metrics.requestSeries(method, route, status),
  });
  let closing = false;
  const closingAnswer = { headers: { ...deps.headers.security, ...CLOSING_HEADERS }, body: CLOSING_BODY };
  return {
    site,
    close: () => {
      closing = true;
      site.close();
    },
    serverFactory: serverWithFastPath(fastPath, deps.timeouts, () => (closing ? closingAnswer : null)),
    learnRoute: fastPath.router.learnRoute,
    routes: (app) => publicSiteRoutes(app, { reads, context, site }),
    notFoundPage: deps.pages ? (request, reply) => answerUnknownAddress(context, request, reply) : null,
    cacheUse: () => ({ bytes: answers.bytes, entries: answers.size, building: builds.busy }),
  };
}
