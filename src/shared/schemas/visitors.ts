import { z } from 'zod';

export const visitorStats = z.object({
  success: z.literal(true),
  totalUsers: z.number().int(),
  activeUsers: z.number().int(),
});
export type VisitorStats = z.infer<typeof visitorStats>;

export const SESSION_ID_MAX_LENGTH = 128;

/** POST /api/visitor/track's one input, checked by its route and by the server's fast path alike. */
export const trackHeaders = z.object({
  'x-session-id': z
    .string('Is required')
    .trim()
    .min(1, 'Is required')
    .max(SESSION_ID_MAX_LENGTH, `Must be at most ${SESSION_ID_MAX_LENGTH} characters`)
    .regex(/^[\x21-\x7e]+$/, 'Must be printable characters without spaces'),
});
