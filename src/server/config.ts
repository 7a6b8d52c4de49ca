import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { type TrustProxySetting, trustProxyFunction, trustsEveryAddress } from './lib/client-address.js';

/** Where the data lives: the embedded SQLite file by default, PostgreSQL when DATABASE_URL says so. */
export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface AppConfig {
  /** Processes serving the site on this machine (node:cluster), sharing the port. */
  workers: number;
  /** PostgreSQL connections each process may open for queries (one more listens for changes). */
  databasePoolSize: number;
  /** The longest a database statement may take before the request answers 503 (statement/busy timeout). */
  databaseDeadlineMs: number;
  port: number;
  host: string;
  database: DatabaseTarget;
  adminUsername: string;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  siteTimezone: string;
  corsOrigins: string[];
  /**
   * The site's canonical origin (PUBLIC_URL), e.g. https://results.example: named by the sitemap,
   * canonical links, robots.txt and Open Graph tags. Unset: pages link relatively and the sitemap names
   * each request's own origin (fine for local use; set it in production).
   */
  publicUrl: string | undefined;
  logLevel: string;
  /**
   * Which X-Forwarded-For hops to believe (behind a reverse proxy): none, that many proxies, or the
   * proxies' addresses; the client is the rightmost address that is not a trusted proxy's.
   */
  trustProxy: TrustProxySetting;
  /** Built web assets; absent until the web app is built. */
  webRoot: string;
  /** Whether the build's source maps (which show the app's whole source) are served; by default a 404. */
  serveSourceMaps: boolean;
  /** How often the visitor counter is written to the database. */
  visitorFlushMs: number;
  tokenTtlSeconds: number;
  /** Failed logins allowed per account and client address in 15 minutes (lib/login-throttle.ts). */
  loginMaxFailures: number;
  /** New visitor sessions counted per client address (IPv6: per /64) and minute; more are not counted. */
  visitorNewSessionsPerMinute: number;
  /** Uncached public result queries (searches, pages) per client address and minute; more get a 429. */
  publicQueriesPerMinute: number;
  /** Minutes after a ghadi's result time that it is overdue without a result (today's board). */
  overdueAfterMinutes: number;
  /** Bearer token GET /metrics asks for; unset, /metrics answers 404. */
  metricsToken: string | undefined;
  /**
   * Where each change's purge goes (PURGE_URL): a shared cache in front of the site (Varnish with
   * xkey) that drops the answers showing what changed. Unset: no purges.
   */
  purgeUrl: string | undefined;
  /** Bytes the kept public answers may take in each process (PUBLIC_CACHE_MB). */
  publicCacheBytes: number;
  /** Processes rendering public pages for each server process (RENDER_PROCESSES); 0 renders on the event loop. */
  renderProcesses: number;
  /** argon2 cost; lowered only by tests. */
  passwordMemoryCost: number;
}

const DEFAULT_SQLITE_FILE = path.resolve('data', 'ghadi.db');
export const DEFAULT_SITE_TIMEZONE = 'Asia/Kolkata';

function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function parseDatabaseUrl(value: string | undefined): DatabaseTarget {
  if (!value) return { kind: 'sqlite', file: DEFAULT_SQLITE_FILE };
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new Error('empty path');
    return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
  }
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: 'postgres', url: value };
  throw new Error('must start with sqlite: or postgres://');
}

/**
 * The most proxies in a row TRUST_PROXY may count: a count above the proxies really in front of the
 * app lets a client choose its address, and a large one trusts every hop in practice.
 */
const MAX_TRUSTED_HOPS = 10;

const TRUST_WHAT_INSTEAD =
  'name the proxies instead: TRUST_PROXY=127.0.0.1 (or loopback) for a proxy on this machine, ' +
  "the proxies' addresses or ranges (e.g. 10.0.0.5,10.0.1.0/24), or the number of proxies in front of the app (e.g. 1)";

/**
 * TRUST_PROXY read: off, a hop count, or proxy-addr's addresses, ranges and names. Anything that
 * trusts every hop is refused, since the client writes the leftmost X-Forwarded-For entries itself
 * (a proxy appends to them) and would then pick the address every per-address limit counts.
 */
function parseTrustProxy(text: string): { setting: TrustProxySetting } | { refused: string } {
  const word = text.toLowerCase();
  if (word === '' || word === 'false') return { setting: false };
  if (word === 'true') {
    return { refused: '"true" believes every X-Forwarded-For hop, which any client can write' };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops === 0) return { setting: false };
    if (hops <= MAX_TRUSTED_HOPS) return { setting: hops };
    return { refused: `${text} hops would let a client choose its address (at most ${MAX_TRUSTED_HOPS})` };
  }
  const parts = text.split(',').map((part) => part.trim());
  if (!parts.some(Boolean)) return { refused: `"${text}" names no proxy` };
  // proxy-addr refuses a zero-length prefix as a bad range; say what it would have meant.
  const everyAddress = `"${text}" trusts every address, as "true" would`;
  if (parts.some((part) => /\/(0+|0\.0\.0\.0)$/.test(part))) return { refused: everyAddress };
  let trust: ReturnType<typeof trustProxyFunction>;
  try {
    trust = trustProxyFunction(text);
  } catch (error) {
    return { refused: `"${text}": ${(error as Error).message}` };
  }
  if (trust && trustsEveryAddress(trust)) return { refused: everyAddress };
  return { setting: text };
}

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const environmentSchema = z.object({
  // An empty PORT (as `PORT=` in an env file leaves it) means unset, not port 0.
  PORT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(0).max(65535).default(3000),
  ),
  HOST: z.string().min(1).default('0.0.0.0'),
  WORKERS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim() ?? '';
      if (text === '') return 1;
      if (text === 'auto') return os.availableParallelism();
      if (/^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 256) return Number(text);
      ctx.addIssue({ code: 'custom', message: 'must be a number from 1 to 256, or auto' });
      return z.NEVER;
    }),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parseDatabaseUrl(value?.trim() || undefined);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  ADMIN_USERNAME: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{3,50}$/, '3-50 letters, digits, dots, dashes or underscores')
    .default('admin'),
  ADMIN_PASSWORD: optionalText.refine((value) => value === undefined || value.length >= 8, {
    message: 'must be at least 8 characters',
  }),
  METRICS_TOKEN: optionalText.refine((value) => value === undefined || value.length >= 16, {
    message: 'must be at least 16 characters',
  }),
  JWT_SECRET: optionalText.refine((value) => value === undefined || value.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  SITE_TIMEZONE: z
    .string()
    .default(DEFAULT_SITE_TIMEZONE)
    .refine(isValidTimezone, { message: 'is not a known IANA time zone' }),
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const origins = (value ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean);
      for (const origin of origins) {
        if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
          ctx.addIssue({ code: 'custom', message: `"${origin}" is not an origin like https://example.com` });
        }
      }
      return origins;
    }),
  PUBLIC_URL: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim();
      if (!text) return undefined;
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: `"${text}" is not a URL like https://results.example` });
        return z.NEVER;
      }
      if (!['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash) {
        ctx.addIssue({
          code: 'custom',
          message: `"${text}" must be an origin (http or https, no path, query or fragment)`,
        });
        return z.NEVER;
      }
      return url.origin;
    }),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx): TrustProxySetting => {
      const read = parseTrustProxy(value?.trim() ?? '');
      if ('setting' in read) return read.setting;
      ctx.addIssue({ code: 'custom', message: `${read.refused}; ${TRUST_WHAT_INSTEAD}` });
      return z.NEVER;
    }),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(10_000).default(10),
  VISITOR_NEW_SESSIONS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  PUBLIC_QUERIES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  PUBLIC_CACHE_MB: z.coerce.number().int().min(8).max(65_536).default(128),
  RENDER_PROCESSES: z.coerce.number().int().min(0).max(64).default(1),
  PURGE_URL: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim();
      if (!text) return undefined;
      try {
        const url = new URL(text);
        if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
      } catch {}
      ctx.addIssue({
        code: 'custom',
        message: `"${text}" is not an http(s) URL like http://127.0.0.1:6081/`,
      });
      return z.NEVER;
    }),
  // Blank means unset: coerced, it would be 0 (overdue at the result time itself).
  OVERDUE_AFTER_MINUTES: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(15),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SERVE_SOURCE_MAPS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim() ?? '';
      if (text === '' || text === 'false') return false;
      if (text === 'true') return true;
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    }),
  // The static file server needs an absolute path; a relative one is taken from the working directory.
  WEB_ROOT: z
    .string()
    .default('dist/web')
    .transform((root) => path.resolve(root)),
});

export class ConfigError extends Error {}

/** Reads the environment once; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  return {
    workers: values.WORKERS,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    databaseDeadlineMs: values.DATABASE_DEADLINE_MS,
    port: values.PORT,
    host: values.HOST,
    database: values.DATABASE_URL,
    adminUsername: values.ADMIN_USERNAME,
    adminPassword: values.ADMIN_PASSWORD,
    jwtSecret: values.JWT_SECRET,
    siteTimezone: values.SITE_TIMEZONE,
    corsOrigins: values.CORS_ORIGINS,
    publicUrl: values.PUBLIC_URL,
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY,
    webRoot: values.WEB_ROOT,
    serveSourceMaps: values.SERVE_SOURCE_MAPS,
    visitorFlushMs: 2000,
    tokenTtlSeconds: 12 * 60 * 60,
    loginMaxFailures: values.LOGIN_MAX_FAILURES,
    visitorNewSessionsPerMinute: values.VISITOR_NEW_SESSIONS_PER_MINUTE,
    publicQueriesPerMinute: values.PUBLIC_QUERIES_PER_MINUTE,
    overdueAfterMinutes: values.OVERDUE_AFTER_MINUTES,
    metricsToken: values.METRICS_TOKEN,
    purgeUrl: values.PURGE_URL,
    publicCacheBytes: values.PUBLIC_CACHE_MB * 1024 * 1024,
    renderProcesses: values.RENDER_PROCESSES,
    passwordMemoryCost: 19456,
  };
}
