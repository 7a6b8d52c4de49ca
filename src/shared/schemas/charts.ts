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

/**
 * One running weekday's cell of a weekly chart: null (no result, or a date outside the year), a
 * holiday, or a result split into its parts (src/shared/matka.ts partsOf).
 */
export const weekCell = z.union([
  z.null(),
  z.object({ Date: z.string(), Holiday: z.literal(true) }),
  z.object({
    Date: z.string(),
    /** The stored value: '123-68-459', '123-6' (an open half), '128-1' (a starline panna). */
    Result: z.string(),
    /** The open panna (a starline ghadi's panna). */
    Open: z.string(),
    /** The jodi; an open half's open ank; a starline panna's ank. */
    Jodi: z.string(),
    /** The close panna; null while only the open half is declared, and for a starline ghadi. */
    Close: z.string().nullable(),
    Corrected: z.boolean(),
  }),
]);
export type WeekCell = z.infer<typeof weekCell>;

/** GET /api/charts/{name}/{year}/weeks: a panna or open/close ghadi's year, a row per week. */
export const weeklyChart = z.object({
  GID: z.number().int(),
  NameEn: z.string(),
  NameHn: z.string(),
  Kind: z.enum(['panna', 'open-close']),
  year: z.number().int(),
  /** Every year with at least one result of the ghadi, ascending (as the year chart's). */
  years: z.array(z.number().int()),
  /** The weekdays it runs (0 = Sunday), Monday first: the columns. */
  days: z.array(z.number().int()),
  /** Monday to Sunday, oldest first, consecutive; cells[i] is days[i]'s date of the week. */
  weeks: z.array(z.object({ from: z.string(), to: z.string(), cells: z.array(weekCell) })),
});
export type WeeklyChart = z.infer<typeof weeklyChart>;

export const weeklyChartAnswer = z.object({ success: z.literal(true), data: weeklyChart });
