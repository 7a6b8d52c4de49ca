import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseDatabaseUrl } from './db/database-target.js';
import type { TrustProxySetting } from './lib/client-address.js';
import { parseTrustProxy, TRUST_WHAT_INSTEAD } from './lib/trust-proxy-setting.js';

export const DEFAULT_SITE_TIMEZONE = 'Asia/Kolkata';

function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** A switch: "true" or "false" (unset or empty: false); anything else is refused, not guessed at. */
const trueOrFalse = () =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim() ?? '';
      if (text === '' || text === 'false') return false;
      if (text === 'true') return true;
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    });

/** Whether `value` is base64url (no padding) of exactly `bytes` bytes. */
function isBase64UrlOf(value: string, bytes: number): boolean {
  return /^[\w-]+$/.test(value) && Buffer.from(value, 'base64url').length === bytes;
}

/**
 * Every environment variable the server reads, checked and converted under its own name, so that a
 * refusal names the variable to fix; config.ts gives the values the names the code uses.
 */
export const environmentSchema = z.object({
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
  REQUIRE_ADMIN_2FA: trueOrFalse(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(10_000).default(10),
  // Blank means unset: coerced, it would be 0.
  ACTIVITY_RETENTION_DAYS: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(1).max(36_500).default(90),
  ),
  VISITOR_NEW_SESSIONS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  PUBLIC_QUERIES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  LOG_QUERIES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(6000),
  MEDIA_QUERIES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(6000),
  LOG_KEY_FILE: optionalText,
  // A signed note's key name: no spaces, no plus sign (C2SP signed-note).
  LOG_ORIGIN: optionalText.refine((value) => value === undefined || /^[^\s+]+$/.test(value), {
    message: 'must have no spaces or plus signs (e.g. results.example/log)',
  }),
  SUBMISSIONS_PER_USER_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
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
  PUSH_ALLOW_LOOPBACK: trueOrFalse(),
  VAPID_PUBLIC_KEY: optionalText.refine((value) => value === undefined || isBase64UrlOf(value, 65), {
    message: 'must be an uncompressed P-256 public key in base64url (as web-push generateVAPIDKeys makes it)',
  }),
  VAPID_PRIVATE_KEY: optionalText.refine((value) => value === undefined || isBase64UrlOf(value, 32), {
    message: 'must be a P-256 private key in base64url (as web-push generateVAPIDKeys makes it)',
  }),
  VAPID_SUBJECT: optionalText.refine(
    (value) => value === undefined || /^mailto:\S+@\S+$/.test(value) || /^https:\/\/\S+$/.test(value),
    { message: 'must be a mailto: address or an https: URL' },
  ),
  PUSH_SUBSCRIPTIONS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(10),
  TELEGRAM_BOT_TOKEN: optionalText.refine((value) => value === undefined || /^\d+:[\w-]+$/.test(value), {
    message: 'must look like 123456:ABC-DEF (the token BotFather gives)',
  }),
  TELEGRAM_CHAT_ID: optionalText.refine((value) => value === undefined || /^(-?\d+|@\w{5,})$/.test(value), {
    message: 'must be a chat id (a number) or @channelname',
  }),
  TELEGRAM_API_URL: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim();
      if (!text) return 'https://api.telegram.org';
      try {
        const url = new URL(text);
        if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash)
          return url.href.replace(/\/$/, '');
      } catch {}
      ctx.addIssue({
        code: 'custom',
        message: `"${text}" is not an http(s) URL like https://api.telegram.org`,
      });
      return z.NEVER;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SERVE_SOURCE_MAPS: trueOrFalse(),
  // The static file server needs an absolute path; a relative one is taken from the working directory.
  WEB_ROOT: z
    .string()
    .default('dist/web')
    .transform((root) => path.resolve(root)),
});
