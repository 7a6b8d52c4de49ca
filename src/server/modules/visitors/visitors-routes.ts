import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successAnswer } from '../../../shared/schemas/common.js';
import { SESSION_ID_MAX_LENGTH, visitorStats } from '../../../shared/schemas/visitors.js';
import type { VisitorCounter } from './visitor-counter.js';

const trackHeaders = z.object({
  'x-session-id': z
    .string('Is required')
    .trim()
    .min(1, 'Is required')
    .max(SESSION_ID_MAX_LENGTH, `Must be at most ${SESSION_ID_MAX_LENGTH} characters`)
    .regex(/^[\x21-\x7e]+$/, 'Must be printable characters without spaces'),
});

export const visitorsRoutes: FastifyPluginAsyncZod<{ visitors: VisitorCounter }> = async (
  app,
  { visitors },
) => {
  app.post(
    '/api/visitor/track',
    { config: { access: 'public' }, schema: { headers: trackHeaders, response: { 200: successAnswer } } },
    async (request) => {
      visitors.track(request.headers['x-session-id']);
      return { success: true as const };
    },
  );

  app.get(
    '/api/visitor/stats',
    { config: { access: 'public' }, schema: { response: { 200: visitorStats } } },
    async () => ({ success: true as const, ...visitors.stats() }),
  );
};
