import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionsAnswer } from '../../src/shared/schemas/account.js';
import type { ActivityAnswer } from '../../src/shared/schemas/activity.js';
import {
  call,
  createAgent,
  createAgentWithToken,
  expectStatus,
  type Failure,
  login,
  loginAdmin,
  loginAs,
  uniqueAddress,
} from '../support/factories.js';
import { attemptKinds } from '../support/login-attempts.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

/** The suite's limit: a few failures lock an account and address pair. */
const MAX_FAILURES = 3;

describe.each(DIALECTS)('changing one’s own password [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, { env: { LOGIN_MAX_FAILURES: String(MAX_FAILURES) }, now: clock.now });
  let admin: string;

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
  });

  const change = (token: string, body: unknown, remoteAddress = uniqueAddress()) =>
    call(t.app, { method: 'PUT', url: '/api/users/me/password', token, body, remoteAddress });
  const whoAmI = (token: string) => call(t.app, { url: '/api/users/me', token });
  const trail = async (query: string) =>
    expectStatus<ActivityAnswer>(await call(t.app, { url: `/api/activity?${query}`, token: admin }), 200)
      .data;

  it('takes the new password, ends the other sessions and keeps this one; the old password fails', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const others = [
      await loginAs(t.app, agent.user.UserName, agent.password),
      await loginAs(t.app, agent.user.UserName, agent.password),
    ];
    const answer = await change(agent.token, {
      CurrentPassword: agent.password,
      NewPassword: 'a-brand-new-one',
    });
    expect(expectStatus(answer, 200)).toEqual({
      success: true,
      message: 'Password changed; your other sessions have ended',
    });
    expect(answer.body).not.toContain('a-brand-new-one');
    expect((await whoAmI(agent.token)).statusCode).toBe(200);
    for (const token of others) expect((await whoAmI(token)).statusCode).toBe(401);
    const sessions = expectStatus<SessionsAnswer>(
      await call(t.app, { url: '/api/users/me/sessions', token: agent.token }),
      200,
    ).data;
    expect(sessions.map((session) => session.Current)).toEqual([true]);

    expect((await login(t.app, agent.user.UserName, agent.password, uniqueAddress())).statusCode).toBe(401);
    const fresh = await loginAs(t.app, agent.user.UserName, 'a-brand-new-one');
    expect((await whoAmI(fresh)).statusCode).toBe(200);

    const [entry] = await trail(`action=password_change&userId=${agent.user.User_Id}`);
    expect(entry).toMatchObject({
      UserId: agent.user.User_Id,
      Role: 'agent',
      Target: { Id: String(agent.user.User_Id), Name: agent.user.UserName },
      Summary: 'password changed; 2 other sessions ended',
    });
    expect(JSON.stringify(entry)).not.toMatch(/a-brand-new-one|agent-password-1|argon2/);
  });

  it('answers 400 for a wrong current password, changes nothing, and counts it as a failed sign-in', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const address = uniqueAddress();
    const wrong = { CurrentPassword: 'not-my-password', NewPassword: 'never-stored-1' };
    for (let attempt = 1; attempt <= MAX_FAILURES; attempt++) {
      const answer = await change(agent.token, wrong, address);
      expect(answer.statusCode).toBe(400);
      expect(answer.json<Failure>()).toEqual({
        success: false,
        message: 'CurrentPassword: Is not the current password',
      });
    }
    // The account and address pair is locked now: the change and a sign-in from there alike.
    const locked = await change(agent.token, { ...wrong, CurrentPassword: agent.password }, address);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(t.app, agent.user.UserName, agent.password, address)).statusCode).toBe(429);
    // The account's failures count from every address: another one is asked to wait first.
    const elsewhere = uniqueAddress();
    const slowed = await login(t.app, agent.user.UserName, agent.password, elsewhere);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json<Failure>().message).toMatch(/^This account has had many failed logins/);
    clock.advance(Number(slowed.headers['retry-after']) * 1000);
    // Nothing changed: the old password signs in, the new one does not, the session goes on.
    expect((await login(t.app, agent.user.UserName, agent.password, elsewhere)).statusCode).toBe(200);
    expect((await login(t.app, agent.user.UserName, 'never-stored-1', elsewhere)).statusCode).toBe(401);
    expect((await whoAmI(agent.token)).statusCode).toBe(200);

    expect(await attemptKinds(t.database, agent.user.UserName, address)).toEqual(
      Array(MAX_FAILURES).fill('failure'),
    );
    const failures = (await trail(`action=login_failed&userId=${agent.user.User_Id}`)).filter(
      (entry) => entry.Ip === address,
    );
    expect(failures).toHaveLength(MAX_FAILURES);
    expect(failures[0]).toMatchObject({
      Target: { Id: String(agent.user.User_Id), Name: agent.user.UserName },
      Summary: 'wrong current password (password change)',
      Ip: address,
    });
    expect(JSON.stringify(failures)).not.toContain('not-my-password');
  });

  it('a right current password clears the pair’s failures, as a sign-in does', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const address = uniqueAddress();
    const wrong = { CurrentPassword: 'not-my-password', NewPassword: 'second-password-2' };
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect((await change(agent.token, wrong, address)).statusCode).toBe(400);
    expectStatus(await change(agent.token, { ...wrong, CurrentPassword: agent.password }, address), 200);
    // Had the failures stayed, this would be the third and the fourth would be refused.
    expect((await login(t.app, agent.user.UserName, 'nope-nope', address)).statusCode).toBe(401);
    expect((await login(t.app, agent.user.UserName, 'second-password-2', address)).statusCode).toBe(200);
  });

  it('checks its input: eight characters or more, another than the current one', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const cases: Array<[unknown, string]> = [
      [
        { CurrentPassword: agent.password, NewPassword: 'short' },
        'NewPassword: Must be at least 8 characters',
      ],
      [
        { CurrentPassword: agent.password, NewPassword: agent.password },
        'NewPassword: Must differ from the current password',
      ],
      [{ NewPassword: 'long-enough-1' }, 'CurrentPassword: This field is required'],
      [{ CurrentPassword: agent.password }, 'NewPassword: This field is required'],
      [
        { CurrentPassword: agent.password, NewPassword: 'x'.repeat(129) },
        'NewPassword: Must be at most 128 characters',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await change(agent.token, body);
      expect([message, answer.statusCode]).toEqual([message, 400]);
      expect(answer.json<Failure>().message).toBe(message);
    }
    expect((await login(t.app, agent.user.UserName, agent.password, uniqueAddress())).statusCode).toBe(200);
    expect(
      (await call(t.app, { method: 'PUT', url: '/api/users/me/password', body: cases[0]?.[0] })).statusCode,
    ).toBe(401);
  });

  it('is every user’s own: an admin changes theirs the same way, and no one else’s', async () => {
    const agent = await createAgent(t.app, admin);
    const adminAgain = await loginAdmin(t.app);
    // The admin's current password is not the agent's: the body names no account, the token does.
    const answer = await change(adminAgain, { CurrentPassword: agent.password, NewPassword: 'hijacked-1' });
    expect(answer.statusCode).toBe(400);
    expect((await login(t.app, agent.user.UserName, agent.password, uniqueAddress())).statusCode).toBe(200);
    expect((await login(t.app, agent.user.UserName, 'hijacked-1', uniqueAddress())).statusCode).toBe(401);
  });
});
