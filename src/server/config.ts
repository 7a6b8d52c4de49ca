import { createECDH } from 'node:crypto';
import type { z } from 'zod';
import { environmentSchema } from './environment-schema.js';

/**
 * The environment's values under the names the code uses, with the settings that are not the
 * environment's to choose. AppConfig is what this produces, so the two cannot drift apart.
 */
const configSchema = environmentSchema.transform((values, ctx) => ({
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
  /** Media library images read from the database per client address and minute (browsers and caches keep them for good). */
  mediaQueriesPerMinute: values.MEDIA_QUERIES_PER_MINUTE,
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
  /**
   * Web Push (decision 0025): on only with PUBLIC_URL (the notifications link to its pages). The VAPID
   * key pair is VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or made at first start and kept in the database;
   * the subject defaults to PUBLIC_URL. PUSH_ALLOW_LOOPBACK lets a push service on loopback be used
   * (tests), still over https.
   */
  push: {
    vapidKeys: vapidKeysOf(values.VAPID_PUBLIC_KEY, values.VAPID_PRIVATE_KEY, ctx),
    vapidSubject: values.VAPID_SUBJECT ?? values.PUBLIC_URL,
    allowLoopback: values.PUSH_ALLOW_LOOPBACK,
    /** New subscriptions per client address (IPv6: per /64) and minute. */
    subscriptionsPerMinute: values.PUSH_SUBSCRIPTIONS_PER_MINUTE,
  },
  /** The Telegram channel: on when both the bot token and the chat are set. Never logged. */
  telegram:
    values.TELEGRAM_BOT_TOKEN && values.TELEGRAM_CHAT_ID
      ? { token: values.TELEGRAM_BOT_TOKEN, chatId: values.TELEGRAM_CHAT_ID, apiUrl: values.TELEGRAM_API_URL }
      : undefined,
  /** argon2 cost; lowered only by tests. */
  passwordMemoryCost: 19456,
}));

/** Both VAPID keys or neither, and the public one the private one's. */
function vapidKeysOf(
  publicKey: string | undefined,
  privateKey: string | undefined,
  ctx: z.RefinementCtx,
): { publicKey: string; privateKey: string } | undefined {
  if (publicKey === undefined && privateKey === undefined) return undefined;
  if (publicKey === undefined || privateKey === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [publicKey === undefined ? 'VAPID_PUBLIC_KEY' : 'VAPID_PRIVATE_KEY'],
      message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all',
    });
    return undefined;
  }
  let derived: string | undefined;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    derived = ecdh.getPublicKey('base64url');
  } catch {
    // Not a key on the curve: reported below as a mismatch.
  }
  if (derived !== publicKey) {
    ctx.addIssue({
      code: 'custom',
      path: ['VAPID_PUBLIC_KEY'],
      message: 'is not the public key of VAPID_PRIVATE_KEY',
    });
    return undefined;
  }
  return { publicKey, privateKey };
}

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
