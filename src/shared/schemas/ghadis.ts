import { z } from 'zod';
import { GHADI_KINDS } from '../matka.js';
import { foldName } from '../names.js';
import { positiveId, requiredText, wholeNumber } from './common.js';
import { ghadiConfirmations } from './pending.js';

/**
 * GET /api/results/count and /api/results/export.csv are admin routes, and /api/charts/month/{month}
 * is the monthly chart, so no ghadi's public /api/results/{name} or /api/charts/{name}/{year} may be
 * named like them; /embed/board is every ghadi's embed, so no ghadi's /embed/{name} may be "board".
 */
export const RESERVED_GHADI_NAMES: readonly string[] = ['count', 'export.csv', 'month', 'board'];

/** NameEn becomes a URL path segment (/satta-results/{name}), so it may not hold URL delimiters. */
const nameEn = requiredText(60)
  .regex(/^[^/?#%\\<>]+$/, 'May not contain / ? # % \\ < or >')
  .refine((name) => !RESERVED_GHADI_NAMES.includes(foldName(name)), 'This name is reserved');

export const ghadiKind = z.enum(GHADI_KINDS, 'Must be jodi, panna or open-close');

/** The weekdays a ghadi runs, 0 = Sunday … 6 = Saturday: at least one, each once. */
export const ghadiDays = z
  .array(
    z.number('Must be a weekday number').int().min(0, 'Must be 0 to 6').max(6, 'Must be 0 to 6'),
    'Must be a list of weekdays',
  )
  .min(1, 'Pick at least one day')
  .max(7, 'Must list each weekday at most once')
  .refine((days) => new Set(days).size === days.length, 'Must list each weekday at most once')
  .transform((days) => [...days].sort((a, b) => a - b));

/**
 * Kind, OpenTime, Days and Confirmations are optional: a client that sends none of them makes a daily jodi ghadi,
 * and a PUT without them keeps the ghadi's.
 */
export const ghadiInput = z.object({
  NameEn: nameEn,
  NameHn: requiredText(60),
  RTime: requiredText(30),
  OrderId: wholeNumber,
  GID: positiveId.optional(),
  Kind: ghadiKind.optional(),
  /** An open/close market's open time (RTime is then its close time); null for other kinds. */
  OpenTime: requiredText(30).nullable().optional(),
  Days: ghadiDays.optional(),
  /** 1 (one person publishes) or 2 (two people must enter the same value): decision 0020. */
  Confirmations: ghadiConfirmations.optional(),
});
export type GhadiInput = z.infer<typeof ghadiInput>;

export const ghadiRecord = z.object({
  _id: z.string(),
  id: z.string(),
  GID: z.number().int(),
  NameEn: z.string(),
  NameHn: z.string(),
  RTime: z.string(),
  OrderId: z.number().int(),
  Kind: ghadiKind,
  /** An open/close market's open time; null for other kinds. */
  OpenTime: z.string().nullable(),
  /** The weekdays it runs, 0 = Sunday … 6 = Saturday, ascending. */
  Days: z.array(z.number().int()),
  /** How many people must enter the same value before it is published: 1 or 2. */
  Confirmations: z.union([z.literal(1), z.literal(2)]),
  /** Why it does not run today in the site's time zone (a holiday, or not one of its Days), or null. */
  Closed: z.enum(['holiday', 'off-day']).nullable(),
  /** Today's result in the site's time zone, "" when none. */
  TodayResult: z.string(),
  YesterdayResult: z.string(),
  /** The latest declared value, "" when none. */
  Result: z.string(),
  isActive: z.boolean(),
  /** Today's result replaced an earlier value (false when there is none). */
  Corrected: z.boolean(),
  /** The value today's result replaced, or null. */
  Previous: z.string().nullable(),
  /** When today's result was declared (ISO 8601 UTC), or null when there is none. */
  DeclaredAt: z.string().nullable(),
});
export type GhadiRecord = z.infer<typeof ghadiRecord>;
