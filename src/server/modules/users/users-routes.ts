import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  countAnswer,
  idParams,
  itemAnswer,
  listAnswer,
  successAnswer,
} from '../../../shared/schemas/common.js';
import { userCreateInput, userRecord, userUpdateInput } from '../../../shared/schemas/users.js';
import { actorOf } from '../activity/request-actor.js';
import type { UsersService } from './users-service.js';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.get('/api/users/count', { schema: { response: { 200: countAnswer } } }, async () => ({
    success: true as const,
    count: await users.countAgents(),
  }));

  app.get('/api/users', { schema: { response: { 200: listAnswer(userRecord) } } }, async () => ({
    success: true as const,
    data: await users.list(),
  }));

  app.post(
    '/api/users',
    { schema: { body: userCreateInput, response: { 201: itemAnswer(userRecord) } } },
    async (request, reply) => {
      const data = await users.create(actorOf(request), request.body);
      return reply.code(201).send({ success: true, message: 'Agent created', data });
    },
  );

  app.put(
    '/api/users/:id',
    { schema: { params: idParams, body: userUpdateInput, response: { 200: itemAnswer(userRecord) } } },
    async (request) => ({
      success: true as const,
      message: 'Agent updated',
      data: await users.update(actorOf(request), Number(request.params.id), request.body),
    }),
  );

  app.delete(
    '/api/users/:id',
    { schema: { params: idParams, response: { 200: successAnswer } } },
    async (request) => {
      await users.delete(actorOf(request), Number(request.params.id));
      return { success: true as const, message: 'Agent deleted' };
    },
  );
};
