import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityAnswer } from '../../src/shared/schemas/activity.js';
import {
  TWO_FACTOR_INVALID_CODE_MESSAGE,
  TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
} from '../../src/shared/schemas/two-factor.js';
import type { LoginAnswer } from '../../src/shared/schemas/users.js';
import {
  call,
  createAgentWithToken,
  expectStatus,
  type Failure,
  loginAdmin,
  uniqueAddress,
} from '../support/factories.js';
import { attemptKinds } from '../support/login-attempts.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { enableTwoFactor, totpAt } from '../support/totp-codes.js';

/** The suite's limit: a few failures lock an account and address pair. */
const MAX_FAILURES = 3;
const STEP_MS = 30_000;

describe.each(DIALECTS)('two-factor codes and the login throttle [%s]', (dialect) => {
  const clock = new TestClock(Math.floor(Date.now() / STEP_MS) * STEP_MS);
  const t = useTestApp(dialect, { env: { LOGIN_MAX_FAILURES: String(MAX_FAILURES) }, now: clock.now });
  let admin: string;

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
  });

  const signIn = (UserName: string, Password: string, Code: string | undefined, remoteAddress: string) =>
    call(t.app, {
      method: 'POST',
      url: '/api/users/login',
      body: Code === undefined ? { UserName, Password } : { UserName, Password, Code },
      remoteAddress,
    });
  const kinds = (account: string, address: string) => attemptKinds(t.database, account, address);

  it('counts a wrong code as a failed sign-in: enough of them lock like wrong passwords', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const { secret } = await enableTwoFactor(t.app, agent.token, clock.now());
    clock.advance(STEP_MS);
    const name = agent.user.UserName;
    const address = uniqueAddress();
    const wrongCode = totpAt(secret, clock.now() + 10 * STEP_MS);
    for (let attempt = 1; attempt <= MAX_FAILURES; attempt++) {
      const answer = await signIn(name, agent.password, wrongCode, address);
      expect(answer.statusCode).toBe(401);
      expect(answer.json<Failure>().message).toBe(TWO_FACTOR_INVALID_CODE_MESSAGE);
    }
    // Locked: even the right code waits.
    const locked = await signIn(name, agent.password, totpAt(secret, clock.now()), address);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(await kinds(name, address)).toEqual(Array(MAX_FAILURES).fill('failure'));
    // The account's failures count from every address: another is slowed down, then signs in.
    const elsewhere = uniqueAddress();
    const slowed = await signIn(name, agent.password, totpAt(secret, clock.now()), elsewhere);
    expect(slowed.statusCode).toBe(429);
    clock.advance(Number(slowed.headers['retry-after']) * 1000);
    expect((await signIn(name, agent.password, totpAt(secret, clock.now()), elsewhere)).statusCode).toBe(200);
    const failures = (
      await expectStatus<ActivityAnswer>(
        await call(t.app, {
          url: `/api/activity?action=login_failed&userId=${agent.user.User_Id}`,
          token: admin,
        }),
        200,
      )
    ).data;
    expect(failures.filter((entry) => entry.Summary === 'wrong two-factor code')).toHaveLength(MAX_FAILURES);
  });

  it('counts the password-only step as a failure until the code step succeeds (decision 0023)', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const { secret } = await enableTwoFactor(t.app, agent.token, clock.now());
    clock.advance(STEP_MS);
    const address = uniqueAddress();
    const name = agent.user.UserName;
    expect((await signIn(name, agent.password, undefined, address)).statusCode).toBe(401);
    expect(await kinds(name, address)).toEqual(['failure']);
    expect((await signIn(name, agent.password, totpAt(secret, clock.now()), address)).statusCode).toBe(200);
    expect(await kinds(name, address)).toEqual(['failure', 'success']);
    // The success cleared the pair's count: MAX_FAILURES - 1 more password-only steps still answer 401.
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect((await signIn(name, agent.password, undefined, address)).statusCode).toBe(401);
    clock.advance(STEP_MS);
    expect((await signIn(name, agent.password, totpAt(secret, clock.now()), address)).statusCode).toBe(200);
  });
});

describe.each(DIALECTS)('REQUIRE_ADMIN_2FA=true [%s]', (dialect) => {
  const clock = new TestClock(Math.floor(Date.now() / STEP_MS) * STEP_MS);
  const t = useTestApp(dialect, { env: { REQUIRE_ADMIN_2FA: 'true' }, now: clock.now });

  const get = (url: string, token: string) => call(t.app, { url, token });

  it('holds a password-only admin session to its own account until it signs in with a code', async () => {
    const password = await loginAdmin(t.app);
    const blocked = await get('/api/users', password);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({
      success: false,
      twoFactorSetupRequired: true,
      message: TWO_FACTOR_SETUP_REQUIRED_MESSAGE,
    });
    expect((await get('/api/activity', password)).statusCode).toBe(403);
    expect((await get('/api/users/me', password)).statusCode).toBe(200);
    expect((await get('/api/users/me/sessions', password)).statusCode).toBe(200);
    const { secret, backupCodes } = await enableTwoFactor(t.app, password, clock.now());
    // Per session: this one signed in with a password alone, and stays held.
    expect((await get('/api/users', password)).statusCode).toBe(403);
    expect((await get('/api/users/me', password)).statusCode).toBe(200);

    clock.advance(STEP_MS);
    const withCode = await call(t.app, {
      method: 'POST',
      url: '/api/users/login',
      body: { UserName: ADMIN_USERNAME, Password: ADMIN_PASSWORD, Code: totpAt(secret, clock.now()) },
      remoteAddress: uniqueAddress(),
    });
    const admin = expectStatus<LoginAnswer>(withCode, 200).token;
    expect((await get('/api/users', admin)).statusCode).toBe(200);
    // A backup code is a second factor too.
    const withBackup = await call(t.app, {
      method: 'POST',
      url: '/api/users/login',
      body: { UserName: ADMIN_USERNAME, Password: ADMIN_PASSWORD, Code: backupCodes[0] },
      remoteAddress: uniqueAddress(),
    });
    expect((await get('/api/users', expectStatus<LoginAnswer>(withBackup, 200).token)).statusCode).toBe(200);

    // Agents are not held: the rule is the admins'.
    const agent = await createAgentWithToken(t.app, admin);
    expect((await get('/api/users/me', agent.token)).statusCode).toBe(200);
    expect((await get('/api/agent/my-ghadi', agent.token)).statusCode).toBe(200);
    expect(
      (await call(t.app, { method: 'POST', url: '/api/users/logout', token: password })).statusCode,
    ).toBe(200);
    // The secret is in no answer after its setup: not in the trail, not in the user list.
    const trail = await get('/api/activity?limit=100', admin);
    expect(trail.statusCode).toBe(200);
    expect(trail.body).toContain('two_factor_enable');
    expect(trail.body).not.toContain(secret);
    expect((await get('/api/users', admin)).body).not.toContain(secret);
    expect((await get('/api/users/me', admin)).body).not.toContain(secret);
  });
});
