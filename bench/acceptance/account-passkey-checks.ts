/**
 * The account group's passkey checks (account-checks.ts), through Chromium's virtual authenticator
 * (account-webauthn.ts) on the site reached as localhost: an agent adds a passkey, signs in with it,
 * a replayed assertion is refused, a fresh one signs in again, it is removed with the password (not
 * with a wrong one), and then signing in with it is refused.
 */
import type { AccountSite, Credentials } from './account-site.js';
import { openAuthenticator } from './account-webauthn.js';
import { check } from './check.js';
import type { CheckResult } from './types.js';

/** An answer for the report, without its token. */
const short = (answer: { status: number; body: unknown }) =>
  `${answer.status} ${JSON.stringify({ ...(answer.body as object), token: undefined }).slice(0, 160)}`;

export async function passkeyChecks(site: AccountSite, credentials: Credentials): Promise<CheckResult[]> {
  const host = `localhost:${site.port}`;
  const results: CheckResult[] = [];
  const authenticator = await openAuthenticator(`http://${host}/`);
  try {
    const token = await site.token(credentials);
    const assertion = async () => {
      const options = await site.call('POST', '/api/users/login/passkey/options', { host });
      if (options.status !== 200) throw new Error(`login options: ${short(options)}`);
      return { options, response: await authenticator.get(options.body.options) };
    };
    const signIn = (response: unknown) =>
      site.call('POST', '/api/users/login/passkey', { host, json: { response } });
    let passkeyId = '';
    results.push(
      await check(
        'an agent adds a passkey made by the virtual authenticator (discoverable, user verification required)',
        async () => {
          const options = await site.call('POST', '/api/users/me/passkeys/options', { token, host });
          const selection = options.body.options?.authenticatorSelection ?? {};
          const response = await authenticator.create(options.body.options);
          const added = await site.call('POST', '/api/users/me/passkeys', {
            token,
            host,
            json: { response, Name: 'Virtual authenticator' },
          });
          const listed = await site.call('GET', '/api/users/me/passkeys', { token });
          passkeyId = String(added.body.data?._id ?? '');
          const ok =
            options.status === 200 &&
            selection.residentKey === 'required' &&
            selection.userVerification === 'required' &&
            [200, 201].includes(added.status) &&
            passkeyId !== '' &&
            listed.body.data?.length === 1 &&
            !JSON.stringify(listed.body).includes(String(response.id));
          return {
            ok,
            detail: `options ${options.status} (${JSON.stringify(selection)}); add ${short(added)}; listed ${listed.body.data?.length} (credential id shown: ${JSON.stringify(listed.body).includes(String(response.id))})`,
          };
        },
      ),
    );
    let used: unknown;
    results.push(
      await check(
        'signing in with the passkey answers 200 with a working token (empty allowCredentials)',
        async () => {
          const { options, response } = await assertion();
          used = response;
          const answer = await signIn(response);
          const me = await site.call('GET', '/api/users/me', { token: answer.body.token });
          const ok =
            options.body.options?.allowCredentials?.length === 0 &&
            options.body.options?.userVerification === 'required' &&
            answer.status === 200 &&
            answer.body.user?.UserName === credentials.username &&
            me.status === 200 &&
            me.body.data?.Passkeys === 1;
          return {
            ok,
            detail: `sign-in ${answer.status} as ${answer.body.user?.UserName}; /api/users/me ${me.status} Passkeys ${me.body.data?.Passkeys}`,
          };
        },
      ),
    );
    results.push(
      await check('the same assertion replayed answers 401 and no token', async () => {
        const answer = await signIn(used);
        return { ok: answer.status === 401 && answer.body.token === undefined, detail: short(answer) };
      }),
    );
    results.push(
      await check('a fresh assertion signs in again', async () => {
        const answer = await signIn((await assertion()).response);
        return { ok: answer.status === 200 && typeof answer.body.token === 'string', detail: short(answer) };
      }),
    );
    results.push(
      await check(
        'removing it needs the password: a wrong one 400 and kept, the right one removes it',
        async () => {
          const path = `/api/users/me/passkeys/${passkeyId}`;
          const none = await site.call('DELETE', path, { token, json: {} });
          const wrong = await site.call('DELETE', path, {
            token,
            json: { Password: `${credentials.password}x` },
          });
          const kept = (await site.call('GET', '/api/users/me/passkeys', { token })).body.data?.length;
          const removed = await site.call('DELETE', path, {
            token,
            json: { Password: credentials.password },
          });
          const left = (await site.call('GET', '/api/users/me/passkeys', { token })).body.data?.length;
          const ok =
            none.status === 400 &&
            [400, 401].includes(wrong.status) &&
            kept === 1 &&
            removed.status === 200 &&
            left === 0;
          return {
            ok,
            detail: `no password ${none.status}; wrong ${wrong.status}; still ${kept}; right ${removed.status}; left ${left}`,
          };
        },
      ),
    );
    results.push(
      await check('a removed passkey no longer signs in (401)', async () => {
        const answer = await signIn((await assertion()).response);
        return { ok: answer.status === 401 && answer.body.token === undefined, detail: short(answer) };
      }),
    );
    results.push(
      await check(
        'reached by its IP address (no PUBLIC_URL), the passkey options answer 400 saying why',
        async () => {
          const answer = await site.call('POST', '/api/users/login/passkey/options');
          return {
            ok: answer.status === 400 && typeof answer.body.message === 'string',
            detail: short(answer),
          };
        },
      ),
    );
  } finally {
    await authenticator.close();
  }
  return results;
}
