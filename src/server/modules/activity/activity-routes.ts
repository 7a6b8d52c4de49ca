import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activityAnswer, activityQuery } from '../../../shared/schemas/activity.js';
import type { ActivityService } from './activity-service.js';

/** GET /api/activity: admins only (routes are admin-only unless they say otherwise). */
export const activityRoutes: FastifyPluginAsyncZod<{ activity: ActivityService }> = async (
  app,
  { activity },
) => {
  app.get(
    '/api/activity',
    { schema: { querystring: activityQuery, response: { 200: activityAnswer } } },
    async (request) => ({ success: true as const, ...(await activity.page(request.query)) }),
  );
};
