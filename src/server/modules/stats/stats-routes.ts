import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dailyStatsAnswer, dailyStatsQuery } from '../../../shared/schemas/site-stats.js';
import type { DailyStats } from './daily-stats.js';

/** The site's numbers for the admin dashboard's plots (admins: routes are admin-only unless they say). */
export const statsRoutes: FastifyPluginAsyncZod<{ stats: DailyStats }> = async (app, { stats }) => {
  app.get(
    '/api/stats/daily',
    { schema: { querystring: dailyStatsQuery, response: { 200: dailyStatsAnswer } } },
    async (request) => ({ success: true as const, data: await stats.daily(request.query) }),
  );
};
