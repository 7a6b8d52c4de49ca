import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loginAnswer, loginInput } from '../../../shared/schemas/users.js';
import type { SessionService } from './session-service.js';

export const authRoutes: FastifyPluginAsyncZod<{ sessions: SessionService }> = async (app, { sessions }) => {
  app.post(
    '/api/users/login',
    { config: { access: 'public' }, schema: { body: loginInput, response: { 200: loginAnswer } } },
    (request) => sessions.login(request.body, request.ip),
  );
};
