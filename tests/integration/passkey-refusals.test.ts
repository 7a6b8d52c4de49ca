import { beforeAll, describe, expect, it } from 'vitest';
import {
  PASSKEY_CONFIRM_FAILED_MESSAGE,
  PASSKEY_WRONG_PASSWORD_MESSAGE,
} from '../../src/shared/schemas/passkeys.js';
import { call, createAgentWithToken, type Failure, loginAdmin, uniqueAddress } from '../support/factories.js';
import { expectRefused, passkeyCalls, passkeyReads, RP_ID, SITE } from '../support/passkey-calls.js';
import { FLAG_UP, SoftwareAuthenticator } from '../support/software-authenticator.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

/** What a passkey sign-in or removal refuses, and how the login throttle counts it. */
describe.each(DIALECTS)('passkey refusals [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, { env: { PUBLIC_URL: SITE, LOGIN_MAX_FAILURES: '50' }, now: clock.now });
  const api = passkeyCalls(t);
  let admin: string;
  const { list, me, trail, kinds } = passkeyReads(t, () => admin);

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
  });

  it('refuses a replayed assertion and an expired challenge, each counted as a failed sign-in', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const { authenticator } = await api.addPasskey(agent.token, SITE, RP_ID);
    const address = uniqueAddress();
    const assertion = authenticator.assert(await api.loginOptions());
    expect((await api.signIn(assertion, address)).statusCode).toBe(200);
    expectRefused(await api.signIn(assertion, address));

    const late = authenticator.assert(await api.loginOptions());
    clock.advance(5 * 60_000 + 1000);
    expectRefused(await api.signIn(late, address));
    expect(await kinds(agent.user.UserName, address)).toEqual(['success', 'failure', 'failure']);
    // A challenge of a registration does not sign in either.
    const registration = await api.registrationOptions(agent.token);
    const crossed = authenticator.assert(await api.loginOptions(), { challenge: registration.challenge });
    expectRefused(await api.signIn(crossed, address));
    // Of two sign-ins with one assertion at once, one gets in.
    const twice = authenticator.assert(await api.loginOptions());
    const both = await Promise.all([api.signIn(twice, address), api.signIn(twice, address)]);
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
    // A fresh challenge still does.
    expect((await api.signIn(authenticator.assert(await api.loginOptions()), address)).statusCode).toBe(200);
  });

  it('refuses another origin, another RP id, no user verification and a counter that did not rise', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const { authenticator } = await api.addPasskey(agent.token, SITE, RP_ID);
    const address = uniqueAddress();
    expect((await api.signIn(authenticator.assert(await api.loginOptions()), address)).statusCode).toBe(200);
    const used = authenticator.lastCounter;
    const spoiled = [
      { origin: 'https://evil.example' },
      { origin: 'http://results.example' },
      { rpId: 'evil.example' },
      { flags: FLAG_UP },
      { counter: used },
      { counter: used - 1 },
    ];
    for (const spoil of spoiled)
      expectRefused(await api.signIn(authenticator.assert(await api.loginOptions(), spoil), address));
    expect(await kinds(agent.user.UserName, address)).toEqual(['success', ...spoiled.map(() => 'failure')]);
    const failures = await trail(`action=login_failed&userId=${agent.user.User_Id}`);
    expect(failures.map((entry) => entry.Summary)).toEqual(
      expect.arrayContaining([
        'passkey refused: another origin',
        'passkey refused: another relying party',
        'passkey refused: no user verification',
        'passkey refused: signature counter not increased',
      ]),
    );
    expect(
      (await api.signIn(authenticator.assert(await api.loginOptions(), { counter: used + 5 }), address))
        .statusCode,
    ).toBe(200);
  });

  it('refuses an unknown credential, counted for the address', async () => {
    const stranger = new SoftwareAuthenticator(SITE, RP_ID);
    const address = uniqueAddress();
    expectRefused(await api.signIn(stranger.assert(await api.loginOptions()), address));
    expect(await kinds(`(a passkey unknown to the site, from) ${address}`, address)).toEqual(['failure']);
    const entry = (await trail('action=login_failed')).find((row) => row.Ip === address);
    expect(entry).toMatchObject({ UserId: null, Target: { Id: null, Name: 'unknown passkey' } });
  });

  it('removes a passkey only with the password or a fresh assertion; a removed one no longer signs in', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const phone = await api.addPasskey(agent.token, SITE, RP_ID, 'Phone');
    const laptop = await api.addPasskey(agent.token, SITE, RP_ID, 'Laptop');
    const remove = (id: string, body?: unknown) =>
      call(t.app, {
        method: 'DELETE',
        url: `/api/users/me/passkeys/${id}`,
        token: agent.token,
        ...(body !== undefined ? { body } : {}),
      });
    const names = async () => (await list(agent.token)).map((row) => row.Name);

    expect((await remove(phone.added._id)).statusCode).toBe(400);
    expect((await remove(phone.added._id, {})).statusCode).toBe(400);
    const wrong = await remove(phone.added._id, { Password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<Failure>().message).toBe(PASSKEY_WRONG_PASSWORD_MESSAGE);
    const spoiled = phone.authenticator.assert(await api.loginOptions(), { origin: 'https://evil.example' });
    const refused = await remove(phone.added._id, { response: spoiled });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<Failure>().message).toBe(PASSKEY_CONFIRM_FAILED_MESSAGE);
    // Another user's passkey confirms nothing here.
    const other = await createAgentWithToken(t.app, admin);
    const foreign = await api.addPasskey(other.token, SITE, RP_ID);
    const foreignAnswer = await remove(phone.added._id, {
      response: foreign.authenticator.assert(await api.loginOptions()),
    });
    expect(foreignAnswer.statusCode).toBe(400);
    // Nor may one remove another user's passkey.
    expect((await remove(foreign.added._id, { Password: agent.password })).statusCode).toBe(404);
    expect(await names()).toEqual(['Phone', 'Laptop']);
    const failures = await trail(`action=login_failed&userId=${agent.user.User_Id}`);
    expect(failures.map((entry) => entry.Summary)).toContain('wrong password (removing a passkey)');

    // A fresh assertion by the laptop removes the phone; the password removes the laptop.
    const confirm = laptop.authenticator.assert(await api.loginOptions());
    expect((await remove(phone.added._id, { response: confirm })).statusCode).toBe(200);
    expect(await names()).toEqual(['Laptop']);
    expect((await remove(laptop.added._id, { Password: agent.password })).statusCode).toBe(200);
    expect(await names()).toEqual([]);
    expect((await me(agent.token)).Passkeys).toBe(0);
    const removed = await trail(`action=passkey_remove&userId=${agent.user.User_Id}`);
    expect(removed.map((entry) => entry.Summary).sort()).toEqual([
      'passkey "Laptop" removed',
      'passkey "Phone" removed',
    ]);

    expectRefused(await api.signIn(phone.authenticator.assert(await api.loginOptions())));
    expectRefused(await api.signIn(laptop.authenticator.assert(await api.loginOptions())));
  });
});
