import { z } from 'zod';
import { positiveId } from './common.js';
import { calendarDate } from './results.js';

/** A date a ghadi (or, with no GID, every ghadi) does not run: the board says so and agents may not declare. */
export const holidayInput = z.object({
  Date: calendarDate,
  /** Absent or null: every ghadi. */
  GID: positiveId.nullable().optional(),
  Note: z.string().trim().max(120, 'Must be at most 120 characters').optional(),
});
export type HolidayInput = z.infer<typeof holidayInput>;

export const holidayRecord = z.object({
  _id: z.string(),
  id: z.string(),
  Date: z.string(),
  /** Null: every ghadi. */
  GID: z.number().int().nullable(),
  Note: z.string(),
});
export type HolidayRecord = z.infer<typeof holidayRecord>;
