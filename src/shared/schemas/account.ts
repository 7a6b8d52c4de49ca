import { z } from 'zod';
import { listAnswer } from './common.js';
import { newPassword, sessionUser } from './users.js';

/** GET /api/users/me: the signed-in user as the login answers it, with what guards the account. */
export const meRecord = sessionUser.extend({
  /** Whether two-factor sign-in (TOTP) is on for the account. */
  TwoFactor: z.boolean(),
  /** How many passkeys the account has. */
  Passkeys: z.number().int(),
});
export type MeRecord = z.infer<typeof meRecord>;

export const meAnswer = z.object({ success: z.literal(true), data: meRecord });
export type MeAnswer = z.infer<typeof meAnswer>;

/** A live session of the caller's: never its token. */
export const sessionRecord = z.object({
  /** The session's id (its token's jti): what DELETE /api/users/me/sessions/{id} takes. */
  _id: z.string(),
  /** ISO 8601 UTC instants. */
  CreatedAt: z.string(),
  /** The latest request, to the minute. */
  LastSeenAt: z.string(),
  /** The address it signed in from, as the app reads it behind TRUST_PROXY. */
  Ip: z.string(),
  /** As sent at sign-in, without control characters, at most 256 characters. */
  UserAgent: z.string(),
  /** The session this request came with. */
  Current: z.boolean(),
});
export type SessionRecord = z.infer<typeof sessionRecord>;

export const sessionsAnswer = listAnswer(sessionRecord);
export type SessionsAnswer = z.infer<typeof sessionsAnswer>;

export const sessionIdParams = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be a session id'),
});

/** POST /api/users/me/sessions/end-others and DELETE /api/users/{id}/sessions: how many ended. */
export const sessionsEndedAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  ended: z.number().int(),
});
export type SessionsEndedAnswer = z.infer<typeof sessionsEndedAnswer>;

export const ownPasswordInput = z
  .object({
    CurrentPassword: z
      .string('This field is required')
      .min(1, 'This field is required')
      .max(128, 'Must be at most 128 characters'),
    NewPassword: newPassword,
  })
  .refine((input) => input.NewPassword !== input.CurrentPassword, {
    path: ['NewPassword'],
    message: 'Must differ from the current password',
  });
export type OwnPasswordInput = z.infer<typeof ownPasswordInput>;
