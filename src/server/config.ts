import type { z } from 'zod';
import { environmentSchema } from './environment-schema.js';

/**
 * The environment's values under the names the code uses, with the settings that are not the
 * environment's to choose. AppConfig is what this produces, so the two cannot drift apart.
 */
const configSchema = environmentSchema.transform((values) => ({
  /** Processes serving the site on this machine (node:cluster), sharing the port. */
  workers: values.WORKERS,
  /** PostgreSQL connections each process may open for queries (one more listens for changes). */
  databasePoolSize: values.DATABASE_POOL_SIZE,
  /** The longest a database statement may take before the request answers 503 (statement/busy timeout). */
  databaseDeadlineMs: values.DATABASE_DEADLINE_MS,
  port: values.PORT,
  host: values.HOST,
  database: values.DATABASE_URL,
  adminUsername: values.ADMIN_USERNAME,
  adminPassword: values.ADMIN_PASSWORD,
  jwtSecret: values.JWT_SECRET,
  siteTimezone: values.SITE_TIMEZONE,
  corsOrigins: values.CORS_ORIGINS,
  /**
   * The site's canonical origin (PUBLIC_URL), e.g. https://results.example: named by the sitemap,
   * canonical links, robots.txt and Open Graph tags. Unset: pages link relatively and the sitemap names
   * each request's own origin (fine for local use; set it in production).
   */
  publicUrl: values.PUBLIC_URL,
  // Any level pino knows, as the code may set it, not only the ones LOG_LEVEL offers.
  logLevel: values.LOG_LEVEL as string,
  /**
   * Which X-Forwarded-For hops to believe (behind a reverse proxy): none, that many proxies, or the
   * proxies' addresses; the client is the rightmost address that is not a trusted proxy's.
   */
  trustProxy: values.TRUST_PROXY,
  /** Built web assets; absent until the web app is built. */
  webRoot: values.WEB_ROOT,
  /** Whether the build's source maps (which show the app's whole source) are served; by default a 404. */
  serveSourceMaps: values.SERVE_SOURCE_MAPS,
  /** How often the visitor counter is written to the database. */
  visitorFlushMs: 2000,
  tokenTtlSeconds: 12 * 60 * 60,
  /**
   * Days an activity entry keeps its address and user agent, and a failed sign-in its masked name
   * (ACTIVITY_RETENTION_DAYS); after that only its number, time, who, action and summary stay.
   */
  activityRetentionDays: values.ACTIVITY_RETENTION_DAYS,
  /**
   * Where the first admin's generated password is written when the server's output is no terminal:
   * unset, beside the SQLite file, else the working folder. Set by tests only.
   */
  firstAdminPasswordFolder: undefined as string | undefined,
  /**
   * REQUIRE_ADMIN_2FA: an admin session signed in with a password alone answers 403
   * (twoFactorSetupRequired) outside /api/users/me/... until it signs in with a second factor.
   */
  requireAdminTwoFactor: values.REQUIRE_ADMIN_2FA,
  /** Failed logins allowed per account and client address in 15 minutes (lib/login-throttle.ts). */
  loginMaxFailures: values.LOGIN_MAX_FAILURES,
  /** New visitor sessions counted per client address (IPv6: per /64) and minute; more are not counted. */
  visitorNewSessionsPerMinute: values.VISITOR_NEW_SESSIONS_PER_MINUTE,
  /** Uncached public result queries (searches, pages) per client address and minute; more get a 429. */
  publicQueriesPerMinute: values.PUBLIC_QUERIES_PER_MINUTE,
  /** Transparency-log proofs and tiles per client address and minute (read from stored nodes, not counted above). */
  logQueriesPerMinute: values.LOG_QUERIES_PER_MINUTE,
  /** A PEM file of the log's Ed25519 signing key; unset, the key is made at first start and kept in the database. */
  logKeyFile: values.LOG_KEY_FILE,
  /** The checkpoints' origin line (LOG_ORIGIN); unset, PUBLIC_URL's host, else localhost/log. */
  logOrigin: values.LOG_ORIGIN,
  /** Result submissions one user may send a minute, in each process (decision 0014). */
  submissionsPerUserPerMinute: values.SUBMISSIONS_PER_USER_PER_MINUTE,
  /** Minutes after a ghadi's result time that it is overdue without a result (today's board). */
  overdueAfterMinutes: values.OVERDUE_AFTER_MINUTES,
  /** Bearer token GET /metrics asks for; unset, /metrics answers 404. */
  metricsToken: values.METRICS_TOKEN,
  /**
   * Where each change's purge goes (PURGE_URL): a shared cache in front of the site (Varnish with
   * xkey) that drops the answers showing what changed. Unset: no purges.
   */
  purgeUrl: values.PURGE_URL,
  /** Bytes the kept public answers may take in each process (PUBLIC_CACHE_MB). */
  publicCacheBytes: values.PUBLIC_CACHE_MB * 1024 * 1024,
  /** Processes rendering public pages for each server process (RENDER_PROCESSES); 0 renders on the event loop. */
  renderProcesses: values.RENDER_PROCESSES,
  /** argon2 cost; lowered only by tests. */
  passwordMemoryCost: 19456,
}));

export type AppConfig = z.output<typeof configSchema>;

export class ConfigError extends Error {}

/** Reads the environment once; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
