import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../../shared/schemas/common.js';
import {
  TWO_FACTOR_DISABLED_MESSAGE,
  TWO_FACTOR_ENABLED_MESSAGE,
  twoFactorDisableAnswer,
  twoFactorDisableInput,
  twoFactorEnableAnswer,
  twoFactorEnableInput,
  twoFactorSetupAnswer,
} from '../../../shared/schemas/two-factor.js';
import { currentUser } from '../../plugins/access.js';
import { actorOf } from '../activity/request-actor.js';
import type { TwoFactorService } from './two-factor-service.js';

/**
 * Two-factor sign-in (decision 0023): one's own, under /api/users/me/2fa/ (admins and agents; open to
 * a password-only admin session while REQUIRE_ADMIN_2FA=true, so that it can be set up), and an
 * admin's turning off of a user's. The service records each change in the activity trail.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod<{ twoFactor: TwoFactorService }> = async (
  app,
  { twoFactor },
) => {
  const staff = { access: 'staff' } as const;

  app.post(
    '/api/users/me/2fa/setup',
    { config: staff, schema: { response: { 200: twoFactorSetupAnswer } } },
    async (request, reply) => {
      // The one answer that carries the secret: no cache of any kind may keep it.
      reply.header('Cache-Control', 'no-store');
      return twoFactor.setup(currentUser(request));
    },
  );

  app.post(
    '/api/users/me/2fa/enable',
    { config: staff, schema: { body: twoFactorEnableInput, response: { 200: twoFactorEnableAnswer } } },
    async (request, reply) => {
      const backupCodes = await twoFactor.enable(actorOf(request), request.body.Code);
      reply.header('Cache-Control', 'no-store');
      return { success: true as const, message: TWO_FACTOR_ENABLED_MESSAGE, backupCodes };
    },
  );

  app.post(
    '/api/users/me/2fa/disable',
    { config: staff, schema: { body: twoFactorDisableInput, response: { 200: twoFactorDisableAnswer } } },
    async (request) => {
      await twoFactor.disable(actorOf(request), request.body);
      return { success: true as const, message: TWO_FACTOR_DISABLED_MESSAGE };
    },
  );

  app.delete(
    '/api/users/:id/2fa',
    { schema: { params: idParams, response: { 200: twoFactorDisableAnswer } } },
    async (request) => {
      await twoFactor.disableFor(actorOf(request), Number(request.params.id));
      return { success: true as const, message: TWO_FACTOR_DISABLED_MESSAGE };
    },
  );
};
