import { z } from 'zod';
import { pagination, positiveId } from './common.js';
import { calendarDate, pageNumber, pageSize } from './results.js';

/** What an entry of the activity trail records: every change through the API, and every sign-in. */
export const ACTIVITY_ACTIONS = [
  'login',
  'login_failed',
  'logout',
  'session_end',
  'password_change',
  'two_factor_enable',
  'two_factor_disable',
  'passkey_add',
  'passkey_remove',
  'user_create',
  'user_update',
  'user_delete',
  'ghadi_create',
  'ghadi_update',
  'ghadi_delete',
  'holiday_create',
  'holiday_delete',
  'assignment_create',
  'assignment_delete',
  'content_create',
  'content_update',
  'content_delete',
  'media_upload',
  'media_delete',
  'result_declare',
  'result_correct',
  'result_hold',
  'result_mismatch',
  'pending_discard',
  'results_import',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export const MAX_ACTIVITY_LIMIT = 100;
export const ACTIVITY_PAGE_SIZE = 50;

export const activityQuery = z
  .object({
    page: pageNumber.default(1),
    limit: pageSize(MAX_ACTIVITY_LIMIT).default(ACTIVITY_PAGE_SIZE),
    userId: positiveId.optional(),
    action: z.enum(ACTIVITY_ACTIONS, `Must be one of ${ACTIVITY_ACTIONS.join(', ')}`).optional(),
    /** Days in the site's time zone, both included. */
    from: calendarDate.optional(),
    to: calendarDate.optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ['to'],
    message: 'Must be on or after from',
  });
export type ActivityQuery = z.infer<typeof activityQuery>;

export const activityEntry = z.object({
  _id: z.string(),
  /** When: ISO 8601 UTC with milliseconds. */
  At: z.string(),
  /** Who: null for a failed login by a user name no account has. */
  UserId: z.number().int().nullable(),
  UserName: z.string().nullable(),
  Role: z.enum(['admin', 'agent']).nullable(),
  Action: z.enum(ACTIVITY_ACTIONS),
  /** On what: the record's id (as in its path) and name, as they were then; no id for a name no account has or an import. */
  Target: z.object({ Id: z.string().nullable(), Name: z.string() }),
  /** What changed: fields with their old → new values; never a password or a token. */
  Summary: z.string(),
  /** The client's address, as the app reads it behind TRUST_PROXY. */
  Ip: z.string(),
  UserAgent: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntry>;

export const activityAnswer = z.object({
  success: z.literal(true),
  data: z.array(activityEntry),
  pagination,
});
export type ActivityAnswer = z.infer<typeof activityAnswer>;
