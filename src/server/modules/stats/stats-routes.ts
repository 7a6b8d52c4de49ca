import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dailyStatsAnswer,
  dailyStatsQuery,
  ghadiStatsAnswer,
  ghadiStatsQuery,
} from '../../../shared/schemas/site-stats.js';
import type { DailyStats } from './daily-stats.js';
import type { GhadiStats } from './ghadi-stats.js';

/** The site's numbers for the admin dashboard's plots (admins: routes are admin-only unless they say). */
export const statsRoutes: FastifyPluginAsyncZod<{ stats: DailyStats; ghadiStats: GhadiStats }> = async (
  app,
  { stats, ghadiStats },
) => {
  app.get(
    '/api/stats/daily',
    { schema: { querystring: dailyStatsQuery, response: { 200: dailyStatsAnswer } } },
    async (request) => ({ success: true as const, data: await stats.daily(request.query) }),
  );
  app.get(
    '/api/stats/ghadis',
    { schema: { querystring: ghadiStatsQuery, response: { 200: ghadiStatsAnswer } } },
    async (request) => ({ success: true as const, data: await ghadiStats.perGhadi(request.query) }),
  );
};
