import compress from '@fastify/compress';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { bootstrapData, resolveJwtSecret } from './bootstrap.js';
import type { AppConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { ChangeFeed } from './lib/change-feed.js';
import { LoginThrottle } from './lib/login-throttle.js';
import { PasswordHasher } from './lib/passwords.js';
import { requestIdFrom, SECURITY_HEADERS } from './lib/response-headers.js';
import { TokenService } from './lib/tokens.js';
import { authRoutes } from './modules/auth/auth-routes.js';
import { LoginAttemptsRepository } from './modules/auth/login-attempts-repository.js';
import { SessionService } from './modules/auth/session-service.js';
import { SessionsRepository } from './modules/auth/sessions-repository.js';
import { ContentBlocksRepository } from './modules/content-blocks/content-blocks-repository.js';
import { contentBlocksRoutes } from './modules/content-blocks/content-blocks-routes.js';
import { ContentBlocksService } from './modules/content-blocks/content-blocks-service.js';
import { GhadisRepository } from './modules/ghadis/ghadis-repository.js';
import { ghadisRoutes } from './modules/ghadis/ghadis-routes.js';
import { GhadisService } from './modules/ghadis/ghadis-service.js';
import { FrontDoor, Origins, serverWithFrontDoor } from './modules/public-site/front-door.js';
import { LiveEvents } from './modules/public-site/live-events.js';
import { loadPublicPages } from './modules/public-site/page-html.js';
import { PublicData } from './modules/public-site/public-data.js';
import { PublicSite } from './modules/public-site/public-site.js';
import {
  publicLogController,
  publicSiteRoutes,
  tunePublicRoutes,
} from './modules/public-site/public-site-routes.js';
import { ResultsRepository } from './modules/results/results-repository.js';
import { agentRoutes, resultsRoutes } from './modules/results/results-routes.js';
import { ResultsService } from './modules/results/results-service.js';
import { SettingsRepository } from './modules/settings/settings-repository.js';
import { siteRoutes } from './modules/site/site-routes.js';
import { UsermapsRepository } from './modules/usermaps/usermaps-repository.js';
import { usermapsRoutes } from './modules/usermaps/usermaps-routes.js';
import { UsermapsService } from './modules/usermaps/usermaps-service.js';
import { UsersRepository } from './modules/users/users-repository.js';
import { usersRoutes } from './modules/users/users-routes.js';
import { UsersService } from './modules/users/users-service.js';
import { VisitorCounter } from './modules/visitors/visitor-counter.js';
import { VisitorsRepository } from './modules/visitors/visitors-repository.js';
import { visitorsRoutes } from './modules/visitors/visitors-routes.js';
import { access } from './plugins/access.js';
import { registerErrorHandling } from './plugins/error-handler.js';
import { registerWebApp } from './plugins/web-app.js';

export interface BuildOptions {
  /** An open database to use instead of the configured one (tests); the caller closes it. */
  database?: Database;
  logger?: boolean;
  /** Serve the built web app beside the API (default true). */
  serveWebApp?: boolean;
}

const BODY_LIMIT_BYTES = 1024 * 1024;

function securityHeaders(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every response, and a promise each time shows.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('x-request-id', request.id);
    if (request.routeOptions.url?.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

/** An empty body with a JSON content type (as some clients send on DELETE) reads as no body. */
function lenientJsonParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      const text = body.toString();
      if (text.trim() === '') return done(null, undefined);
      return parseJson(request, text, done);
    },
  );
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const proxyHops = config.trustProxy;
  // The public hot paths are answered from memory before Fastify (public-site/front-door.ts).
  let frontDoor: FrontDoor | undefined;
  const app = Fastify({
    serverFactory: serverWithFrontDoor(() => frontDoor),
    logger:
      options.logger === false ? false : { level: config.logLevel, redact: ['req.headers.authorization'] },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy:
      typeof proxyHops === 'number' ? (_address: string, hop: number) => hop < proxyHops : proxyHops,
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
    logController: publicLogController(),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  lenientJsonParser(app);
  let appHtml: string | null = null;
  registerErrorHandling(app, { appHtml: () => appHtml });
  securityHeaders(app);
  // Before @fastify/compress, so that the public hot routes can opt out of its hooks.
  let publicSite: PublicSite | undefined;
  tunePublicRoutes(app, () => {
    if (!publicSite) throw new Error('The public site is not ready');
    return publicSite;
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  if (config.corsOrigins.length > 0) {
    await app.register(cors, { origin: config.corsOrigins, credentials: true, maxAge: 600 });
  }

  const database = options.database ?? openDatabase(config.database);
  if (!options.database) app.addHook('onClose', () => database.close());
  await migrateToLatest(database);

  const changes = new ChangeFeed();
  const passwords = new PasswordHasher(config.passwordMemoryCost);
  const usersRepository = new UsersRepository(database);
  const ghadisRepository = new GhadisRepository(database);
  const usermapsRepository = new UsermapsRepository(database);
  const settings = new SettingsRepository(database);

  await bootstrapData({
    config,
    users: usersRepository,
    ghadis: ghadisRepository,
    settings,
    passwords,
    log: app.log,
  });
  const tokens = new TokenService(await resolveJwtSecret(config, settings), config.tokenTtlSeconds);

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
  const results = new ResultsService(
    new ResultsRepository(database),
    ghadis,
    usermapsRepository,
    config.siteTimezone,
    changes,
  );
  const usermaps = new UsermapsService(usermapsRepository, usersRepository);
  const blocks = new ContentBlocksService(new ContentBlocksRepository(database), changes);
  const visitors = new VisitorCounter(new VisitorsRepository(database), config.visitorFlushMs, app.log);
  await visitors.start();
  app.addHook('onClose', () => visitors.stop());

  // The public site answers its reads from memory, refreshed by the change feed; open pages hear of
  // changes through server-sent events, which must end before the server can close.
  const events = new LiveEvents();
  publicSite = new PublicSite({
    data: new PublicData(ghadis, results, blocks),
    pages: options.serveWebApp === false ? null : await loadPublicPages(config.webRoot, app.log),
    changes,
    timeZone: config.siteTimezone,
    onChange: (change) => events.broadcast(change),
  });
  app.addHook('preClose', (done) => {
    events.closeAll();
    done();
  });
  app.addHook('onClose', async () => publicSite?.close());

  await app.register(access, { sessions });
  await app.register(authRoutes, { sessions });
  await app.register(usersRoutes, { users });
  await app.register(ghadisRoutes, { ghadis });
  await app.register(resultsRoutes, { results, ghadis });
  await app.register(agentRoutes, { results, ghadis });
  await app.register(usermapsRoutes, { usermaps });
  await app.register(contentBlocksRoutes, { blocks });
  await app.register(visitorsRoutes, { visitors });
  await app.register(siteRoutes, { timeZone: config.siteTimezone });
  const origins = new Origins();
  await app.register(publicSiteRoutes, { site: publicSite, events, origins });
  if (options.serveWebApp !== false) appHtml = await registerWebApp(app, config.webRoot);
  frontDoor = new FrontDoor({
    site: publicSite,
    origins,
    trackVisit: (sessionId) => visitors.track(sessionId),
  });
  return app;
}
