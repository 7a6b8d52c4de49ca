import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { checkDeclarationLog, prepareDatabase } from './bootstrap.js';
import type { AppConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { trustProxyFunction } from './lib/client-address.js';
import { type Now, systemNow } from './lib/clock.js';
import { PasswordHasher } from './lib/passwords.js';
import { PerMinuteLimit } from './lib/per-minute-limit.js';
import { ResponseHeaders, requestIdFrom } from './lib/response-headers.js';
import { SERVER_TIMEOUTS, type ServerTimeouts } from './lib/server-timeouts.js';
import { SigningKeys } from './lib/tokens.js';
import { activityModule } from './modules/activity/activity-module.js';
import { agentModule } from './modules/agent/agent-module.js';
import { assignmentsModule } from './modules/assignments/assignments-module.js';
import { authModule } from './modules/auth/auth-module.js';
import { changesModule } from './modules/changes/changes-module.js';
import { contentBlocksModule } from './modules/content-blocks/content-blocks-module.js';
import { declarationsModule } from './modules/declarations/declarations-module.js';
import { ghadisModule } from './modules/ghadis/ghadis-module.js';
import { healthModule } from './modules/health/health-module.js';
import { holidaysModule } from './modules/holidays/holidays-module.js';
import { mediaModule } from './modules/media/media-module.js';
import { metricsModule } from './modules/metrics/metrics-module.js';
import type { ModuleContext } from './modules/module-context.js';
import {
  type NotificationOptions,
  notificationsModule,
} from './modules/notifications/notifications-module.js';
import { pendingModule } from './modules/pending/pending-module.js';
import { resultsModule } from './modules/results/results-module.js';
import { ensureStoredKey } from './modules/settings/signing-key-store.js';
import { statsModule } from './modules/stats/stats-module.js';
import { todayModule } from './modules/today/today-module.js';
import { transparencyModule } from './modules/transparency/transparency-module.js';
import type { Terminal } from './modules/users/first-admin-password.js';
import { usersModule } from './modules/users/users-module.js';
import { visitorsModule } from './modules/visitors/visitors-module.js';
import { access } from './plugins/access.js';
import { BODY_LIMIT_BYTES, registerApiPlugins } from './plugins/api-plugins.js';
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
  /** Where a generated first admin's password may be printed (default: standard output, if a terminal). */
  terminal?: Terminal;
  /** The notification sender's pace and trust other than the defaults (tests: a short poll, a local CA). */
  notifications?: NotificationOptions;
}

/**
 * The whole site, in the order it starts: the database, then each module from its factory (a module
 * gets the services of those made before it), then the public site (which answers its busiest reads
 * before Fastify, so it exists before Fastify does), then Fastify with its hooks, plugins and the
 * modules' routes. Closing the app closes what was started here.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const log: FastifyBaseLogger = pino({
    level: options.logger === false ? 'silent' : config.logLevel,
    redact: ['req.headers.authorization'],
  });
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
  const prepared = prepareDatabase(database, config, passwords, log, options.terminal);
  const signingKey = await prepared.catch(async (error: unknown) => {
    // The first query found no database: what this start opened is closed before it fails.
    if (!options.database) await database.close().catch(() => {});
    throw error;
  });
  const signingKeys = config.jwtSecret
    ? SigningKeys.fixed(config.jwtSecret)
    : SigningKeys.stored(signingKey, () => ensureStoredKey(database));

  const { changes, startBus } = await changesModule(database, log);
  const activity = activityModule(database, {
    timeZone: config.siteTimezone,
    retentionDays: config.activityRetentionDays,
    now,
    log,
  });
  const context: ModuleContext = { database, config, log, now, changes, activity: activity.recorder };
  // The public site is made once the services it reads exist; the metrics read it when scraped.
  let site: PublicSite | undefined;
  const { metrics, routes: metricsRoutes } = metricsModule(config.metricsToken, {
    openStreams: () => site?.openStreams() ?? 0,
    pool: () => database.poolUse(),
    publicCache: () => site?.cacheUse(),
  });
  const stats = statsModule(context);
  const users = usersModule(context, passwords);
  const auth = authModule(context, {
    users: users.repository,
    passwords,
    signingKeys,
    firstAdmin: users.firstAdmin,
  });
  const ghadis = ghadisModule(context);
  const holidays = holidaysModule(context, ghadis);
  const assignments = assignmentsModule(context, users.repository);
  const transparency = await transparencyModule(database, config, now, log);
  const declarations = declarationsModule(database, stats.daily, transparency.log);
  const notifications = await notificationsModule(context, {
    registry: metrics.registry,
    options: options.notifications,
  });
  // A worker's supervisor checked the log before starting it: once per start of the site.
  if (!options.declarationLogChecked) await checkDeclarationLog(declarations.log, log);
  const results = resultsModule(context, {
    ghadis: ghadis.service,
    assignments: assignments.repository,
    declarations: declarations.log,
    notifications: notifications.outbox,
    onDeclared: (source, count) => metrics.declared(source, count),
  });
  const pending = pendingModule(context, results, ghadis.service);
  const blocks = contentBlocksModule(context);
  const trust = trustProxyFunction(config.trustProxy);
  const visitors = await visitorsModule(context, {
    stats: stats.daily,
    onFlush: (written) => metrics.visitorFlush(written),
    trust,
  });

  const serveWebApp = options.serveWebApp !== false;
  const appHtml = serveWebApp ? readAppHtml(config.webRoot, log) : null;
  const headers = new ResponseHeaders({ publicUrl: config.publicUrl, corsOrigins: config.corsOrigins });
  // Every change in the log drops the public answers it made stale and goes out to open pages.
  site = await createPublicSite({
    ghadis: ghadis.service,
    holidays: holidays.service,
    results: results.service,
    blocks: blocks.service,
    declarations: declarations.log,
    transparency: transparency.log,
    punctuality: stats.punctuality,
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
    trackVisit: visitors.track,
    metrics,
  });
  const publicSite = site;
  // Other processes' writes reach this one through the log too, woken by the bus.
  const bus = await startBus(() => publicSite.resync());

  const app = Fastify({
    serverFactory: publicSite.serverFactory,
    loggerInstance: log,
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    trustProxy: trust,
    routerOptions: publicSite.routerOptions,
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
    logController: publicSite.logController,
    // The fast path's server answers requests during a stop, in the API's shape.
    return503OnClosing: false,
  });
  app.addHook('onRoute', publicSite.learnRoute);
  // Stopped in this order once in-flight requests are done: counts flushed before the database goes.
  app.addHook('onClose', async () => {
    changes.stop();
    await activity.retention.stop();
    app.log.debug('shutdown: finishing the notifications in flight');
    await notifications.stop();
    app.log.debug('shutdown: in-flight requests finished; flushing visitor counts');
    await visitors.stop();
    await bus.stop();
    await publicSite.stopRenderer();
    if (!options.database) {
      app.log.debug('shutdown: closing the database');
      await database.close();
    }
  });
  // Open event streams would keep the server from closing.
  app.addHook('preClose', (done) => {
    app.log.debug({ streams: publicSite.openStreams() }, 'shutdown: ending live streams');
    publicSite.close();
    done();
  });

  await registerApiPlugins(app, {
    appHtml,
    notFoundPage: publicSite.notFoundPage,
    databaseHealth: database.health,
    headers,
    metrics,
  });
  if (!config.publicUrl) {
    app.log.warn(
      "PUBLIC_URL is not set: pages link to themselves relatively and the sitemap names each request's " +
        'own address. Set PUBLIC_URL (e.g. https://results.example) in production.',
    );
  }

  await app.register(access, {
    sessions: auth.sessions,
    lastSeen: users.lastSeen,
    requireAdminTwoFactor: config.requireAdminTwoFactor,
  });
  const agent = agentModule({
    results: results.service,
    submissions: results.submissions,
    ghadis: ghadis.service,
  });
  for (const routes of [
    auth.routes,
    users.routes,
    ghadis.routes,
    holidays.routes,
    results.routes,
    pending.routes,
    agent.routes,
    assignments.routes,
    blocks.routes,
    mediaModule(context).routes,
    visitors.routes,
    todayModule(context).routes,
    stats.routes,
    activity.routes,
    healthModule(database).routes,
    metricsRoutes,
    transparency.routes,
    notifications.routes,
    publicSite.routes,
  ])
    await routes(app);
  if (appHtml) await registerWebApp(app, config.webRoot, { serveSourceMaps: config.serveSourceMaps });
  activity.retention.start();
  notifications.start();
  return app;
}
