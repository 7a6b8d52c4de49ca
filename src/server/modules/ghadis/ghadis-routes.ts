import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countAnswer, idParams, itemAnswer, successAnswer } from '../../../shared/schemas/common.js';
import { ghadiInput, ghadiRecord } from '../../../shared/schemas/ghadis.js';
import { actorOf } from '../activity/request-actor.js';
import type { GhadisService } from './ghadis-service.js';

export const ghadisRoutes: FastifyPluginAsyncZod<{ ghadis: GhadisService }> = async (app, { ghadis }) => {
  app.get('/api/ghadis/count', { schema: { response: { 200: countAnswer } } }, async () => ({
    success: true as const,
    count: await ghadis.count(),
  }));

  app.post(
    '/api/ghadis',
    { schema: { body: ghadiInput, response: { 201: itemAnswer(ghadiRecord) } } },
    async (request, reply) =>
      reply.code(201).send({
        success: true,
        message: 'Ghadi created',
        data: await ghadis.create(actorOf(request), request.body),
      }),
  );

  app.put(
    '/api/ghadis/:id',
    { schema: { params: idParams, body: ghadiInput, response: { 200: itemAnswer(ghadiRecord) } } },
    async (request) => ({
      success: true as const,
      message: 'Ghadi updated',
      data: await ghadis.update(actorOf(request), Number(request.params.id), request.body),
    }),
  );

  app.delete(
    '/api/ghadis/:id',
    { schema: { params: idParams, response: { 200: successAnswer } } },
    async (request) => {
      await ghadis.delete(actorOf(request), Number(request.params.id));
      return { success: true as const, message: 'Ghadi deleted' };
    },
  );
};
