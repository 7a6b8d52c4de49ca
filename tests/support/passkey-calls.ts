import { decodeJwt } from 'jose';
import { expect } from 'vitest';
import type { MeAnswer } from '../../src/shared/schemas/account.js';
import type { ActivityAnswer } from '../../src/shared/schemas/activity.js';
import {
  PASSKEY_LOGIN_FAILED_MESSAGE,
  type PasskeyAddedAnswer,
  type PasskeyAuthenticationOptionsAnswer,
  type PasskeyRegistrationOptionsAnswer,
  type PasskeysAnswer,
} from '../../src/shared/schemas/passkeys.js';
import { call, expectStatus, type Failure, type Response, uniqueAddress } from './factories.js';
import { attemptKinds } from './login-attempts.js';
import { SoftwareAuthenticator } from './software-authenticator.js';
import type { TestApp } from './test-app.js';

/** Helpers of the passkey suites (tests/integration/passkeys.test.ts, passkey-refusals.test.ts). */

export const SITE = 'https://results.example';
export const RP_ID = 'results.example';

/** The calls of the passkey routes, on one app, from a Host of the test's choice. */
export function passkeyCalls(t: TestApp, headers: Record<string, string> = {}) {
  const post = (url: string, token?: string, body?: unknown, remoteAddress?: string) =>
    call(t.app, {
      method: 'POST',
      url,
      headers,
      ...(token ? { token } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  const registrationOptions = async (token: string) =>
    expectStatus<PasskeyRegistrationOptionsAnswer>(await post('/api/users/me/passkeys/options', token), 200)
      .options;
  const loginOptions = async () =>
    expectStatus<PasskeyAuthenticationOptionsAnswer>(await post('/api/users/login/passkey/options'), 200)
      .options;
  /** A new authenticator whose passkey is registered to the token's user. */
  const addPasskey = async (token: string, origin: string, rpId: string, Name = 'Laptop') => {
    const authenticator = new SoftwareAuthenticator(origin, rpId);
    const response = authenticator.register(await registrationOptions(token));
    const added = expectStatus<PasskeyAddedAnswer>(
      await post('/api/users/me/passkeys', token, { response, Name }),
      200,
    );
    return { authenticator, added: added.data };
  };
  const signIn = (response: unknown, remoteAddress = uniqueAddress()) =>
    post('/api/users/login/passkey', undefined, { response }, remoteAddress);
  return { post, registrationOptions, loginOptions, addPasskey, signIn };
}

/** What the suites read back: the session's method, one's passkeys and account, the trail, the throttle. */
export function passkeyReads(t: TestApp, admin: () => string) {
  const methodOf = async (token: string) =>
    (
      await t.database.db
        .selectFrom('sessions')
        .select('method')
        .where('session_id', '=', String(decodeJwt(token).jti))
        .executeTakeFirstOrThrow()
    ).method;
  const list = async (token: string) =>
    expectStatus<PasskeysAnswer>(await call(t.app, { url: '/api/users/me/passkeys', token }), 200).data;
  const me = async (token: string) =>
    expectStatus<MeAnswer>(await call(t.app, { url: '/api/users/me', token }), 200).data;
  const trail = async (query: string) =>
    expectStatus<ActivityAnswer>(await call(t.app, { url: `/api/activity?${query}`, token: admin() }), 200)
      .data;
  const kinds = (account: string, address: string) => attemptKinds(t.database, account, address);
  return { methodOf, list, me, trail, kinds };
}

/** The one 401 of every refused passkey sign-in. */
export function expectRefused(answer: Response): void {
  expect(answer.statusCode).toBe(401);
  expect(answer.json<Failure>()).toEqual({ success: false, message: PASSKEY_LOGIN_FAILED_MESSAGE });
}
