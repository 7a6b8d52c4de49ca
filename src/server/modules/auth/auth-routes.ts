import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successAnswer } from '../../../shared/schemas/common.js';
import { loginAnswer, loginInput } from '../../../shared/schemas/users.js';
import { actorOf, clientOf } from '../activity/request-actor.js';
import type { SessionService } from './session-service.js';

/**
 * Sessions begin and end here. The spec puts them under /api/users/, but they are auth's: a session
 * is not an account, and users/ never sees a password check or a token.
 */
export const authRoutes: FastifyPluginAsyncZod<{ sessions: SessionService }> = async (app, { sessions }) => {
  app.post(
    '/api/users/login',
    { config: { access: 'public' }, schema: { body: loginInput, response: { 200: loginAnswer } } },
    (request) => sessions.login(request.body, clientOf(request)),
  );

  app.post(
    '/api/users/logout',
    { config: { access: 'staff' }, schema: { response: { 200: successAnswer } } },
    async (request) => {
      await sessions.logout(actorOf(request));
      return { success: true as const, message: 'Logged out' };
    },
  );
};
