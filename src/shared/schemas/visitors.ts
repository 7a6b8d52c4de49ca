import { z } from 'zod';

export const visitorStats = z.object({
  success: z.literal(true),
  totalUsers: z.number().int(),
  activeUsers: z.number().int(),
});
export type VisitorStats = z.infer<typeof visitorStats>;

export const SESSION_ID_MAX_LENGTH = 128;

/**
 * What a session id may be: one check, as it runs on every visit. Node has trimmed spaces and tabs
 * around the header's value; any other white space (a no-break space, say) is refused with the rest.
 * Not global or sticky, so that `test` keeps no state between calls.
 */
export const SESSION_ID_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${SESSION_ID_MAX_LENGTH}}$`);

/** A visitor's session id, as the x-session-id header of POST /api/visitor/track gives it. */
export const sessionIdHeader = z
  .string('Is required')
  .regex(SESSION_ID_PATTERN, `Must be 1 to ${SESSION_ID_MAX_LENGTH} printable characters without spaces`);

/**
 * POST /api/visitor/track's one input, checked by its route; the server's fast path tests the header
 * alone against SESSION_ID_PATTERN, the schema's one rule (zod's parse around it would be a measurable
 * share of a new visitor's request: bench/README.md).
 */
export const trackHeaders = z.object({ 'x-session-id': sessionIdHeader });
