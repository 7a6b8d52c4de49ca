import { beforeAll, describe, expect, it } from 'vitest';
import {
  PASSKEY_NO_SITE_MESSAGE,
  type PasskeyAddedAnswer,
  type PasskeyAuthenticationOptionsAnswer,
  type PasskeyRegistrationOptionsAnswer,
  type PasskeysAnswer,
} from '../../src/shared/schemas/passkeys.js';
import { TWO_FACTOR_SETUP_REQUIRED_MESSAGE } from '../../src/shared/schemas/two-factor.js';
import type { LoginAnswer } from '../../src/shared/schemas/users.js';
import {
  call,
  createAgentWithToken,
  expectStatus,
  type Failure,
  keysDeep,
  loginAdmin,
  uniqueAddress,
} from '../support/factories.js';
import { passkeyCalls, passkeyReads, RP_ID, SITE } from '../support/passkey-calls.js';
import { FLAG_UP, SoftwareAuthenticator } from '../support/software-authenticator.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

describe.each(DIALECTS)('passkeys [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, {
    env: { PUBLIC_URL: SITE, REQUIRE_ADMIN_2FA: 'true', LOGIN_MAX_FAILURES: '50' },
    now: clock.now,
  });
  const api = passkeyCalls(t);
  const { methodOf, list, me, trail, kinds } = passkeyReads(t, () => admin);
  /** The admin's password-only session (held by REQUIRE_ADMIN_2FA), and the one a passkey signed in. */
  let adminPassword: string;
  let admin: string;

  beforeAll(async () => {
    adminPassword = await loginAdmin(t.app);
    const { authenticator } = await api.addPasskey(adminPassword, SITE, RP_ID, 'Admin key');
    admin = expectStatus<LoginAnswer>(
      await api.signIn(authenticator.assert(await api.loginOptions())),
      200,
    ).token;
  });

  it('signs an admin in with a passkey as both factors: REQUIRE_ADMIN_2FA lets the session through', async () => {
    expect(await methodOf(admin)).toBe('passkey');
    expect(await methodOf(adminPassword)).toBe('password');
    const held = await call(t.app, { url: '/api/users', token: adminPassword });
    expect(held.statusCode).toBe(403);
    expect(held.json()).toEqual({
      success: false,
      twoFactorSetupRequired: true,
      message: TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
    });
    expect((await call(t.app, { url: '/api/users', token: admin })).statusCode).toBe(200);
  });

  it('registers discoverable passkeys with user verification and lists them without key or counter', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const optionsAnswer = await api.post('/api/users/me/passkeys/options', agent.token);
    expect(optionsAnswer.headers['cache-control']).toBe('no-store');
    const options = expectStatus<PasskeyRegistrationOptionsAnswer>(optionsAnswer, 200).options;
    expect(options.rp).toEqual({ id: RP_ID, name: 'Ghadi Results' });
    expect(options.user.name).toBe(agent.user.UserName);
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(options.excludeCredentials).toEqual([]);
    expect(options.pubKeyCredParams.map((param) => param.alg)).toContain(-7);

    const first = new SoftwareAuthenticator(SITE, RP_ID);
    const response = first.register(options);
    const added = await api.post('/api/users/me/passkeys', agent.token, { response, Name: ' Phone\u202e ' });
    const data = expectStatus<PasskeyAddedAnswer>(added, 200).data;
    expect(Object.keys(data).sort()).toEqual(['CreatedAt', 'Name', '_id']);
    expect(data.Name).toBe('Phone');
    expect(data.CreatedAt).toBe(new Date(clock.now()).toISOString());
    // The challenge is spent: the same response cannot register twice.
    expect(
      (await api.post('/api/users/me/passkeys', agent.token, { response, Name: 'Again' })).statusCode,
    ).toBe(400);

    // The second options exclude the first passkey, so its authenticator makes no second one.
    const second = await api.registrationOptions(agent.token);
    expect(second.excludeCredentials?.map((descriptor) => descriptor.id)).toEqual([first.id]);
    await api.addPasskey(agent.token, SITE, RP_ID, 'Laptop');

    const listed = await call(t.app, { url: '/api/users/me/passkeys', token: agent.token });
    const rows = expectStatus<PasskeysAnswer>(listed, 200).data;
    expect(rows.map((row) => row.Name)).toEqual(['Phone', 'Laptop']);
    expect([...new Set(keysDeep(rows))].sort()).toEqual(['CreatedAt', 'LastUsedAt', 'Name', '_id']);
    const stored = await t.database.db.selectFrom('passkeys').selectAll().execute();
    for (const row of stored) {
      expect(listed.body).not.toContain(row.public_key);
      expect(listed.body).not.toContain(row.credential_id);
    }
    expect((await me(agent.token)).Passkeys).toBe(2);
    const added2 = await trail(`action=passkey_add&userId=${agent.user.User_Id}`);
    expect(added2.map((entry) => entry.Summary).sort()).toEqual([
      'passkey "Laptop" added',
      'passkey "Phone" added',
    ]);
  });

  it('refuses a registration from another origin, for another RP id, or without user verification', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const spoiled = [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { flags: FLAG_UP | 0x40 }];
    for (const spoil of spoiled) {
      const response = new SoftwareAuthenticator(SITE, RP_ID).register(
        await api.registrationOptions(agent.token),
        spoil,
      );
      const answer = await api.post('/api/users/me/passkeys', agent.token, { response, Name: 'Bad' });
      expect(answer.statusCode).toBe(400);
    }
    // Another user's challenge registers nothing for this one.
    const other = await createAgentWithToken(t.app, admin);
    const response = new SoftwareAuthenticator(SITE, RP_ID).register(
      await api.registrationOptions(other.token),
    );
    expect(
      (await api.post('/api/users/me/passkeys', agent.token, { response, Name: 'Bad' })).statusCode,
    ).toBe(400);
    expect(await list(agent.token)).toEqual([]);
  });

  it('signs in with a passkey: the password login answer, a passkey session, recorded with its method', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const { authenticator } = await api.addPasskey(agent.token, SITE, RP_ID, 'Phone');
    const optionsAnswer = await api.post('/api/users/login/passkey/options');
    expect(optionsAnswer.headers['cache-control']).toBe('no-store');
    const options = expectStatus<PasskeyAuthenticationOptionsAnswer>(optionsAnswer, 200).options;
    expect(options.allowCredentials).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(options.rpId).toBe(RP_ID);

    clock.advance(60_000);
    const address = uniqueAddress();
    const answer = expectStatus<LoginAnswer>(await api.signIn(authenticator.assert(options), address), 200);
    expect(answer.user.UserName).toBe(agent.user.UserName);
    expect(answer.user.userType).toBe('agent');
    expect(Object.keys(answer).sort()).toEqual(['success', 'token', 'user']);
    expect(await methodOf(answer.token)).toBe('passkey');
    expect((await me(answer.token)).UserName).toBe(agent.user.UserName);
    expect((await list(answer.token))[0]?.LastUsedAt).toBe(new Date(clock.now()).toISOString());
    expect(await kinds(agent.user.UserName, address)).toEqual(['success']);
    const entries = await trail(`action=login&userId=${agent.user.User_Id}`);
    expect(entries[0]?.Summary).toBe('with a passkey ("Phone")');
  });

  it("gives the login screens the role to compare: the other role's screen ends the session it was given", async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const { authenticator } = await api.addPasskey(agent.token, SITE, RP_ID);
    const answer = expectStatus<LoginAnswer>(
      await api.signIn(authenticator.assert(await api.loginOptions())),
      200,
    );
    // The admin screen reads userType, shows "Not authorized or not an admin" and signs out (spec §6).
    expect(answer.user.userType).toBe('agent');
    expect(
      (await call(t.app, { method: 'POST', url: '/api/users/logout', token: answer.token })).statusCode,
    ).toBe(200);
    expect((await call(t.app, { url: '/api/users/me', token: answer.token })).statusCode).toBe(401);
  });
});

describe.each(DIALECTS)('passkeys without PUBLIC_URL [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let admin: string;

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
  });

  it('work on localhost, with the origin of its port', async () => {
    const api = passkeyCalls(t, { host: 'localhost:3000' });
    const agent = await createAgentWithToken(t.app, admin);
    const options = await api.registrationOptions(agent.token);
    expect(options.rp.id).toBe('localhost');
    const { authenticator } = await api.addPasskey(agent.token, 'http://localhost:3000', 'localhost');
    expect((await api.signIn(authenticator.assert(await api.loginOptions()))).statusCode).toBe(200);
    const elsewhere = authenticator.assert(await api.loginOptions(), { origin: 'http://localhost:4000' });
    expect((await api.signIn(elsewhere)).statusCode).toBe(401);
  });

  it('refuse the options with 400 when the site is reached by an IP address or another name', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    for (const host of ['127.0.0.1:3000', '[::1]:3000', 'results.example']) {
      const api = passkeyCalls(t, { host });
      for (const answer of [
        await api.post('/api/users/me/passkeys/options', agent.token),
        await api.post('/api/users/login/passkey/options'),
      ]) {
        expect(answer.statusCode).toBe(400);
        expect(answer.json<Failure>().message).toBe(PASSKEY_NO_SITE_MESSAGE);
      }
    }
  });
});
