import { z } from 'zod';

export const visitorStats = z.object({
  success: z.literal(true),
  totalUsers: z.number().int(),
  activeUsers: z.number().int(),
});
export type VisitorStats = z.infer<typeof visitorStats>;

export const SESSION_ID_MAX_LENGTH = 128;
