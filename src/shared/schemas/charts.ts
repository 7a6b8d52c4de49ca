import { z } from 'zod';
import { ghadiKind } from './ghadis.js';

/** One date's cell: the value as the public results show it, or null when none was declared. */
export const chartCell = z.object({ Result: z.string(), Corrected: z.boolean() }).nullable();
export type ChartCell = z.infer<typeof chartCell>;

/** GET /api/charts/{name}/{year}: a ghadi's year, 12 months of 31 days. */
export const yearChart = z.object({
  GID: z.number().int(),
  NameEn: z.string(),
  NameHn: z.string(),
  /** Absent for a jodi ghadi; 'panna' or 'open-close' say how its values read (chart-cell-form.ts). */
  Kind: ghadiKind.optional(),
  year: z.number().int(),
  /** Every year with at least one result of the ghadi, ascending. */
  years: z.array(z.number().int()),
  /** months[m][d - 1]: the result of day d of month m + 1, or null (also for days a month lacks). */
  months: z.array(z.array(chartCell).length(31)).length(12),
});
export type YearChart = z.infer<typeof yearChart>;

export const chartGhadi = z.object({
  GID: z.number().int(),
  NameEn: z.string(),
  NameHn: z.string(),
  /** Absent for a jodi ghadi, as on the year chart. */
  Kind: ghadiKind.optional(),
});

/** GET /api/charts/month/{YYYY-MM}: every live ghadi's month, 31 days of one cell per ghadi. */
export const monthChart = z.object({
  month: z.string(),
  /** By OrderId: the columns. */
  ghadis: z.array(chartGhadi),
  /** days[d - 1][i]: ghadis[i]'s result of day d, or null. */
  days: z.array(z.array(chartCell)).length(31),
});
export type MonthChart = z.infer<typeof monthChart>;

export const yearChartAnswer = z.object({ success: z.literal(true), data: yearChart });
export const monthChartAnswer = z.object({ success: z.literal(true), data: monthChart });

export const yearChartParams = z.object({
  name: z.string().min(1).max(1000),
  year: z
    .string()
    .regex(/^\d{4}$/, 'Must be a year (YYYY)')
    .transform(Number),
});

export const monthChartParams = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Must be a month (YYYY-MM)'),
});
