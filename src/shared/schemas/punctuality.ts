import { z } from 'zod';

/** GET /api/punctuality/{name}: one ghadi's record over the 30 dates ending today (docs/api.md). */
export const punctualityRecord = z.object({
  from: z.string().describe('The first date counted (YYYY-MM-DD, the site’s zone): 29 days before today'),
  to: z.string().describe('The last date counted: today'),
  days: z
    .number()
    .int()
    .describe(
      'Dates the ghadi ran (holidays and weekdays off its Days left out, from the day it was created) ' +
        'that owed a result: declared, or over (past) without one; dates whose first value came by ' +
        'import are in `imported` instead',
    ),
  declared: z.number().int().describe('Of those days, the days with a result'),
  onTime: z
    .number()
    .int()
    .nullable()
    .describe(
      'Of those days, the days first declared before RTime + OVERDUE_AFTER_MINUTES (an open/close ' +
        'market: its first whole value, against its close time); null when the RTime cannot be read',
    ),
  medianDelayMinutes: z
    .number()
    .nullable()
    .describe(
      'The median of the declared days’ minutes from RTime to the first declaration (one decimal; one ' +
        'before RTime counts 0); null without any or without a readable RTime',
    ),
  corrections: z
    .number()
    .int()
    .describe('Log entries that replaced a value of a date in the range (a market’s close step is not one)'),
  imported: z
    .number()
    .int()
    .describe('Dates whose first value came by CSV import: no declaration time, neither on time nor late'),
});
export type PunctualityRecord = z.infer<typeof punctualityRecord>;

export const punctualityAnswer = z.object({ success: z.literal(true), data: punctualityRecord });
