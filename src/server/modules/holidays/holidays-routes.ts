import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, itemAnswer, successAnswer } from '../../../shared/schemas/common.js';
import { holidayInput, holidayRecord } from '../../../shared/schemas/holidays.js';
import { actorOf } from '../activity/request-actor.js';
import type { HolidaysService } from './holidays-service.js';

/** The admins' changes to holidays; the public list (GET /api/holidays) is a public read of the site. */
export const holidaysRoutes: FastifyPluginAsyncZod<{ holidays: HolidaysService }> = async (
  app,
  { holidays },
) => {
  app.post(
    '/api/holidays',
    { schema: { body: holidayInput, response: { 201: itemAnswer(holidayRecord) } } },
    async (request, reply) =>
      reply.code(201).send({
        success: true,
        message: 'Holiday added',
        data: await holidays.create(actorOf(request), request.body),
      }),
  );

  app.delete(
    '/api/holidays/:id',
    { schema: { params: idParams, response: { 200: successAnswer } } },
    async (request) => {
      await holidays.delete(actorOf(request), Number(request.params.id));
      return { success: true as const, message: 'Holiday removed' };
    },
  );
};
