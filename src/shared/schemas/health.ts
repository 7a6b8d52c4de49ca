import { z } from 'zod';

/** The answer of GET /healthz ("live") and of GET /readyz when the process can serve ("ready"). */
export const probeAnswer = z.object({
  success: z.literal(true),
  status: z.enum(['live', 'ready']),
});
