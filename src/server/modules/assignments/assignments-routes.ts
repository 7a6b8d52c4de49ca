import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assignmentInput, assignmentRecord } from '../../../shared/schemas/assignments.js';
import { idParams, itemAnswer, listAnswer, successAnswer } from '../../../shared/schemas/common.js';
import { actorOf } from '../activity/request-actor.js';
import type { AssignmentsService } from './assignments-service.js';

// The spec names the paths (and so the OpenAPI tag) `/api/usermaps`; the code calls them assignments.
export const assignmentsRoutes: FastifyPluginAsyncZod<{ assignments: AssignmentsService }> = async (
  app,
  { assignments },
) => {
  app.get('/api/usermaps', { schema: { response: { 200: listAnswer(assignmentRecord) } } }, async () => ({
    success: true as const,
    data: await assignments.list(),
  }));

  app.post(
    '/api/usermaps',
    { schema: { body: assignmentInput, response: { 201: itemAnswer(assignmentRecord.array()) } } },
    async (request, reply) =>
      reply.code(201).send({
        success: true,
        message: 'Ghadi assigned',
        data: await assignments.assign(actorOf(request), request.body),
      }),
  );

  app.delete(
    '/api/usermaps/:id',
    { schema: { params: idParams, response: { 200: successAnswer } } },
    async (request) => {
      await assignments.delete(actorOf(request), Number(request.params.id));
      return { success: true as const, message: 'Assignment deleted' };
    },
  );
};
