import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MeAnswer } from '../../src/shared/schemas/account.js';
import type { ActivityAnswer } from '../../src/shared/schemas/activity.js';
import {
  TWO_FACTOR_INVALID_CODE_MESSAGE,
  TWO_FACTOR_NO_PENDING_MESSAGE,
  TWO_FACTOR_NOT_ON_MESSAGE,
  TWO_FACTOR_REQUIRED_MESSAGE,
  TWO_FACTOR_WRONG_CODE_MESSAGE,
  TWO_FACTOR_WRONG_PASSWORD_MESSAGE,
  type TwoFactorEnableAnswer,
  type TwoFactorSetupAnswer,
} from '../../src/shared/schemas/two-factor.js';
import type { LoginAnswer } from '../../src/shared/schemas/users.js';
import {
  call,
  createAgentWithToken,
  expectStatus,
  type Failure,
  loginAdmin,
  type Response,
  uniqueAddress,
} from '../support/factories.js';
import { attemptKinds } from '../support/login-attempts.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { enableTwoFactor, totpAt } from '../support/totp-codes.js';

const STEP_MS = 30_000;

describe.each(DIALECTS)('two-factor sign-in [%s]', (dialect) => {
  // At the start of a step, so that "the next step" is always 30 s on.
  const clock = new TestClock(Math.floor(Date.now() / STEP_MS) * STEP_MS);
  const t = useTestApp(dialect, { now: clock.now });
  let admin: string;
  /** Every answer the suite saw: none but the setups' own may carry a secret, none a backup code's hash. */
  const seen: string[] = [];

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
  });

  const send = async (options: Parameters<typeof call>[1]) => {
    const answer = await call(t.app, options);
    seen.push(answer.body);
    return answer;
  };
  const signInFrom = (UserName: string, Password: string, Code: string | undefined, remoteAddress: string) =>
    send({
      method: 'POST',
      url: '/api/users/login',
      body: Code === undefined ? { UserName, Password } : { UserName, Password, Code },
      remoteAddress,
    });
  const me = async (token: string) =>
    expectStatus<MeAnswer>(await send({ url: '/api/users/me', token }), 200).data;
  const trail = async (query: string) =>
    expectStatus<ActivityAnswer>(await send({ url: `/api/activity?${query}`, token: admin }), 200).data;
  const methodOf = async (token: string) => {
    const row = await t.database.db
      .selectFrom('sessions')
      .select('method')
      .where('session_id', '=', String(decodeJwt(token).jti))
      .executeTakeFirstOrThrow();
    return row.method;
  };
  const expectCodeRefused = (answer: Response, message = TWO_FACTOR_INVALID_CODE_MESSAGE) => {
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({ success: false, twoFactorRequired: true, message });
  };

  it('sets up, enables, signs in with a code once per step, with a backup code once, and disables', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const name = agent.user.UserName;
    // One address: each success clears the failures before it, as the owner's would.
    const address = uniqueAddress();
    const signIn = (UserName: string, Password: string, Code?: string) =>
      signInFrom(UserName, Password, Code, address);
    const setup = (token = agent.token) => send({ method: 'POST', url: '/api/users/me/2fa/setup', token });
    const enable = (Code: string) =>
      send({ method: 'POST', url: '/api/users/me/2fa/enable', token: agent.token, body: { Code } });

    // Enable before any setup has no secret to check against.
    expect(expectStatus<Failure>(await enable('123456'), 400).message).toBe(TWO_FACTOR_NO_PENDING_MESSAGE);
    const first = expectStatus<TwoFactorSetupAnswer>(await setup(), 200);
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(first.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Ghadi Results:${name}`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      secret: first.secret,
      issuer: 'Ghadi Results',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    // Pending is not in force: the password alone still signs in.
    expect((await me(agent.token)).TwoFactor).toBe(false);
    expect((await signIn(name, agent.password)).statusCode).toBe(200);

    // A second setup replaces the first: the first secret's code no longer enables.
    const { secret } = expectStatus<TwoFactorSetupAnswer>(await setup(), 200);
    expect(secret).not.toBe(first.secret);
    expect(expectStatus<Failure>(await enable(totpAt(first.secret, clock.now())), 400).message).toBe(
      TWO_FACTOR_WRONG_CODE_MESSAGE,
    );
    expect((await enable(totpAt(secret, clock.now() + 3 * STEP_MS))).statusCode).toBe(400);
    const enabled = expectStatus<TwoFactorEnableAnswer>(await enable(totpAt(secret, clock.now())), 200);
    const hashes = (
      await t.database.db.selectFrom('two_factor_backup_codes').select('code_hash').execute()
    ).map((row) => row.code_hash);
    expect(hashes.length).toBeGreaterThanOrEqual(10);
    expect(enabled.backupCodes).toHaveLength(10);
    expect(new Set(enabled.backupCodes).size).toBe(10);
    for (const code of enabled.backupCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect((await me(agent.token)).TwoFactor).toBe(true);
    // On now: a setup would replace the secret in force, so it is refused.
    expect((await setup()).statusCode).toBe(400);

    // A right password alone: 401 with the flag and no token; a wrong one: the ordinary 401.
    const noCode = await signIn(name, agent.password);
    expectCodeRefused(noCode, TWO_FACTOR_REQUIRED_MESSAGE);
    expect(noCode.body).not.toContain('token');
    const wrongPassword = await signIn(name, 'not-the-password', totpAt(secret, clock.now()));
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ success: false, message: 'Invalid username or password' });

    // The enabling code's step is spent: its code does not sign in.
    expectCodeRefused(await signIn(name, agent.password, totpAt(secret, clock.now())));
    clock.advance(STEP_MS);
    const code = totpAt(secret, clock.now());
    const signedIn = expectStatus<LoginAnswer>(
      await signIn(name, agent.password, ` ${code.slice(0, 3)} ${code.slice(3)}`),
      200,
    );
    expect(signedIn.user.UserName).toBe(name);
    expect(await methodOf(signedIn.token)).toBe('password+totp');
    // Replayed in the same step, and a code of an earlier step still within the drift: refused.
    expectCodeRefused(await signIn(name, agent.password, code));
    expectCodeRefused(await signIn(name, agent.password, totpAt(secret, clock.now() - STEP_MS)));
    // Three steps on, the code of the step before (a phone's clock a little behind) is accepted.
    clock.advance(3 * STEP_MS);
    expect((await signIn(name, agent.password, totpAt(secret, clock.now() - STEP_MS))).statusCode).toBe(200);
    clock.advance(STEP_MS);
    expect((await signIn(name, agent.password, totpAt(secret, clock.now()))).statusCode).toBe(200);

    // A backup code, typed in capitals without dashes: once, then never again.
    const [backup, spare] = enabled.backupCodes as [string, string];
    const typed = backup.replaceAll('-', '').toUpperCase();
    const withBackup = expectStatus<LoginAnswer>(await signIn(name, agent.password, typed), 200);
    expect(await methodOf(withBackup.token)).toBe('password+totp');
    expectCodeRefused(await signIn(name, agent.password, backup));

    // Disabling takes the password and a code (a backup code here); a wrong one of either is a 400.
    const disable = (body: unknown) =>
      send({ method: 'POST', url: '/api/users/me/2fa/disable', token: agent.token, body });
    const wrong = await disable({ Password: 'not-the-password', Code: spare });
    expect(expectStatus<Failure>(wrong, 400).message).toBe(TWO_FACTOR_WRONG_PASSWORD_MESSAGE);
    const wrongCode = await disable({
      Password: agent.password,
      Code: totpAt(secret, clock.now() + 5 * STEP_MS),
    });
    expect(expectStatus<Failure>(wrongCode, 400).message).toBe(TWO_FACTOR_WRONG_CODE_MESSAGE);
    expect((await me(agent.token)).TwoFactor).toBe(true);
    expect(expectStatus(await disable({ Password: agent.password, Code: spare }), 200)).toEqual({
      success: true,
      message: 'Two-factor sign-in is off',
    });
    expect((await me(agent.token)).TwoFactor).toBe(false);
    // Checked like a sign-in: the two wrong ones counted as failures, the right one a success.
    expect(await attemptKinds(t.database, name, '127.0.0.1')).toEqual(['failure', 'failure', 'success']);
    expect(expectStatus<Failure>(await disable({ Password: agent.password, Code: spare }), 400).message).toBe(
      TWO_FACTOR_NOT_ON_MESSAGE,
    );
    const plain = expectStatus<LoginAnswer>(await signIn(name, agent.password), 200);
    expect(await methodOf(plain.token)).toBe('password');

    const entries = await trail(`userId=${agent.user.User_Id}&limit=100`);
    const summaries = entries.map((entry) => `${entry.Action}: ${entry.Summary}`);
    expect(summaries).toEqual(
      expect.arrayContaining([
        'two_factor_enable: two-factor sign-in turned on; 10 backup codes issued',
        'two_factor_disable: two-factor sign-in turned off',
        'login: with a two-factor code',
        'login: with a backup code (9 left)',
        'login_failed: wrong two-factor code',
        'login_failed: wrong password (turning two-factor off)',
        'login_failed: wrong two-factor code (turning two-factor off)',
      ]),
    );
    // The secret leaves the server once, in its setup's answer; the backup codes once, in enable's.
    const after = seen.filter((body) => !body.includes('"otpauthUrl"'));
    expect(after.length).toBe(seen.length - 2);
    const forbidden = [first.secret, secret, ...hashes];
    for (const body of after) for (const text of forbidden) expect(body).not.toContain(text);
    for (const text of [...forbidden, ...enabled.backupCodes])
      expect(JSON.stringify(entries)).not.toContain(text);
  });

  it('turns a user’s two-factor off for an admin (a lost phone), in the activity trail', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    await enableTwoFactor(t.app, agent.token, clock.now());
    const address = uniqueAddress();
    expectCodeRefused(
      await signInFrom(agent.user.UserName, agent.password, undefined, address),
      TWO_FACTOR_REQUIRED_MESSAGE,
    );
    const url = `/api/users/${agent.user._id}/2fa`;
    expect((await send({ method: 'DELETE', url, token: agent.token })).statusCode).toBe(403);
    expect(expectStatus(await send({ method: 'DELETE', url, token: admin }), 200)).toEqual({
      success: true,
      message: 'Two-factor sign-in is off',
    });
    expect((await me(agent.token)).TwoFactor).toBe(false);
    expect((await signInFrom(agent.user.UserName, agent.password, undefined, address)).statusCode).toBe(200);
    expect(expectStatus<Failure>(await send({ method: 'DELETE', url, token: admin }), 400).message).toBe(
      TWO_FACTOR_NOT_ON_MESSAGE,
    );
    expect((await send({ method: 'DELETE', url: '/api/users/999999/2fa', token: admin })).statusCode).toBe(
      404,
    );
    // The trail's userId is the author's: the admin's entry is found by its target.
    const entries = await trail('action=two_factor_disable&limit=100');
    const entry = entries.find((found) => found.Target.Id === String(agent.user.User_Id));
    expect(entry).toMatchObject({
      Action: 'two_factor_disable',
      Role: 'admin',
      Target: { Id: String(agent.user.User_Id), Name: agent.user.UserName },
      Summary: 'two-factor sign-in turned off by root-admin',
    });
  });

  it('lets one of two concurrent sign-ins with the same code or backup code through', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const { secret, backupCodes } = await enableTwoFactor(t.app, agent.token, clock.now());
    clock.advance(STEP_MS);
    const both = async (code: string) => {
      const answers = await Promise.all(
        [0, 1].map(() => signInFrom(agent.user.UserName, agent.password, code, uniqueAddress())),
      );
      return answers.map((answer) => answer.statusCode).sort();
    };
    expect(await both(totpAt(secret, clock.now()))).toEqual([200, 401]);
    expect(await both(backupCodes[0] ?? '')).toEqual([200, 401]);
  });
});
