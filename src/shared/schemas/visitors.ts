import { z } from 'zod';

export const visitorStats = z.object({
  success: z.literal(true),
  totalUsers: z.number().int(),
  activeUsers: z.number().int(),
});
export type VisitorStats = z.infer<typeof visitorStats>;

export const SESSION_ID_MAX_LENGTH = 128;

/**
 * A visitor's session id, as the x-session-id header of POST /api/visitor/track gives it: one check,
 * as it runs on every visit. Node has trimmed spaces and tabs around the value; any other white space
 * (a no-break space, say) is refused with the rest.
 */
export const sessionIdHeader = z
  .string('Is required')
  .regex(
    new RegExp(`^[\\x21-\\x7e]{1,${SESSION_ID_MAX_LENGTH}}$`),
    `Must be 1 to ${SESSION_ID_MAX_LENGTH} printable characters without spaces`,
  );

/**
 * POST /api/visitor/track's one input, checked by its route; the server's fast path checks the header
 * alone with the same schema (half the cost of the object's).
 */
export const trackHeaders = z.object({ 'x-session-id': sessionIdHeader });
