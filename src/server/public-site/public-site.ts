import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
  LogController,
} from 'fastify';
import type { DatabaseHealth } from '../db/database-health.js';
import type { PerMinuteLimit } from '../lib/per-minute-limit.js';
import type { ResponseHeaders } from '../lib/response-headers.js';
import type { ServerTimeouts } from '../lib/server-timeouts.js';
import type { ChangeLog } from '../modules/changes/change-log.js';
import type { ContentBlocksService } from '../modules/content-blocks/content-blocks-service.js';
import type { DeclarationLog } from '../modules/declarations/declaration-log.js';
import type { GhadisService } from '../modules/ghadis/ghadis-service.js';
import type { HolidaysService } from '../modules/holidays/holidays-service.js';
import type { PublicCacheUse } from '../modules/metrics/metrics.js';
import type { ResultsService } from '../modules/results/results-service.js';
import type { Punctuality } from '../modules/stats/punctuality-rule.js';
import type { TransparencyLog } from '../modules/transparency/transparency-log.js';
import type { AnswerSeries } from './edge/fast-path.js';
import { FastPath } from './edge/fast-path.js';
import { ROUTER_OPTIONS, type RouteSeen } from './edge/fast-path-router.js';
import { closingAnswer, fastPathServer } from './edge/fast-path-server.js';
import { answerUnknownAddress, publicLogController, publicSiteRoutes } from './edge/public-routes.js';
import { keepTickObjectShape } from './edge/tick-object-shape.js';
import { ChangePublisher } from './live/change-publisher.js';
import { LIVE_EVENTS_DEFAULTS, LiveEvents, type LiveEventsOptions } from './live/live-event-streams.js';
import { PurgeSender } from './live/purge-sender.js';
import { AnswerCache, type LookupOutcome } from './model/answer-cache.js';
import { BUILD_LIMITS, BuildGate, type BuildLimits } from './model/build-gate.js';
import { SiteSources } from './model/site-sources.js';
import { NotFoundAnswers } from './reads/not-found-answers.js';
import { loadPublicPages } from './reads/page-renderer.js';
import type { ReadContext } from './reads/read-definition.js';
import { PUBLIC_READS } from './reads/read-table.js';

/**
 * The public site: the one file the rest of the server imports from this folder (lint enforces it).
 * Rooms: reads/ (the table of public reads and what builds them: pages, heads, site files, feeds),
 * model/ (the data they are built from, the kept answers, the site's day), live/ (the publisher of
 * changes: caches dropped, events sent, purges), edge/ (the fast path before Fastify, and the routes).
 */
export interface PublicSiteNeeds {
  ghadis: GhadisService;
  holidays: HolidaysService;
  results: ResultsService;
  blocks: ContentBlocksService;
  declarations: DeclarationLog;
  transparency: TransparencyLog;
  punctuality: Punctuality;
  changes: ChangeLog;
  /** The built pages' folder (WEB_ROOT), or null when no pages are served (API-only tests). */
  webRoot: string | null;
  /** Processes that render pages (RENDER_PROCESSES; 0 renders on the event loop). */
  renderProcesses: number;
  headers: ResponseHeaders;
  timeZone: string;
  /** PUBLIC_URL (an origin), or null. */
  publicUrl: string | null;
  /** Public answers built and not kept (searches, unknown names, deep pages) per client address and minute. */
  publicQueries: PerMinuteLimit;
  /** Bytes the kept answers may take (PUBLIC_CACHE_MB). */
  cacheBytes: number;
  /** Limits on building public answers other than the defaults (tests: small ones). */
  buildLimits?: Partial<BuildLimits>;
  /** Live stream limits other than the defaults (tests: a short lifetime, a small replay). */
  liveEvents?: Partial<LiveEventsOptions>;
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
export interface PublicSite {
  /** Fastify's serverFactory: Node's HTTP server, with the fast path before Fastify's handler. */
  serverFactory: (handler: RequestListener, options: FastifyServerOptions) => Server;
  /** Fastify's router options: the fast path's router takes the same. */
  routerOptions: typeof ROUTER_OPTIONS;
  /** Fastify's logController: the busy public routes write no request lines. */
  logController: LogController;
  /** Fastify's onRoute hook, added before any route: the fast path must know every route Fastify has. */
  learnRoute: (route: RouteSeen) => void;
  /** The public reads' routes and the live event stream, to register with the other routes. */
  routes: (app: FastifyInstance) => PromiseLike<unknown>;
  /** The site's 404 page for an address no route serves, or null when the pages are not built. */
  notFoundPage: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | null;
  /** After changes may have been missed (the bus lost its connection): nothing cached is trusted. */
  resync(): void;
  /** Open live event streams (the metrics). */
  openStreams(): number;
  /** What the kept answers take and how builds are going (the metrics). */
  cacheUse(): PublicCacheUse;
  /**
   * Before the server closes (Fastify's preClose): ends the live streams, and from then on answers
   * every request the fast path does not with the API's 503, as Fastify would with its own body.
   */
  close(): void;
  /** After the server closed: stops the page render processes. */
  stopRenderer(): Promise<void>;
}

/** Whether an Origin header names this site: PUBLIC_URL, or without it the host the request was sent to. */
function ownOrigin(publicUrl: string | null) {
  return (origin: string, host: string | undefined): boolean =>
    publicUrl ? origin === publicUrl : origin.slice(origin.indexOf('//') + 2) === host;
}

/**
 * The public site, composed in one place: its read model and live events started after the change
 * log's latest entry, the table of public reads (those that need the server renderer only when it is
 * built), and the fast path that answers their built answers before Fastify. ChangeLog.start first.
 */
export async function createPublicSite(needs: PublicSiteNeeds): Promise<PublicSite> {
  // The fast path's answers stay on V8's fast path only while a tick object lives (decision 0015).
  keepTickObjectShape();
  const pages = needs.webRoot ? await loadPublicPages(needs.webRoot, needs.renderProcesses, needs.log) : null;
  const builds = new BuildGate(needs.publicQueries, { ...BUILD_LIMITS, ...needs.buildLimits });
  const answers = new AnswerCache(builds, {
    maxBytes: needs.cacheBytes,
    onLookup: (route, outcome) => needs.metrics.cacheLookup(route, outcome),
    onBuild: (route, kind) => needs.metrics.answerBuilt(route, kind),
    databaseUnavailable: () => needs.databaseHealth.unavailable,
    onDatabaseFailure: (error) => needs.databaseHealth.failed(error),
  });
  const events = new LiveEvents({ ...LIVE_EVENTS_DEFAULTS, ...needs.liveEvents });
  const publisher = new ChangePublisher({
    sources: new SiteSources(needs.ghadis, needs.results, needs.blocks, needs.declarations, needs.holidays),
    changes: needs.changes,
    timeZone: needs.timeZone,
    log: needs.log,
    events,
    answers,
    purges: needs.purgeUrl
      ? new PurgeSender(needs.purgeUrl, needs.log, { purged: (outcome) => needs.metrics.purged(outcome) })
      : null,
  });
  publisher.start();
  const reads = PUBLIC_READS.filter((read) => !read.pageOnly || pages);
  const context: ReadContext = {
    model: publisher.model,
    pages,
    publicUrl: needs.publicUrl,
    results: needs.results,
    declarations: needs.declarations,
    transparency: needs.transparency,
    punctuality: needs.punctuality,
    headers: needs.headers,
    builds,
    notFound: new NotFoundAnswers(),
  };
  const fastPath = new FastPath({
    reads,
    context,
    isOwnOrigin: ownOrigin(needs.publicUrl),
    trackVisit: needs.trackVisit,
    requestSeries: (method, route, status) => needs.metrics.requestSeries(method, route, status),
  });
  let closing = false;
  const refusal = closingAnswer(needs.headers.security);
  return {
    serverFactory: fastPathServer(fastPath, needs.timeouts, () => (closing ? refusal : null)),
    routerOptions: ROUTER_OPTIONS,
    logController: publicLogController(),
    learnRoute: fastPath.router.learnRoute,
    routes: (app) => publicSiteRoutes(app, { reads, context, publisher }),
    notFoundPage: pages ? (request, reply) => answerUnknownAddress(context, request, reply) : null,
    resync: () => publisher.resync(),
    openStreams: () => events.openStreams,
    cacheUse: () => ({ bytes: answers.bytes, entries: answers.size, building: builds.busy }),
    close: () => {
      closing = true;
      publisher.close();
    },
    stopRenderer: async () => {
      await pages?.close();
    },
  };
}
