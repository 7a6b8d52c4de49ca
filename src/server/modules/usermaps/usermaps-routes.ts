import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, itemAnswer, listAnswer, successAnswer } from '../../../shared/schemas/common.js';
import { usermapInput, usermapRecord } from '../../../shared/schemas/usermaps.js';
import { actorOf } from '../activity/request-actor.js';
import type { UsermapsService } from './usermaps-service.js';

export const usermapsRoutes: FastifyPluginAsyncZod<{ usermaps: UsermapsService }> = async (
  app,
  { usermaps },
) => {
  app.get('/api/usermaps', { schema: { response: { 200: listAnswer(usermapRecord) } } }, async () => ({
    success: true as const,
    data: await usermaps.list(),
  }));

  app.post(
    '/api/usermaps',
    { schema: { body: usermapInput, response: { 201: itemAnswer(usermapRecord.array()) } } },
    async (request, reply) =>
      reply.code(201).send({
        success: true,
        message: 'Ghadi assigned',
        data: await usermaps.assign(actorOf(request), request.body),
      }),
  );

  app.delete(
    '/api/usermaps/:id',
    { schema: { params: idParams, response: { 200: successAnswer } } },
    async (request) => {
      await usermaps.delete(actorOf(request), Number(request.params.id));
      return { success: true as const, message: 'Assignment deleted' };
    },
  );
};
