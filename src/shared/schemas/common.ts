import { z } from 'zod';

/** Whole numbers arrive as JSON numbers or, from HTML inputs, as digit strings. */
export const wholeNumber = z
  .union([
    z.number('Must be a number'),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'Must be a whole number'),
  ])
  .transform(Number)
  .pipe(
    z.number().int('Must be a whole number').min(0, 'Must be 0 or more').max(1_000_000_000, 'Is too large'),
  );

export const positiveId = z
  .union([z.number('Must be a number'), z.string().trim().regex(/^\d+$/, 'Must be a positive number')])
  .transform(Number)
  .pipe(
    z
      .number()
      .int('Must be a positive number')
      .min(1, 'Must be a positive number')
      .max(2_147_483_647, 'Is too large'),
  );

export const requiredText = (max: number) =>
  z
    .string('This field is required')
    .trim()
    .min(1, 'This field is required')
    .max(max, `Must be at most ${max} characters`);

/** Record ids are 32-bit integers in the database; a larger one is no record id (and would upset PostgreSQL). */
export const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, 'Must be a record id')
    .refine((id) => Number(id) <= 2_147_483_647, 'Must be a record id'),
});

export const failureAnswer = z.object({
  success: z.literal(false),
  /** Only on the 403 of a first admin who must change the generated password first. */
  passwordChangeRequired: z.literal(true).optional(),
  /** Only on the 401 of a sign-in that needs a two-factor code (or sent a wrong one). */
  twoFactorRequired: z.literal(true).optional(),
  /** Only on the 403 of a password-only admin session while REQUIRE_ADMIN_2FA=true. */
  twoFactorSetupRequired: z.literal(true).optional(),
  message: z.string(),
});
export const successAnswer = z.object({ success: z.literal(true), message: z.string().optional() });
export const countAnswer = z.object({ success: z.literal(true), count: z.number().int() });

export const listAnswer = <T extends z.ZodType>(item: T) =>
  z.object({ success: z.literal(true), data: z.array(item) });
export const itemAnswer = <T extends z.ZodType>(item: T) =>
  z.object({ success: z.literal(true), message: z.string().optional(), data: item });

export const pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type Pagination = z.infer<typeof pagination>;

export type FailureAnswer = z.infer<typeof failureAnswer>;
