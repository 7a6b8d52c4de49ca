import { z } from 'zod';
import { calendarDate } from './results.js';

/** How many people must enter the same value before a ghadi's result is published (decision 0020). */
export const CONFIRMATION_COUNTS = [1, 2] as const;
export const ghadiConfirmations = z.union([z.literal(1), z.literal(2)], 'Must be 1 or 2');

/** The message of the 202 answer a held submission gets, and the agent's screens show. */
export const PENDING_MESSAGE = 'Waiting for a second confirmation';
/** The message of the 409 answer a submission gets when another person entered a different value. */
export const MISMATCH_MESSAGE =
  'Another person entered a different value for this ghadi and date; an admin has been alerted. Check your value, or ask an admin';

/** A held submission's answer (202): nothing is public yet. */
export const pendingAnswer = z.object({
  success: z.literal(true),
  pending: z.literal(true),
  message: z.string(),
});
export type PendingAnswer = z.infer<typeof pendingAnswer>;

/** A submission that differs from another person's pending value (409); neither value is shown. */
export const mismatchAnswer = z.object({
  success: z.literal(false),
  mismatch: z.literal(true),
  message: z.string(),
});
export type MismatchAnswer = z.infer<typeof mismatchAnswer>;

/** One person's pending entry. Agents are shown only their own. */
export const pendingEntry = z.object({
  UserId: z.number().int(),
  UserName: z.string(),
  Result: z.string(),
  /** When it was (last) entered: ISO 8601 UTC with milliseconds. */
  SubmittedAt: z.string(),
});
export type PendingEntry = z.infer<typeof pendingEntry>;

/** A ghadi and date awaiting a confirmation: its entries, and whether two of them differ. */
export const pendingDeclaration = z.object({
  GID: z.number().int(),
  Name: z.string(),
  Date: z.string(),
  /** The value now published for that ghadi and date (what a confirmed entry would replace), or null. */
  Current: z.string().nullable(),
  /** True when two people entered different values: an admin must declare the value or discard. */
  Mismatch: z.boolean(),
  Entries: z.array(pendingEntry),
});
export type PendingDeclaration = z.infer<typeof pendingDeclaration>;

export const pendingListAnswer = z.object({
  success: z.literal(true),
  data: z.array(pendingDeclaration),
});

/** DELETE /api/pending/{gid}/{date}: an admin discards a ghadi's pending entries of a date. */
export const pendingParams = z.object({
  gid: z.coerce.number().int().min(1).max(2_147_483_647),
  date: calendarDate,
});
