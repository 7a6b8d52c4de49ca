import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successAnswer } from '../../../shared/schemas/common.js';
import { trackHeaders, visitorStats } from '../../../shared/schemas/visitors.js';
import { clientGroup } from '../../lib/client-address.js';
import type { VisitorCounter } from './visitor-counter.js';

/** Busy public routes: no request log lines, no compression hooks (the answers are tiny). */
const HOT = { compress: false, decompress: false } as const;

export const visitorsRoutes: FastifyPluginAsyncZod<{ visitors: VisitorCounter }> = async (
  app,
  { visitors },
) => {
  // The server's fast path (public-site/fast-path.ts) answers valid requests the same way before Fastify.
  app.post(
    '/api/visitor/track',
    {
      ...HOT,
      config: { access: 'public', quietLog: true },
      schema: { headers: trackHeaders, response: { 200: successAnswer } },
    },
    async (request) => {
      visitors.track(request.headers['x-session-id'], clientGroup(request.ip));
      return { success: true as const };
    },
  );

  app.get(
    '/api/visitor/stats',
    { ...HOT, config: { access: 'public', quietLog: true }, schema: { response: { 200: visitorStats } } },
    async () => ({ success: true as const, ...visitors.stats() }),
  );
};
