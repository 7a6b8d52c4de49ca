import { z } from 'zod';
import { holidayInput } from '../../../shared/schemas/holidays.js';

/**
 * The API's holiday rules, read from the form's controls: the ghadi select's value is text, empty
 * for "All ghadis" (sent as null), and an empty date says "required" rather than "not a date".
 * (A .pipe() into the API's GID would not type-check: that rule also takes numbers.)
 */
export const holidayForm = holidayInput.extend({
  Date: z.string().trim().min(1, 'This field is required').pipe(holidayInput.shape.Date),
  GID: z.string().transform((value, ctx) => {
    if (value === '') return null;
    const parsed = holidayInput.shape.GID.safeParse(value);
    if (parsed.success) return parsed.data ?? null;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  }),
  Note: z.string().pipe(holidayInput.shape.Note.unwrap()),
});

export type HolidayFormValues = z.input<typeof holidayForm>;
export type HolidayFormOutput = z.output<typeof holidayForm>;
