import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failureAnswer } from '../../../shared/schemas/common.js';
import { NotFoundError, UnauthorizedError } from '../../errors.js';
import { bearerToken } from '../../plugins/access.js';
import type { ClusterMetrics } from './cluster-metrics.js';

/** Compared as digests: equal lengths, and no early exit that would time the token out. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * GET /metrics in Prometheus' text format, for a scraper holding METRICS_TOKEN. Without the setting
 * it answers 404 as an unknown API address does (not the web app page a browser gets at an unknown
 * address): nothing says metrics exist.
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
          401: failureAnswer.describe('Without the token, or with another'),
          404: failureAnswer.describe('METRICS_TOKEN is not set'),
        },
      },
    },
    async (request, reply) => {
      if (!token) throw new NotFoundError(`Not found: ${request.method} /metrics`);
      const given = bearerToken(request);
      if (!given || !sameSecret(given, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new UnauthorizedError('The metrics token is required');
      }
      return reply.type(metrics.contentType).send(await metrics.text());
    },
  );
};
