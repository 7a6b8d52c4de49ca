import { z } from 'zod';
import { calendarDate } from './results.js';

/** The longest range GET /api/stats/daily answers, in days (a leap year). */
export const MAX_STATS_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days from `from` to `to`, both counted. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

export const dailyStatsQuery = z
  .object({ from: calendarDate, to: calendarDate })
  .refine((query) => query.from <= query.to, { path: ['to'], message: 'Must be on or after from' })
  .refine((query) => daysInRange(query.from, query.to) <= MAX_STATS_DAYS, {
    path: ['to'],
    message: `The range may span at most ${MAX_STATS_DAYS} days`,
  });
export type DailyStatsQuery = z.infer<typeof dailyStatsQuery>;

export const dailyStatsEntry = z.object({
  /** A day in the site's time zone, YYYY-MM-DD. */
  date: z.string(),
  visitors: z.number().int().describe('Visitor sessions first seen that day'),
  declarations: z
    .number()
    .int()
    .describe('Results first declared that day (by an agent, an admin or an import)'),
  corrections: z.number().int().describe('Results given another value that day'),
});
export type DailyStatsEntry = z.infer<typeof dailyStatsEntry>;

export const dailyStatsAnswer = z.object({ success: z.literal(true), data: z.array(dailyStatsEntry) });

/** GET /api/stats/ghadis takes the same range, with the same bounds. */
export const ghadiStatsQuery = dailyStatsQuery;
export type GhadiStatsQuery = DailyStatsQuery;

export const ghadiStatsEntry = z.object({
  GID: z.number().int(),
  NameEn: z.string(),
  days: z
    .number()
    .int()
    .describe(
      'Days of the range a result was expected on: up to today, from the day the ghadi was created, ' +
        'each once its overdue time has passed (a day without a readable RTime, once it is over), or once ' +
        'declared; days whose first value came by import are in `imported` instead',
    ),
  declared: z.number().int().describe('Of those days, the days with a result'),
  onTime: z
    .number()
    .int()
    .describe('Of those days, the days first declared before dueAt + OVERDUE_AFTER_MINUTES'),
  onTimeRate: z
    .number()
    .nullable()
    .describe('onTime / days, 0 to 1 (three decimals); null without days or without a readable RTime'),
  medianDelayMinutes: z
    .number()
    .nullable()
    .describe(
      'The median of the declared days’ delays from dueAt to the first declaration, in minutes (one ' +
        'decimal; a declaration before dueAt counts 0); null without any or without a readable RTime',
    ),
  imported: z
    .number()
    .int()
    .describe(
      'Days of the range with a result whose first value came by CSV import: it has no declaration ' +
        'time of its own, so it counts neither on time nor late (nor in days)',
    ),
});
export type GhadiStatsEntry = z.infer<typeof ghadiStatsEntry>;

export const ghadiStatsAnswer = z.object({ success: z.literal(true), data: z.array(ghadiStatsEntry) });
