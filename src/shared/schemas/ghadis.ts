import { z } from 'zod';
import { foldName } from '../names.js';
import { positiveId, requiredText, wholeNumber } from './common.js';

/**
 * GET /api/results/count and /api/results/export.csv are admin routes, and /api/charts/month/{month}
 * is the monthly chart, so no ghadi's public /api/results/{name} or /api/charts/{name}/{year} may be
 * named like them.
 */
export const RESERVED_GHADI_NAMES: readonly string[] = ['count', 'export.csv', 'month'];

/** NameEn becomes a URL path segment (/satta-results/{name}), so it may not hold URL delimiters. */
const nameEn = requiredText(60)
  .regex(/^[^/?#%\\<>]+$/, 'May not contain / ? # % \\ < or >')
  .refine((name) => !RESERVED_GHADI_NAMES.includes(foldName(name)), 'This name is reserved');

export const ghadiInput = z.object({
  NameEn: nameEn,
  NameHn: requiredText(60),
  RTime: requiredText(30),
  OrderId: wholeNumber,
  GID: positiveId.optional(),
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
