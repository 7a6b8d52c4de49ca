import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  meAnswer,
  ownPasswordInput,
  sessionIdParams,
  sessionsAnswer,
  sessionsEndedAnswer,
} from '../../../shared/schemas/account.js';
import { idParams, successAnswer } from '../../../shared/schemas/common.js';
import { currentUser } from '../../plugins/access.js';
import { actorOf } from '../activity/request-actor.js';
import type { AccountService } from './account-service.js';

/**
 * A signed-in user's own account, under /api/users/me/ (staff: admins and agents alike; the one
 * place a first admin on a generated password may call), and an admin's ending of a user's sessions.
 * The service records each change in the activity trail.
 */
export const accountRoutes: FastifyPluginAsyncZod<{ account: AccountService }> = async (app, { account }) => {
  const staff = { access: 'staff' } as const;

  app.get('/api/users/me', { config: staff, schema: { response: { 200: meAnswer } } }, async (request) => ({
    success: true as const,
    data: await account.me(currentUser(request)),
  }));

  app.get(
    '/api/users/me/sessions',
    { config: staff, schema: { response: { 200: sessionsAnswer } } },
    async (request) => ({ success: true as const, data: await account.sessions(currentUser(request)) }),
  );

  app.delete(
    '/api/users/me/sessions/:id',
    { config: staff, schema: { params: sessionIdParams, response: { 200: successAnswer } } },
    async (request) => {
      await account.endSession(actorOf(request), request.params.id);
      return { success: true as const, message: 'Session ended' };
    },
  );

  app.post(
    '/api/users/me/sessions/end-others',
    { config: staff, schema: { response: { 200: sessionsEndedAnswer } } },
    async (request) => {
      const ended = await account.endOtherSessions(actorOf(request));
      return { success: true as const, message: 'Other sessions ended', ended };
    },
  );

  app.put(
    '/api/users/me/password',
    { config: staff, schema: { body: ownPasswordInput, response: { 200: successAnswer } } },
    async (request) => {
      await account.changePassword(actorOf(request), request.body);
      return { success: true as const, message: 'Password changed; your other sessions have ended' };
    },
  );

  app.delete(
    '/api/users/:id/sessions',
    { schema: { params: idParams, response: { 200: sessionsEndedAnswer } } },
    async (request) => {
      const ended = await account.endAllSessions(actorOf(request), Number(request.params.id));
      return { success: true as const, message: 'Sessions ended', ended };
    },
  );
};
