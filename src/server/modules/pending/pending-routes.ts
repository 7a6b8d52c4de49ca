import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successAnswer } from '../../../shared/schemas/common.js';
import { pendingListAnswer, pendingParams } from '../../../shared/schemas/pending.js';
import { actorOf } from '../activity/request-actor.js';
import type { PendingService } from './pending-service.js';

/** Entries held for a second person: listed to staff (an agent sees their own), discarded by admins. */
export const pendingRoutes: FastifyPluginAsyncZod<{ pending: PendingService }> = async (app, { pending }) => {
  app.get(
    '/api/pending',
    { config: { access: 'staff' }, schema: { response: { 200: pendingListAnswer } } },
    async (request) => ({ success: true as const, data: await pending.list(actorOf(request)) }),
  );

  app.delete(
    '/api/pending/:gid/:date',
    { schema: { params: pendingParams, response: { 200: successAnswer } } },
    async (request) => {
      const count = await pending.discard(actorOf(request), request.params.gid, request.params.date);
      return {
        success: true as const,
        message: `Discarded ${count} pending ${count === 1 ? 'entry' : 'entries'}`,
      };
    },
  );
};
