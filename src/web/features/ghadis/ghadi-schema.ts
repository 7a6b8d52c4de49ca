import { z } from 'zod';
import { parseResultTime } from '../../../shared/ghadi-due.js';
import { ALL_DAYS } from '../../../shared/matka.js';
import { ghadiDays, ghadiInput, ghadiKind } from '../../../shared/schemas/ghadis.js';
import { ghadiConfirmations } from '../../../shared/schemas/pending.js';

/**
 * OrderId comes from a text input: an empty one says "required", anything else gets the API's own
 * number rule and messages. (A plain .pipe() would not type-check: the API rule also takes numbers.)
 */
const orderIdText = z
  .string()
  .trim()
  .min(1, 'This field is required')
  .transform((text, ctx) => {
    const parsed = ghadiInput.shape.OrderId.safeParse(text);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });

/** The ticked weekday checkboxes (their values are text), read as the API's list of weekday numbers. */
const daysTicked = z
  .array(z.string())
  .transform((days) => days.map(Number))
  .pipe(ghadiDays);

/** Every weekday ticked, as a new ghadi starts: the checkboxes' values. */
export const EVERY_DAY_TICKED: string[] = ALL_DAYS.map(String);

/** The Confirmations select's value (text), read as the API's 1 or 2. */
const confirmationsChosen = z.string().transform(Number).pipe(ghadiConfirmations);

const minutesOf = (text: string) => {
  const time = parseResultTime(text);
  return time && time.hour * 60 + time.minute;
};

/**
 * The API's ghadi rules, read from text inputs, one schema for the form. GID is the server's to
 * assign. Only an open/close market has an open time, which the board needs to read (its open panna
 * falls due then) and which must come before its close (the Result Time); the server checks the
 * order too, but a message beside the field comes before a request.
 */
export const ghadiForm = ghadiInput
  .omit({ GID: true })
  .extend({
    OrderId: orderIdText,
    Kind: ghadiKind,
    OpenTime: z.string().trim(),
    Days: daysTicked,
    Confirmations: confirmationsChosen,
  })
  .superRefine((values, ctx) => {
    if (values.Kind !== 'open-close') return;
    const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['OpenTime'], message });
    if (values.OpenTime === '') return issue('This field is required');
    const open = minutesOf(values.OpenTime);
    if (open === null) return issue('Write a time such as 3:45 PM or 15:45');
    const close = minutesOf(values.RTime);
    if (close !== null && open >= close) issue('Must be earlier in the day than the Result Time (the close)');
  })
  // Another kind sends null, which also clears the open time of a market made a jodi ghadi again.
  .transform((values) => ({ ...values, OpenTime: values.Kind === 'open-close' ? values.OpenTime : null }));

export type GhadiFormValues = z.input<typeof ghadiForm>;
export type GhadiFormOutput = z.output<typeof ghadiForm>;
