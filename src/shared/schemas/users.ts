import { z } from 'zod';
import { requiredText } from './common.js';
import { twoFactorCode } from './two-factor.js';

export const userTypes = ['admin', 'agent'] as const;
export type UserType = (typeof userTypes)[number];

const userName = requiredText(50).regex(
  /^[A-Za-z0-9._@-]+$/,
  'Use letters, digits, dots, dashes, underscores or @',
);
const email = requiredText(254).pipe(z.email('Must be a valid email address'));
export const newPassword = z
  .string('This field is required')
  .min(8, 'Must be at least 8 characters')
  .max(128, 'Must be at most 128 characters');

export const loginInput = z.object({
  UserName: requiredText(50),
  Password: z
    .string('This field is required')
    .min(1, 'This field is required')
    .max(128, 'Must be at most 128 characters'),
  /**
   * Only when two-factor is on: the 6-digit code of the authenticator app or an unused backup code.
   * Without it such an account answers 401 with `twoFactorRequired: true` (see two-factor.ts).
   */
  Code: twoFactorCode.optional(),
});
export type LoginInput = z.infer<typeof loginInput>;

/** Only agents are created through the API; admins come from the bootstrap. */
export const userCreateInput = z.object({
  UserName: userName,
  DisplayName: requiredText(100),
  Email: email,
  Password: newPassword,
  UserType: z.literal('agent', 'Only agent accounts can be created').optional(),
  isActive: z.boolean('Must be true or false').default(true),
});
export type UserCreateInput = z.infer<typeof userCreateInput>;

/** A blank password keeps the old one; UserType may only move an admin down to agent. */
export const userUpdateInput = z.object({
  UserName: userName,
  DisplayName: requiredText(100),
  Email: email,
  Password: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(newPassword.optional()),
  UserType: z.enum(userTypes, 'Must be admin or agent').optional(),
  isActive: z.boolean('Must be true or false').optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateInput>;

export const userRecord = z.object({
  _id: z.string(),
  id: z.string(),
  User_Id: z.number().int(),
  UserName: z.string(),
  DisplayName: z.string(),
  Email: z.string(),
  UserType: z.enum(userTypes),
  userType: z.enum(userTypes),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserRecord = z.infer<typeof userRecord>;

export const sessionUser = userRecord
  .pick({
    _id: true,
    id: true,
    User_Id: true,
    UserName: true,
    DisplayName: true,
    Email: true,
    UserType: true,
    userType: true,
    isActive: true,
  })
  .extend({
    /**
     * Only on a first admin signed in with the password the server generated: every call but
     * /api/users/me/... answers 403 until PUT /api/users/me/password replaces it.
     */
    passwordChangeRequired: z.literal(true).optional(),
  });
export type SessionUser = z.infer<typeof sessionUser>;

export const loginAnswer = z.object({ success: z.literal(true), token: z.string(), user: sessionUser });
export type LoginAnswer = z.infer<typeof loginAnswer>;
