import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayAnswer } from '../../../shared/schemas/today.js';
import type { TodayService } from './today-service.js';

/** The admin dashboard's board of today's ghadis (admins: routes are admin-only unless they say). */
export const todayRoutes: FastifyPluginAsyncZod<{ today: TodayService }> = async (app, { today }) => {
  app.get('/api/today', { schema: { response: { 200: todayAnswer } } }, async () => ({
    success: true as const,
    data: await today.board(),
  }));
};
