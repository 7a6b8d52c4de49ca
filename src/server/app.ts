import compress from '@fastify/compress';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import pino from 'pino';
import { checkDeclarationLog, prepareDatabase } from './bootstrap.js';
import type { AppConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { clientAddressOf, clientGroup, trustProxyFunction } from './lib/client-address.js';
import { type Now, systemNow } from './lib/clock.js';
import { LoginThrottle } from './lib/login-throttle.js';
import { PasswordHasher } from './lib/passwords.js';
import { PerMinuteLimit } from './lib/per-minute-limit.js';
import { ResponseHeaders, requestIdFrom } from './lib/response-headers.js';
import { SERVER_TIMEOUTS, type ServerTimeouts } from './lib/server-timeouts.js';
import { SigningKeys, TokenService } from './lib/tokens.js';
import { ActivityRecorder } from './modules/activity/activity-recorder.js';
import { ActivityRepository } from './modules/activity/activity-repository.js';
import { activityRoutes } from './modules/activity/activity-routes.js';
import { ActivityService } from './modules/activity/activity-service.js';
import { AssignmentsRepository } from './modules/assignments/assignments-repository.js';
import { assignmentsRoutes } from './modules/assignments/assignments-routes.js';
import { AssignmentsService } from './modules/assignments/assignments-service.js';
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
import { IdempotencyKeys } from './modules/idempotency/idempotency-keys.js';
import { IdempotencyKeysRepository } from './modules/idempotency/idempotency-keys-repository.js';
import { ClusterMetrics } from './modules/metrics/cluster-metrics.js';
import { Metrics, UNMATCHED_ROUTE } from './modules/metrics/metrics.js';
import { metricsRoutes } from './modules/metrics/metrics-routes.js';
import { ResultsCsvRepository } from './modules/results/results-csv-repository.js';
import { ResultsCsvService } from './modules/results/results-csv-service.js';
import { ResultsRepository } from './modules/results/results-repository.js';
import { agentRoutes, resultsRoutes } from './modules/results/results-routes.js';
import { ResultsService } from './modules/results/results-service.js';
import { SettingsRepository } from './modules/settings/settings-repository.js';
import { ensureStoredKey } from './modules/settings/signing-key-store.js';
import { DailyStats } from './modules/stats/daily-stats.js';
import { DailyStatsRepository } from './modules/stats/daily-stats-repository.js';
import { GhadiStats } from './modules/stats/ghadi-stats.js';
import { GhadiStatsRepository } from './modules/stats/ghadi-stats-repository.js';
import { statsRoutes } from './modules/stats/stats-routes.js';
import { TodayRepository } from './modules/today/today-repository.js';
import { todayRoutes } from './modules/today/today-routes.js';
import { TodayService } from './modules/today/today-service.js';
import { LastSeen } from './modules/users/last-seen.js';
import { LastSeenRepository } from './modules/users/last-seen-repository.js';
import { UsersRepository } from './modules/users/users-repository.js';
import { usersRoutes } from './modules/users/users-routes.js';
import { UsersService } from './modules/users/users-service.js';
import { VISITOR_LIMITS, VisitorCounter } from './modules/visitors/visitor-counter.js';
import { VisitorsRepository } from './modules/visitors/visitors-repository.js';
import { visitorsRoutes } from './modules/visitors/visitors-routes.js';
import { access } from './plugins/access.js';
import { registerErrorHandling } from './plugins/error-handler.js';
import { lenientJsonParser } from './plugins/json-body.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerResponseHeaders } from './plugins/response-headers-plugin.js';
import { readAppHtml, registerWebApp } from './plugins/web-app.js';
import { createPublicSite, type PublicSite, type PublicSiteNeeds } from './public-site/public-site.js';

export interface BuildOptions {
  /** An open database to use instead of the configured one (tests); the caller closes it. */
  database?: Database;
  logger?: boolean;
  /** Serve the built web app beside the API (default true). */
  serveWebApp?: boolean;
  /** Live stream limits other than the defaults (tests: a short lifetime, a small replay). */
  liveEvents?: PublicSiteNeeds['liveEvents'];
  /** The declaration log was written and checked already (by a WORKERS supervisor): skip that here. */
  declarationLogChecked?: boolean;
  /** The clock of the limits and throttles (tests move it forward instead of waiting). */
  now?: Now;
  /** The HTTP server's limits on slow clients other than the defaults (tests: short ones). */
  serverTimeouts?: Partial<ServerTimeouts>;
  /** The limits on building public answers other than the defaults (tests: small ones). */
  buildLimits?: PublicSiteNeeds['buildLimits'];
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

/**
 * The whole site, in the order it starts: the database and the services over it, the public site
 * (which answers its busiest reads before Fastify, so it exists before Fastify does), then Fastify
 * with its hooks, plugins and routes. Closing the app closes what was started here.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const log: FastifyBaseLogger = pino({
    level: options.logger === false ? 'silent' : config.logLevel,
    redact: ['req.headers.authorization'],
  });
  const trust = trustProxyFunction(config.trustProxy);
  const now = options.now ?? systemNow;
  const timeouts = { ...SERVER_TIMEOUTS, ...options.serverTimeouts };

  const database =
    options.database ??
    openDatabase(config.database, {
      poolSize: config.databasePoolSize,
      deadlineMs: config.databaseDeadlineMs,
    });
  database.health.logTo(log);
  const passwords = new PasswordHasher(config.passwordMemoryCost);
  const signingKey = await prepareDatabase(database, config, passwords, log).catch(async (error: unknown) => {
    // The first query found no database: what this start opened is closed before it fails.
    if (!options.database) await database.close().catch(() => {});
    throw error;
  });
  const signingKeys = config.jwtSecret
    ? SigningKeys.fixed(config.jwtSecret)
    : SigningKeys.stored(signingKey, () => ensureStoredKey(database));
  const changeLogRepository = new ChangeLogRepository(database);
  const changes = new ChangeLog(database, changeLogRepository, log);
  await changes.start();

  // The public site is made once the services it reads exist; the metrics read it when scraped.
  let publicSite: PublicSite | undefined;
  const metrics = new Metrics({
    openStreams: () => publicSite?.openStreams() ?? 0,
    pool: () => database.poolUse(),
    publicCache: () => publicSite?.cacheUse(),
  });

  const usersRepository = new UsersRepository(database);
  const ghadisRepository = new GhadisRepository(database);
  const assignmentsRepository = new AssignmentsRepository(database);
  const activityRepository = new ActivityRepository(database);
  const activity = new ActivityRecorder(activityRepository, database);
  const sessions = new SessionService({
    sessions: new SessionsRepository(database),
    users: usersRepository,
    attempts: new LoginAttemptsRepository(database),
    throttle: new LoginThrottle(config.loginMaxFailures),
    passwords,
    tokens: new TokenService(signingKeys, config.tokenTtlSeconds),
    now,
    activity,
  });
  const users = new UsersService(usersRepository, passwords, activity);
  const ghadis = new GhadisService(ghadisRepository, config.siteTimezone, changes, activity);
  const resultsRepository = new ResultsRepository(database);
  const dailyStats = new DailyStats(new DailyStatsRepository(database), config.siteTimezone);
  const declarations = new DeclarationLog(database, new DeclarationsRepository(database), dailyStats);
  // A worker's supervisor checked the log before starting it: once per start of the site.
  if (!options.declarationLogChecked) await checkDeclarationLog(declarations, log);
  const results = new ResultsService(
    resultsRepository,
    ghadis,
    assignmentsRepository,
    config.siteTimezone,
    changes,
    declarations,
    new IdempotencyKeys(new IdempotencyKeysRepository(database), now),
    activity,
    (source) => metrics.declared(source),
  );
  const resultsCsv = new ResultsCsvService({
    csv: new ResultsCsvRepository(database),
    results: resultsRepository,
    changes,
    declarations,
    activity,
    timeZone: config.siteTimezone,
    onImported: (count) => metrics.declared('import', count),
  });
  const assignments = new AssignmentsService(assignmentsRepository, usersRepository, activity);
  const blocks = new ContentBlocksService(new ContentBlocksRepository(database), changes, activity);
  const visitors = new VisitorCounter(
    new VisitorsRepository(database, dailyStats),
    config.visitorFlushMs,
    log,
    { ...VISITOR_LIMITS, newSessionsPerAddressPerMinute: config.visitorNewSessionsPerMinute },
    (written) => metrics.visitorFlush(written),
    now,
    database.health,
  );
  await visitors.start();

  const serveWebApp = options.serveWebApp !== false;
  const appHtml = serveWebApp ? readAppHtml(config.webRoot, log) : null;
  const headers = new ResponseHeaders({ publicUrl: config.publicUrl, corsOrigins: config.corsOrigins });
  // Every change in the log drops the public answers it made stale and goes out to open pages.
  const site = await createPublicSite({
    ghadis,
    results,
    blocks,
    declarations,
    changes,
    webRoot: serveWebApp ? config.webRoot : null,
    renderProcesses: config.renderProcesses,
    liveEvents: options.liveEvents,
    headers,
    timeZone: config.siteTimezone,
    publicUrl: config.publicUrl ?? null,
    publicQueries: new PerMinuteLimit(config.publicQueriesPerMinute, now),
    cacheBytes: config.publicCacheBytes,
    buildLimits: options.buildLimits,
    purgeUrl: config.purgeUrl ?? null,
    log,
    timeouts,
    databaseHealth: database.health,
    trackVisit: (sessionId, request) =>
      visitors.track(sessionId, clientGroup(clientAddressOf(request, trust))),
    metrics,
  });
  publicSite = site;
  // Other processes' writes reach this one through the log too, woken by the bus.
  const bus = await startChangeBus({
    database,
    changes,
    repository: changeLogRepository,
    log,
    onResync: () => site.resync(),
  });

  const app = Fastify({
    serverFactory: site.serverFactory,
    loggerInstance: log,
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    trustProxy: trust,
    routerOptions: site.routerOptions,
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
    logController: site.logController,
    // The server's own front door answers requests during a stop, in the API's shape.
    return503OnClosing: false,
  });
  app.addHook('onRoute', site.learnRoute);
  if (!options.database) {
    app.addHook('onClose', () => {
      app.log.debug('shutdown: closing the database');
      return database.close();
    });
  }
  app.addHook('onClose', () => changes.stop());
  app.addHook('onClose', () => {
    app.log.debug('shutdown: in-flight requests finished; flushing visitor counts');
    return visitors.stop();
  });
  app.addHook('onClose', () => bus.stop());
  app.addHook('onClose', () => site.stopRenderer());
  // Open event streams would keep the server from closing.
  app.addHook('preClose', (done) => {
    app.log.debug({ streams: site.openStreams() }, 'shutdown: ending live streams');
    site.close();
    done();
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  lenientJsonParser(app, BODY_LIMIT_BYTES);
  registerErrorHandling(app, {
    appHtml,
    notFoundPage: site.notFoundPage,
    databaseHealth: database.health,
  });
  registerResponseHeaders(app, headers);
  countRequests(app, metrics);
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await registerOpenApi(app);
  if (!config.publicUrl) {
    app.log.warn(
      "PUBLIC_URL is not set: pages link to themselves relatively and the sitemap names each request's " +
        'own address. Set PUBLIC_URL (e.g. https://results.example) in production.',
    );
  }

  await app.register(access, {
    sessions,
    lastSeen: new LastSeen(new LastSeenRepository(database), now, log, database.health),
  });
  await app.register(authRoutes, { sessions });
  await app.register(usersRoutes, { users });
  await app.register(ghadisRoutes, { ghadis });
  await app.register(resultsRoutes, { results, ghadis, csv: resultsCsv, declarations });
  await app.register(agentRoutes, { results, ghadis });
  await app.register(assignmentsRoutes, { assignments });
  await app.register(contentBlocksRoutes, { blocks });
  await app.register(visitorsRoutes, { visitors });
  await app.register(todayRoutes, {
    today: new TodayService(
      new TodayRepository(database),
      config.siteTimezone,
      config.overdueAfterMinutes,
      now,
    ),
  });
  await app.register(statsRoutes, {
    stats: dailyStats,
    ghadiStats: new GhadiStats(
      new GhadiStatsRepository(database),
      config.siteTimezone,
      config.overdueAfterMinutes,
      now,
    ),
  });
  await app.register(activityRoutes, {
    activity: new ActivityService(activityRepository, config.siteTimezone),
  });
  await app.register(healthRoutes, { database, settings: new SettingsRepository(database) });
  await app.register(metricsRoutes, {
    metrics: new ClusterMetrics(metrics.registry),
    token: config.metricsToken,
  });
  await app.register(site.routes);
  if (appHtml) await registerWebApp(app, config.webRoot, { serveSourceMaps: config.serveSourceMaps });
  return app;
}
