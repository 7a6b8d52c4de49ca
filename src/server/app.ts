import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { checkDeclarationLog, prepareDatabase } from './bootstrap.js';
import type { AppConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { clientAddressOf, clientGroup, trustProxyFunction } from './lib/client-address.js';
import { LoginThrottle } from './lib/login-throttle.js';
import { PasswordHasher } from './lib/passwords.js';
import { PerMinuteLimit } from './lib/per-minute-limit.js';
import { ResponseHeaders, requestIdFrom } from './lib/response-headers.js';
import { TokenService } from './lib/tokens.js';
import { authRoutes } from './modules/auth/auth-routes.js';
import { LoginAttemptsRepository } from './modules/auth/login-attempts-repository.js';
import { SessionService } from './modules/auth/session-service.js';
import { SessionsRepository } from './modules/auth/sessions-repository.js';
import { startChangeBus } from './modules/changes/change-bus.js';
import { ChangeLog } from './modules/changes/change-log.js';
import { ChangeLogRepository } from './modules/changes/change-log-repository.js';
import { ContentBlocksRepository } from './modules/content-blocks/content-blocks-repository.js';
import { contentBlocksRoutes } from './modules/content-blocks/content-blocks-routes.js';
import { ContentBlocksService } from './modules/content-blocks/content-blocks-service.js';
import { DeclarationLog } from './modules/declarations/declaration-log.js';
import { DeclarationsRepository } from './modules/declarations/declarations-repository.js';
import { GhadisRepository } from './modules/ghadis/ghadis-repository.js';
import { ghadisRoutes } from './modules/ghadis/ghadis-routes.js';
import { GhadisService } from './modules/ghadis/ghadis-service.js';
import { healthRoutes } from './modules/health/health-routes.js';
import { ClusterMetrics } from './modules/metrics/cluster-metrics.js';
import { Metrics, type PoolUse, UNMATCHED_ROUTE } from './modules/metrics/metrics.js';
import { metricsRoutes } from './modules/metrics/metrics-routes.js';
import { FastPath, type RouteSeen } from './modules/public-site/fast-path.js';
import { serverWithFastPath } from './modules/public-site/fast-path-server.js';
import { LIVE_EVENTS_DEFAULTS, type LiveEventsOptions } from './modules/public-site/live-events.js';
import { loadPublicPages } from './modules/public-site/page-html.js';
import { PublicData } from './modules/public-site/public-data.js';
import { PUBLIC_READS } from './modules/public-site/public-reads.js';
import { PublicSite } from './modules/public-site/public-site.js';
import { publicLogController, publicSiteRoutes } from './modules/public-site/public-site-routes.js';
import { type ReadContext, ROUTER_OPTIONS } from './modules/public-site/read-definition.js';
import { ResultsCsvRepository } from './modules/results/results-csv-repository.js';
import { ResultsCsvService } from './modules/results/results-csv-service.js';
import { ResultsRepository } from './modules/results/results-repository.js';
import { agentRoutes, resultsRoutes } from './modules/results/results-routes.js';
import { ResultsService } from './modules/results/results-service.js';
import { UsermapsRepository } from './modules/usermaps/usermaps-repository.js';
import { usermapsRoutes } from './modules/usermaps/usermaps-routes.js';
import { UsermapsService } from './modules/usermaps/usermaps-service.js';
import { UsersRepository } from './modules/users/users-repository.js';
import { usersRoutes } from './modules/users/users-routes.js';
import { UsersService } from './modules/users/users-service.js';
import { VISITOR_LIMITS, VisitorCounter } from './modules/visitors/visitor-counter.js';
import { VisitorsRepository } from './modules/visitors/visitors-repository.js';
import { visitorsRoutes } from './modules/visitors/visitors-routes.js';
import { access } from './plugins/access.js';
import { responseHeaders } from './plugins/answer-headers.js';
import { registerErrorHandling } from './plugins/error-handler.js';
import { lenientJsonParser } from './plugins/json-body.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerWebApp } from './plugins/web-app.js';

export interface BuildOptions {
  /** An open database to use instead of the configured one (tests); the caller closes it. */
  database?: Database;
  logger?: boolean;
  /** Serve the built web app beside the API (default true). */
  serveWebApp?: boolean;
  /** Live stream limits other than the defaults (tests: a short lifetime, a small replay). */
  liveEvents?: Partial<LiveEventsOptions>;
  /** The declaration log was written and checked already (by a WORKERS supervisor): skip that here. */
  declarationLogChecked?: boolean;
}

const BODY_LIMIT_BYTES = 1024 * 1024;

/** Every answer Fastify sends, by its route's pattern (the fast path reports its own). */
function countRequests(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** Whether an Origin header names this site: PUBLIC_URL, or without it the host the request was sent to. */
function ownOrigin(publicUrl: string | undefined) {
  return (origin: string, host: string | undefined): boolean =>
    publicUrl ? origin === publicUrl : origin.slice(origin.indexOf('//') + 2) === host;
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const trust = trustProxyFunction(config.trustProxy);
  // The public hot paths are answered from memory before Fastify (public-site/fast-path.ts), which must
  // know every route Fastify has to route exactly as it does.
  let fastPath: FastPath | undefined;
  const routesSeen: RouteSeen[] = [];
  const app = Fastify({
    serverFactory: serverWithFastPath(() => fastPath),
    logger:
      options.logger === false ? false : { level: config.logLevel, redact: ['req.headers.authorization'] },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trust,
    routerOptions: ROUTER_OPTIONS,
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
    logController: publicLogController(),
  });
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routesSeen.push({ method, url: route.url });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  lenientJsonParser(app, BODY_LIMIT_BYTES);
  let appHtml: string | null = null;
  registerErrorHandling(app, { appHtml: () => appHtml });
  const headers = new ResponseHeaders({ publicUrl: config.publicUrl, corsOrigins: config.corsOrigins });
  responseHeaders(app, headers);
  // Sources the metrics read when scraped, set once they exist.
  let openStreams = () => 0;
  let poolUse: () => PoolUse = () => ({ total: 0 });
  const metrics = new Metrics({ openStreams: () => openStreams(), pool: () => poolUse() });
  countRequests(app, metrics);
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await registerOpenApi(app);
  if (!config.publicUrl) {
    app.log.warn(
      "PUBLIC_URL is not set: pages link to themselves relatively and the sitemap names each request's " +
        'own address. Set PUBLIC_URL (e.g. https://results.example) in production.',
    );
  }

  const database = options.database ?? openDatabase(config.database, { poolSize: config.databasePoolSize });
  if (!options.database) {
    app.addHook('onClose', () => {
      app.log.debug('shutdown: closing the database');
      return database.close();
    });
  }
  poolUse = () => database.poolUse();
  const passwords = new PasswordHasher(config.passwordMemoryCost);
  const jwtSecret = await prepareDatabase(database, config, passwords, app.log);

  const changeLogRepository = new ChangeLogRepository(database);
  const changes = new ChangeLog(database, changeLogRepository, app.log);
  await changes.start();
  app.addHook('onClose', () => changes.stop());
  const usersRepository = new UsersRepository(database);
  const ghadisRepository = new GhadisRepository(database);
  const usermapsRepository = new UsermapsRepository(database);
  const tokens = new TokenService(jwtSecret, config.tokenTtlSeconds);

  const sessions = new SessionService({
    sessions: new SessionsRepository(database),
    users: usersRepository,
    attempts: new LoginAttemptsRepository(database),
    throttle: new LoginThrottle(config.loginMaxFailures),
    passwords,
    tokens,
  });
  const users = new UsersService(usersRepository, passwords);
  const ghadis = new GhadisService(ghadisRepository, config.siteTimezone, changes);
  const resultsRepository = new ResultsRepository(database);
  const declarations = new DeclarationLog(database, new DeclarationsRepository(database));
  // A worker's supervisor checked the log before starting it: once per start of the site.
  if (!options.declarationLogChecked) await checkDeclarationLog(declarations, app.log);
  const results = new ResultsService(
    resultsRepository,
    ghadis,
    usermapsRepository,
    config.siteTimezone,
    changes,
    declarations,
    (source) => metrics.declared(source),
  );
  const resultsCsv = new ResultsCsvService({
    csv: new ResultsCsvRepository(database),
    results: resultsRepository,
    changes,
    declarations,
    timeZone: config.siteTimezone,
    onImported: (count) => metrics.declared('import', count),
  });
  const usermaps = new UsermapsService(usermapsRepository, usersRepository);
  const blocks = new ContentBlocksService(new ContentBlocksRepository(database), changes);
  const visitors = new VisitorCounter(
    new VisitorsRepository(database),
    config.visitorFlushMs,
    app.log,
    { ...VISITOR_LIMITS, newSessionsPerAddressPerMinute: config.visitorNewSessionsPerMinute },
    (written) => metrics.visitorFlush(written),
  );
  await visitors.start();
  app.addHook('onClose', () => {
    app.log.debug('shutdown: in-flight requests finished; flushing visitor counts');
    return visitors.stop();
  });

  // Every change in the log drops the public answers it made stale and goes out to open pages.
  const data = new PublicData(ghadis, results, blocks, declarations);
  const publicSite = new PublicSite({
    data,
    changes,
    timeZone: config.siteTimezone,
    log: app.log,
    events: { ...LIVE_EVENTS_DEFAULTS, ...options.liveEvents },
  });
  publicSite.model.onLookup = (route, hit) => metrics.cacheLookup(route, hit);
  openStreams = () => publicSite.events.openStreams;
  publicSite.start();
  // Other processes' writes reach this one through the log too, woken by the bus.
  const bus = await startChangeBus({
    database,
    changes,
    repository: changeLogRepository,
    log: app.log,
    onResync: () => publicSite.resync(),
  });
  app.addHook('onClose', () => bus.stop());
  // Open event streams would keep the server from closing.
  app.addHook('preClose', (done) => {
    app.log.debug({ streams: publicSite.events.openStreams }, 'shutdown: ending live streams');
    publicSite.close();
    done();
  });
  const context: ReadContext = {
    model: publicSite.model,
    pages: options.serveWebApp === false ? null : await loadPublicPages(config.webRoot, app.log),
    publicUrl: config.publicUrl ?? null,
    results,
    declarations,
    headers,
    publicQueries: new PerMinuteLimit(config.publicQueriesPerMinute),
  };

  await app.register(access, { sessions });
  await app.register(authRoutes, { sessions });
  await app.register(usersRoutes, { users });
  await app.register(ghadisRoutes, { ghadis });
  await app.register(resultsRoutes, { results, ghadis, csv: resultsCsv, declarations });
  await app.register(agentRoutes, { results, ghadis });
  await app.register(usermapsRoutes, { usermaps });
  await app.register(contentBlocksRoutes, { blocks });
  await app.register(visitorsRoutes, { visitors });
  await app.register(healthRoutes, { database });
  await app.register(metricsRoutes, {
    metrics: new ClusterMetrics(metrics.registry),
    token: config.metricsToken,
  });
  await app.register(publicSiteRoutes, { reads: PUBLIC_READS, context, site: publicSite });
  if (options.serveWebApp !== false) appHtml = await registerWebApp(app, config.webRoot);
  fastPath = new FastPath({
    reads: PUBLIC_READS,
    routes: routesSeen,
    context,
    isOwnOrigin: ownOrigin(config.publicUrl),
    trackVisit: (sessionId, request) =>
      visitors.track(sessionId, clientGroup(clientAddressOf(request, trust))),
    requestSeries: (method, route, status) => metrics.requestSeries(method, route, status),
  });
  return app;
}
