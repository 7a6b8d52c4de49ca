import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UnauthorizedError } from '../../errors.js';
import type { ClusterMetrics } from './cluster-metrics.js';

/** Compared as digests: equal lengths, and no early exit that would time the token out. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * GET /metrics in Prometheus' text format, for a scraper holding METRICS_TOKEN. Without the setting
 * the route answers as an unknown address does: nothing says metrics exist.
 */
export const metricsRoutes: FastifyPluginAsyncZod<{
  metrics: ClusterMetrics;
  token: string | undefined;
}> = async (app, { metrics, token }) => {
  app.get(
    '/metrics',
    {
      config: { access: 'public', quietLog: true },
      schema: {
        response: {
          200: { description: 'Prometheus text format', content: { 'text/plain': { schema: z.string() } } },
        },
      },
    },
    async (request, reply) => {
      if (!token) return reply.callNotFound();
      const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      if (!match?.[1] || !sameSecret(match[1], token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new UnauthorizedError('The metrics token is required');
      }
      return reply.type(metrics.contentType).send(await metrics.text());
    },
  );
};
