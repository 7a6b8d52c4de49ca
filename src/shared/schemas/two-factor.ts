import { z } from 'zod';

/**
 * Two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30 s steps, one step of drift either
 * way) and single-use backup codes. Shared by the server's routes and the web app's forms.
 */

/** The 401 of a sign-in whose password was right but which needs (or sent a wrong) code. */
export const TWO_FACTOR_REQUIRED_MESSAGE =
  'Enter the 6-digit code from your authenticator app, or a backup code';
/** The 401 of a sign-in whose code was wrong, already used, or a used backup code. */
export const TWO_FACTOR_INVALID_CODE_MESSAGE = 'Invalid or already used code';
/** The 403 of an admin session without a second factor while REQUIRE_ADMIN_2FA=true. */
export const TWO_FACTOR_SETUP_REQUIRED_MESSAGE =
  'Two-factor sign-in is required for admins: set it up on your Account page (POST /api/users/me/2fa/setup), then sign in again with a code';
/** The 400 of enable or disable with a wrong code. */
export const TWO_FACTOR_WRONG_CODE_MESSAGE =
  'The code is not valid; check the time on your device and try again';
/** The 400 of enable without a setup first. */
export const TWO_FACTOR_NO_PENDING_MESSAGE = 'Start the setup first (POST /api/users/me/2fa/setup)';
/** The 400 of setup or enable when two-factor is already on. */
export const TWO_FACTOR_ALREADY_ON_MESSAGE = 'Two-factor sign-in is already on; turn it off first';
/** The 400 of disable when two-factor is off. */
export const TWO_FACTOR_NOT_ON_MESSAGE = 'Two-factor sign-in is not on';
/** The 400 of disable with a wrong password. */
export const TWO_FACTOR_WRONG_PASSWORD_MESSAGE = 'The password is not correct';
export const TWO_FACTOR_ENABLED_MESSAGE = 'Two-factor sign-in is on; keep the backup codes somewhere safe';
export const TWO_FACTOR_DISABLED_MESSAGE = 'Two-factor sign-in is off';

/** How many backup codes enable hands out. */
export const BACKUP_CODE_COUNT = 10;

/** A code from the authenticator app: six digits (spaces, as some apps show "123 456", are dropped). */
export const totpCode = z
  .string('This field is required')
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Must be the 6-digit code from your authenticator app'));

/**
 * A backup code as handed out: 16 letters and digits of the base32 alphabet in groups of four,
 * `abcd-efgh-ijkl-mnop`. Accepted in any case, with or without the dashes and spaces.
 */
export const backupCodePattern = /^[a-z2-7]{16}$/;

/** A TOTP code or a backup code, normalised: digits only, or the 16 backup-code characters in lower case. */
export const twoFactorCode = z
  .string('This field is required')
  .max(64, 'Must be a 6-digit code or a backup code')
  .transform((value) => value.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, 'This field is required')
      .refine(
        (value) => /^\d{6}$/.test(value) || backupCodePattern.test(value),
        'Must be a 6-digit code or a backup code',
      ),
  );

/** POST /api/users/me/2fa/setup: a new secret, pending until enable; shown this once. */
export const twoFactorSetupAnswer = z.object({
  success: z.literal(true),
  /** Base32 (RFC 4648, no padding), for typing into an app that cannot scan. */
  secret: z.string(),
  /** otpauth://totp/<site>:<username>?secret=…&issuer=<site>&algorithm=SHA1&digits=6&period=30, for the QR code. */
  otpauthUrl: z.string(),
});
export type TwoFactorSetupAnswer = z.infer<typeof twoFactorSetupAnswer>;

/** POST /api/users/me/2fa/enable: a code of the pending secret, proving the app has it. */
export const twoFactorEnableInput = z.object({ Code: totpCode });
export type TwoFactorEnableInput = z.infer<typeof twoFactorEnableInput>;

export const twoFactorEnableAnswer = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  /** Ten single-use codes, `abcd-efgh-ijkl-mnop`, shown this once: the server keeps only their hashes. */
  backupCodes: z.array(z.string()),
});
export type TwoFactorEnableAnswer = z.infer<typeof twoFactorEnableAnswer>;

/** POST /api/users/me/2fa/disable: the password and a code (or a backup code). */
export const twoFactorDisableInput = z.object({
  Password: z
    .string('This field is required')
    .min(1, 'This field is required')
    .max(128, 'Must be at most 128 characters'),
  Code: twoFactorCode,
});
export type TwoFactorDisableInput = z.infer<typeof twoFactorDisableInput>;

/** POST /api/users/me/2fa/disable and DELETE /api/users/{id}/2fa. */
export const twoFactorDisableAnswer = z.object({ success: z.literal(true), message: z.string().optional() });
export type TwoFactorDisableAnswer = z.infer<typeof twoFactorDisableAnswer>;

/**
 * The 401 of POST /api/users/login when the password was right and two-factor is on: without a
 * code (message TWO_FACTOR_REQUIRED_MESSAGE) or with a wrong one (TWO_FACTOR_INVALID_CODE_MESSAGE).
 * No token. A wrong password answers the ordinary 401, without the flag.
 */
export const twoFactorRequiredAnswer = z.object({
  success: z.literal(false),
  twoFactorRequired: z.literal(true),
  message: z.string(),
});
export type TwoFactorRequiredAnswer = z.infer<typeof twoFactorRequiredAnswer>;

/** The 403 of an admin call from a password-only admin session while REQUIRE_ADMIN_2FA=true. */
export const twoFactorSetupRequiredAnswer = z.object({
  success: z.literal(false),
  twoFactorSetupRequired: z.literal(true),
  message: z.string(),
});
export type TwoFactorSetupRequiredAnswer = z.infer<typeof twoFactorSetupRequiredAnswer>;
