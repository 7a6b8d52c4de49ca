import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successAnswer } from '../../../shared/schemas/common.js';
import {
  PASSKEY_ADDED_MESSAGE,
  PASSKEY_REMOVED_MESSAGE,
  passkeyAddedAnswer,
  passkeyAuthenticationOptionsAnswer,
  passkeyIdParams,
  passkeyLoginInput,
  passkeyRegisterInput,
  passkeyRegistrationOptionsAnswer,
  passkeyRemoveInput,
  passkeysAnswer,
} from '../../../shared/schemas/passkeys.js';
import { loginAnswer } from '../../../shared/schemas/users.js';
import { type RelyingParty, relyingPartyOf } from '../../lib/relying-party.js';
import { currentUser } from '../../plugins/access.js';
import { actorOf, clientOf } from '../activity/request-actor.js';
import type { PasskeyService } from './passkey-service.js';
import type { PasskeySignIn } from './passkey-sign-in.js';

/**
 * Passkeys (decision 0024): one's own under /api/users/me/passkeys (admins and agents; open to a
 * password-only admin session while REQUIRE_ADMIN_2FA=true, like two-factor's setup), and the public
 * sign-in under /api/users/login/passkey. Every answer that carries a challenge is not to be cached.
 */
export const passkeyRoutes: FastifyPluginAsyncZod<{
  passkeys: PasskeyService;
  signIn: PasskeySignIn;
  publicUrl: string | undefined;
}> = async (app, { passkeys, signIn, publicUrl }) => {
  const staff = { access: 'staff' } as const;
  const site = (request: FastifyRequest): RelyingParty | null =>
    relyingPartyOf(publicUrl, { host: request.host, protocol: request.protocol });

  app.post(
    '/api/users/me/passkeys/options',
    { config: staff, schema: { response: { 200: passkeyRegistrationOptionsAnswer } } },
    async (request, reply) => {
      const options = await passkeys.registrationOptions(currentUser(request), site(request));
      reply.header('Cache-Control', 'no-store');
      return { success: true as const, options };
    },
  );

  app.post(
    '/api/users/me/passkeys',
    { config: staff, schema: { body: passkeyRegisterInput, response: { 200: passkeyAddedAnswer } } },
    async (request) => {
      const added = await passkeys.register(actorOf(request), request.body, site(request));
      const { LastUsedAt: _unused, ...data } = added;
      return { success: true as const, message: PASSKEY_ADDED_MESSAGE, data };
    },
  );

  app.get(
    '/api/users/me/passkeys',
    { config: staff, schema: { response: { 200: passkeysAnswer } } },
    async (request) => ({ success: true as const, data: await passkeys.list(currentUser(request)) }),
  );

  app.delete(
    '/api/users/me/passkeys/:id',
    {
      config: staff,
      schema: { params: passkeyIdParams, body: passkeyRemoveInput, response: { 200: successAnswer } },
    },
    async (request) => {
      await passkeys.remove(actorOf(request), Number(request.params.id), request.body, site(request));
      return { success: true as const, message: PASSKEY_REMOVED_MESSAGE };
    },
  );

  app.post(
    '/api/users/login/passkey/options',
    { config: { access: 'public' }, schema: { response: { 200: passkeyAuthenticationOptionsAnswer } } },
    async (request, reply) => {
      const options = await signIn.options(site(request));
      reply.header('Cache-Control', 'no-store');
      return { success: true as const, options };
    },
  );

  app.post(
    '/api/users/login/passkey',
    { config: { access: 'public' }, schema: { body: passkeyLoginInput, response: { 200: loginAnswer } } },
    (request) => signIn.login(request.body, clientOf(request), site(request)),
  );
};
