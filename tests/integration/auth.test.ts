import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LoginAnswer, UserRecord } from '../../src/shared/schemas/users.js';
import {
  call,
  createAgent,
  createAgentWithToken,
  expectStatus,
  type Failure,
  type Item,
  keysDeep,
  login,
  loginAdmin,
  loginAs,
  unique,
  uniqueAddress,
} from '../support/factories.js';
import { insertExpiredSession } from '../support/stored-sessions.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, DIALECTS, useTestApp } from '../support/test-app.js';

const SESSION_USER_KEYS = [
  '_id',
  'id',
  'User_Id',
  'UserName',
  'DisplayName',
  'Email',
  'UserType',
  'userType',
  'isActive',
].sort();

describe.each(DIALECTS)('auth [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
  });

  /** A request only a live session may make. */
  const whoAmI = (token: string) => call(t.app, { url: '/api/agent/my-ghadi', token });

  describe('POST /api/users/login', () => {
    it('answers success, token and the session user for an admin', async () => {
      const answer = expectStatus<LoginAnswer>(await login(t.app, ADMIN_USERNAME, ADMIN_PASSWORD), 200);
      expect(answer.success).toBe(true);
      expect(typeof answer.token).toBe('string');
      expect(Object.keys(answer.user).sort()).toEqual(SESSION_USER_KEYS);
      expect(answer.user).toMatchObject({
        UserName: ADMIN_USERNAME,
        UserType: 'admin',
        userType: 'admin',
        isActive: true,
      });
      expect(typeof answer.user._id).toBe('string');
      expect(answer.user.id).toBe(answer.user._id);
      expect(typeof answer.user.User_Id).toBe('number');
      expect(String(answer.user.User_Id)).toBe(answer.user._id);
    });

    it('answers the agent with userType agent and never a password', async () => {
      const agent = await createAgent(t.app, adminToken);
      const response = await login(t.app, agent.user.UserName, agent.password, uniqueAddress());
      const answer = expectStatus<LoginAnswer>(response, 200);
      expect(answer.user).toMatchObject({
        UserName: agent.user.UserName,
        userType: 'agent',
        UserType: 'agent',
      });
      expect(answer.user.User_Id).toBe(agent.user.User_Id);
      const keys = keysDeep(answer).map((key) => key.toLowerCase());
      expect(keys).not.toContain('password');
      expect(keys).not.toContain('password_hash');
      expect(response.body).not.toContain(agent.password);
      expect(response.body).not.toContain('$argon2');
    });

    it('accepts the username in any letter case', async () => {
      const agent = await createAgent(t.app, adminToken);
      const answer = expectStatus<LoginAnswer>(
        await login(t.app, agent.user.UserName.toUpperCase(), agent.password, uniqueAddress()),
        200,
      );
      expect(answer.user.User_Id).toBe(agent.user.User_Id);
    });

    it('gives the same 401 message for an unknown user, a wrong password and an inactive account', async () => {
      const inactive = await createAgent(t.app, adminToken, { isActive: false });
      const active = await createAgent(t.app, adminToken);
      const unknownUser = await login(t.app, 'nobody-here-at-all', 'whatever-password', uniqueAddress());
      const wrongPassword = await login(t.app, active.user.UserName, 'not-the-password', uniqueAddress());
      const inactiveAccount = await login(t.app, inactive.user.UserName, inactive.password, uniqueAddress());
      const answers = [unknownUser, wrongPassword, inactiveAccount].map((response) => {
        expect(response.statusCode).toBe(401);
        return response.json<Failure>();
      });
      expect(answers[0]?.success).toBe(false);
      expect(answers[0]?.message).toBeTruthy();
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
    });

    it('stores passwords as argon2id hashes', async () => {
      const agent = await createAgent(t.app, adminToken);
      const rows = await t.database.db
        .selectFrom('users')
        .select(['username', 'password_hash'])
        .where('user_id', 'in', [agent.user.User_Id])
        .execute();
      const admin = await t.database.db
        .selectFrom('users')
        .select('password_hash')
        .where('username', '=', ADMIN_USERNAME)
        .executeTakeFirstOrThrow();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.password_hash.startsWith('$argon2id$')).toBe(true);
      expect(rows[0]?.password_hash).not.toContain(agent.password);
      expect(admin.password_hash.startsWith('$argon2id$')).toBe(true);
    });

    it('issues tokens that expire after about 12 hours', async () => {
      const token = await loginAdmin(t.app);
      const claims = decodeJwt(token);
      expect(typeof claims.exp).toBe('number');
      expect(typeof claims.iat).toBe('number');
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(12 * 60 * 60);
      // Issued by the server's own clock: accepted at once.
      expect((await call(t.app, { url: '/api/users', token })).statusCode).toBe(200);
    });

    it('rejects an expired token and a token signed with another key', async () => {
      const { value: secret } = await t.database.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'jwt_secret')
        .executeTakeFirstOrThrow();
      const { sub, ver, jti } = decodeJwt(adminToken);
      const { kid } = decodeProtectedHeader(adminToken);
      const sign = (key: string, expiresAt: number, keyId: string | null = String(kid)) =>
        new SignJWT({ ver })
          .setProtectedHeader({ alg: 'HS256', ...(keyId === null ? {} : { kid: keyId }) })
          .setSubject(String(sub))
          .setIssuer('ghadi-results')
          .setJti(String(jti))
          .setIssuedAt(expiresAt - 3600)
          .setExpirationTime(expiresAt)
          .sign(new TextEncoder().encode(key));
      // The server's time, as it stamped a token just now: this test reads no clock of its own.
      const now = decodeJwt(await loginAdmin(t.app)).iat ?? 0;

      // The same claims with the server's key and a future expiry are accepted: the forgery is faithful.
      const valid = await sign(secret, now + 600);
      expect((await call(t.app, { url: '/api/users', token: valid })).statusCode).toBe(200);

      const expired = await sign(secret, now - 10);
      expect((await call(t.app, { url: '/api/users', token: expired })).statusCode).toBe(401);
      const foreign = await sign('another-secret-that-is-long-enough-to-sign', now + 600);
      expect((await call(t.app, { url: '/api/users', token: foreign })).statusCode).toBe(401);
      // The server's key, but naming no key, an older one or a newer one that is not stored: refused.
      for (const keyId of [null, '0', `${kid}0`]) {
        const unnamed = await sign(secret, now + 600, keyId);
        expect((await call(t.app, { url: '/api/users', token: unnamed })).statusCode, String(keyId)).toBe(
          401,
        );
      }
      // Without an id a token could not be ended by a logout: refused.
      const withoutId = await new SignJWT({ ver })
        .setProtectedHeader({ alg: 'HS256', kid: String(kid) })
        .setSubject(String(sub))
        .setIssuer('ghadi-results')
        .setIssuedAt()
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode(secret));
      expect((await call(t.app, { url: '/api/users', token: withoutId })).statusCode).toBe(401);
    });

    it('gives every token an id of its own', async () => {
      const ids = new Set<unknown>();
      for (let index = 0; index < 3; index++) ids.add(decodeJwt(await loginAdmin(t.app)).jti);
      expect(ids.size).toBe(3);
      for (const id of ids) expect(typeof id).toBe('string');
    });

    it('rejects a malformed token and a non-bearer authorization header', async () => {
      expect((await call(t.app, { url: '/api/users', token: 'not.a.jwt' })).statusCode).toBe(401);
      const basic = await call(t.app, { url: '/api/users', headers: { authorization: 'Basic abc' } });
      expect(basic.statusCode).toBe(401);
      expect(basic.json<Failure>().success).toBe(false);
    });
  });

  describe('POST /api/users/logout', () => {
    const logout = (token: string) => call(t.app, { method: 'POST', url: '/api/users/logout', token });

    it('ends the caller’s token at once, and only that one: the user’s other sessions go on', async () => {
      const agent = await createAgentWithToken(t.app, adminToken);
      const desktop = await loginAs(t.app, agent.user.UserName, agent.password);
      expect((await whoAmI(agent.token)).statusCode).toBe(200);

      const answer = expectStatus<{ success: boolean; message: string }>(await logout(agent.token), 200);
      expect(answer.success).toBe(true);
      const after = await whoAmI(agent.token);
      expect(after.statusCode).toBe(401);
      expect(after.json<Failure>().success).toBe(false);
      expect((await logout(agent.token)).statusCode).toBe(401);

      expect((await whoAmI(desktop)).statusCode).toBe(200);
      const again = await loginAs(t.app, agent.user.UserName, agent.password);
      expect((await whoAmI(again)).statusCode).toBe(200);
    });

    it('works for admins, and needs a live token', async () => {
      const token = await loginAdmin(t.app);
      expect((await call(t.app, { url: '/api/users', token })).statusCode).toBe(200);
      expect((await logout(token)).statusCode).toBe(200);
      expect((await call(t.app, { url: '/api/users', token })).statusCode).toBe(401);
      expect((await call(t.app, { url: '/api/users', token: adminToken })).statusCode).toBe(200);
      expect((await call(t.app, { method: 'POST', url: '/api/users/logout' })).statusCode).toBe(401);
      expect((await logout('not.a.jwt')).statusCode).toBe(401);
    });

    it('keeps an ended session’s row until its token would have expired; a sign-in prunes expired rows', async () => {
      const expiredId = unique('expired');
      await insertExpiredSession(t.database, 1, expiredId);
      const token = await loginAdmin(t.app);
      expect((await logout(token)).statusCode).toBe(200);
      const rows = await t.database.db.selectFrom('sessions').selectAll().execute();
      expect(rows.map((row) => row.session_id)).not.toContain(expiredId);
      const ended = rows.find((row) => row.session_id === decodeJwt(token).jti);
      expect(ended?.ended_at).toEqual(expect.any(String));
      // Kept until its token's own expiry.
      expect(Date.parse(ended?.expires_at ?? '')).toBe((decodeJwt(token).exp ?? 0) * 1000);
    });
  });

  describe('revocation', () => {
    it('a deactivated agent’s token stops working at once, and stays dead after reactivation', async () => {
      const agent = await createAgentWithToken(t.app, adminToken);
      expect((await whoAmI(agent.token)).statusCode).toBe(200);
      const update = (isActive: boolean) =>
        call(t.app, {
          method: 'PUT',
          url: `/api/users/${agent.user._id}`,
          token: adminToken,
          body: { UserName: agent.user.UserName, DisplayName: 'X', Email: agent.user.Email, isActive },
        });
      expect((await update(false)).statusCode).toBe(200);
      expect((await whoAmI(agent.token)).statusCode).toBe(401);
      expect((await update(true)).statusCode).toBe(200);
      expect((await whoAmI(agent.token)).statusCode).toBe(401);
      const fresh = await loginAs(t.app, agent.user.UserName, agent.password);
      expect((await whoAmI(fresh)).statusCode).toBe(200);
    });

    it('a deleted agent’s token stops working and it cannot log in', async () => {
      const agent = await createAgentWithToken(t.app, adminToken);
      expect((await whoAmI(agent.token)).statusCode).toBe(200);
      const deleted = await call(t.app, {
        method: 'DELETE',
        url: `/api/users/${agent.user._id}`,
        token: adminToken,
      });
      expect(deleted.statusCode).toBe(200);
      const after = await whoAmI(agent.token);
      expect(after.statusCode).toBe(401);
      expect(after.json<Failure>().success).toBe(false);
      expect((await login(t.app, agent.user.UserName, agent.password, uniqueAddress())).statusCode).toBe(401);
    });

    it('a new password ends old sessions; a blank password keeps both password and sessions', async () => {
      const agent = await createAgentWithToken(t.app, adminToken);
      const put = (Password: string) =>
        call(t.app, {
          method: 'PUT',
          url: `/api/users/${agent.user._id}`,
          token: adminToken,
          body: {
            UserName: agent.user.UserName,
            DisplayName: agent.user.DisplayName,
            Email: agent.user.Email,
            Password,
          },
        });
      expectStatus<Item<UserRecord>>(await put(''), 200);
      expect((await whoAmI(agent.token)).statusCode).toBe(200);
      expect((await login(t.app, agent.user.UserName, agent.password, uniqueAddress())).statusCode).toBe(200);

      expectStatus<Item<UserRecord>>(await put('brand-new-password'), 200);
      expect((await whoAmI(agent.token)).statusCode).toBe(401);
      expect((await login(t.app, agent.user.UserName, agent.password, uniqueAddress())).statusCode).toBe(401);
      const fresh = await loginAs(t.app, agent.user.UserName, 'brand-new-password');
      expect((await whoAmI(fresh)).statusCode).toBe(200);
    });
  });
});
