import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionsAnswer, SessionsEndedAnswer } from '../../src/shared/schemas/account.js';
import type { ActivityAnswer } from '../../src/shared/schemas/activity.js';
import type { LoginAnswer } from '../../src/shared/schemas/users.js';
import {
  call,
  createAgent,
  createAgentWithToken,
  expectStatus,
  type Failure,
  keysDeep,
  login,
  loginAdmin,
  loginAs,
  uniqueAddress,
} from '../support/factories.js';
import { pollUntil } from '../support/poll-until.js';
import { insertExpiredSession } from '../support/stored-sessions.js';
import { createTestApp, DIALECTS, tempDir, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

const MINUTE = 60_000;

/** Signs in from an address and a user agent of its own; answers the token. */
async function signIn(
  app: FastifyInstance,
  UserName: string,
  Password: string,
  userAgent = 'SessionsTest/1.0',
) {
  const answer = await call(app, {
    method: 'POST',
    url: '/api/users/login',
    body: { UserName, Password },
    headers: { 'user-agent': userAgent },
    remoteAddress: uniqueAddress(),
  });
  return expectStatus<LoginAnswer>(answer, 200).token;
}

const sessionOf = (token: string) => String(decodeJwt(token).jti);

describe.each(DIALECTS)('sessions [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, { now: clock.now });
  let admin: string;

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
  });

  /** A request only a live session may make. */
  const whoAmI = (token: string, app = t.app) => call(app, { url: '/api/users/me', token });
  const list = async (token: string) =>
    expectStatus<SessionsAnswer>(await call(t.app, { url: '/api/users/me/sessions', token }), 200).data;
  const end = (token: string, id: string) =>
    call(t.app, { method: 'DELETE', url: `/api/users/me/sessions/${id}`, token });
  const endOthers = (token: string) =>
    call(t.app, { method: 'POST', url: '/api/users/me/sessions/end-others', token });
  const storedSession = (id: string) =>
    t.database.db.selectFrom('sessions').selectAll().where('session_id', '=', id).executeTakeFirst();

  it('lists each sign-in as a session, newest first, the caller’s marked current, never a token', async () => {
    const agent = await createAgent(t.app, admin);
    const address = uniqueAddress();
    const first = expectStatus<LoginAnswer>(
      await call(t.app, {
        method: 'POST',
        url: '/api/users/login',
        body: { UserName: agent.user.UserName, Password: agent.password },
        headers: { 'user-agent': 'Phone/1.0' },
        remoteAddress: address,
      }),
      200,
    ).token;
    clock.advance(1000);
    const second = await signIn(t.app, agent.user.UserName, agent.password, 'Desktop/2.0');

    const response = await call(t.app, { url: '/api/users/me/sessions', token: first });
    const sessions = expectStatus<SessionsAnswer>(response, 200).data;
    expect(sessions.map((session) => session._id)).toEqual([sessionOf(second), sessionOf(first)]);
    expect(sessions[1]).toEqual({
      _id: sessionOf(first),
      CreatedAt: expect.any(String),
      LastSeenAt: expect.any(String),
      Ip: address,
      UserAgent: 'Phone/1.0',
      Current: true,
    });
    expect(sessions[0]).toMatchObject({ UserAgent: 'Desktop/2.0', Current: false });
    expect(Date.parse(sessions[0]?.CreatedAt ?? '')).toBe(Date.parse(sessions[1]?.CreatedAt ?? '') + 1000);
    expect(response.body).not.toContain(first);
    expect(response.body).not.toContain(second);
    expect(keysDeep(sessions).map((key) => key.toLowerCase())).not.toContain('token');
    expect((await list(second)).map((session) => session.Current)).toEqual([true, false]);
  });

  it('ends one session: its token answers 401 at once, the other goes on; a second end is a 404', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const phone = await signIn(t.app, agent.user.UserName, agent.password);
    const answer = expectStatus<{ success: boolean; message: string }>(
      await end(agent.token, sessionOf(phone)),
      200,
    );
    expect(answer).toEqual({ success: true, message: 'Session ended' });
    const refused = await whoAmI(phone);
    expect(refused.statusCode).toBe(401);
    expect(refused.json<Failure>().success).toBe(false);
    expect((await whoAmI(agent.token)).statusCode).toBe(200);
    expect((await list(agent.token)).map((session) => session._id)).toEqual([sessionOf(agent.token)]);
    expect((await end(agent.token, sessionOf(phone))).statusCode).toBe(404);
    expect((await storedSession(sessionOf(phone)))?.ended_at).toEqual(expect.any(String));
  });

  it('ends only one’s own sessions: another user’s id is a 404 and that session goes on', async () => {
    const mine = await createAgentWithToken(t.app, admin);
    const theirs = await createAgentWithToken(t.app, admin);
    const answer = await end(mine.token, sessionOf(theirs.token));
    expect(answer.statusCode).toBe(404);
    expect(answer.json<Failure>()).toEqual({ success: false, message: 'Session not found' });
    expect((await end(admin, sessionOf(theirs.token))).statusCode).toBe(404);
    expect((await whoAmI(theirs.token)).statusCode).toBe(200);
    expect((await end(mine.token, 'no-such-session')).statusCode).toBe(404);
    expect((await end(mine.token, 'not%20an%20id')).statusCode).toBe(400);
  });

  it('ends the current session too, like a sign-out', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    expectStatus(await end(agent.token, sessionOf(agent.token)), 200);
    expect((await whoAmI(agent.token)).statusCode).toBe(401);
  });

  it('ends all the others, keeps the current one, and says so in the activity trail', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const others = [
      await signIn(t.app, agent.user.UserName, agent.password),
      await signIn(t.app, agent.user.UserName, agent.password),
    ];
    const answer = expectStatus<SessionsEndedAnswer>(await endOthers(agent.token), 200);
    expect(answer).toEqual({ success: true, message: 'Other sessions ended', ended: 2 });
    for (const token of others) expect((await whoAmI(token)).statusCode).toBe(401);
    expect((await whoAmI(agent.token)).statusCode).toBe(200);
    expect((await list(agent.token)).map((session) => session.Current)).toEqual([true]);
    expect(expectStatus<SessionsEndedAnswer>(await endOthers(agent.token), 200).ended).toBe(0);

    const trail = expectStatus<ActivityAnswer>(
      await call(t.app, {
        url: `/api/activity?action=session_end&userId=${agent.user.User_Id}`,
        token: admin,
      }),
      200,
    );
    // One entry: the second call ended nothing and records nothing.
    expect(trail.data).toHaveLength(1);
    expect(trail.data[0]).toMatchObject({
      UserId: agent.user.User_Id,
      Target: { Id: String(agent.user.User_Id), Name: agent.user.UserName },
      Summary: '2 other sessions ended',
    });
  });

  it('an admin ends every session of a user; an unknown user is a 404; agents may not', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const second = await signIn(t.app, agent.user.UserName, agent.password);
    const endAll = (id: number | string, token = admin) =>
      call(t.app, { method: 'DELETE', url: `/api/users/${id}/sessions`, token });
    expect((await endAll(agent.user.User_Id, agent.token)).statusCode).toBe(403);
    expect((await whoAmI(agent.token)).statusCode).toBe(200);

    const answer = expectStatus<SessionsEndedAnswer>(await endAll(agent.user.User_Id), 200);
    expect(answer).toMatchObject({ success: true, ended: 2 });
    for (const token of [agent.token, second]) expect((await whoAmI(token)).statusCode).toBe(401);
    expect((await whoAmI(admin)).statusCode).toBe(200);
    expect((await endAll(999_999)).statusCode).toBe(404);
    // The account itself goes on: it signs in again.
    const again = await signIn(t.app, agent.user.UserName, agent.password);
    expect((await whoAmI(again)).statusCode).toBe(200);
  });

  it('sign-out ends the session in the list too', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const other = await signIn(t.app, agent.user.UserName, agent.password);
    expectStatus(await call(t.app, { method: 'POST', url: '/api/users/logout', token: other }), 200);
    expect((await list(agent.token)).map((session) => session._id)).toEqual([sessionOf(agent.token)]);
    expect((await storedSession(sessionOf(other)))?.ended_at).toEqual(expect.any(String));
  });

  it('deactivating, deleting or resetting the password of an account ends its sessions in the list', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const put = (body: Record<string, unknown>) =>
      call(t.app, {
        method: 'PUT',
        url: `/api/users/${agent.user._id}`,
        token: admin,
        body: { UserName: agent.user.UserName, DisplayName: 'X', Email: agent.user.Email, ...body },
      });
    expectStatus(await put({ Password: 'reset-by-admin-1' }), 200);
    expect((await storedSession(sessionOf(agent.token)))?.ended_at).toEqual(expect.any(String));
    const fresh = await signIn(t.app, agent.user.UserName, 'reset-by-admin-1');
    expectStatus(await put({ isActive: false }), 200);
    expect((await storedSession(sessionOf(fresh)))?.ended_at).toEqual(expect.any(String));
    expectStatus(await put({ isActive: true }), 200);
    const last = await signIn(t.app, agent.user.UserName, 'reset-by-admin-1');
    expectStatus(
      await call(t.app, { method: 'DELETE', url: `/api/users/${agent.user._id}`, token: admin }),
      200,
    );
    expect((await storedSession(sessionOf(last)))?.ended_at).toEqual(expect.any(String));
  });

  it('stores the user agent capped, without control characters', async () => {
    const agent = await createAgent(t.app, admin);
    const token = await signIn(
      t.app,
      agent.user.UserName,
      agent.password,
      `Odd\tAgent\u0085/1\u009b${'x'.repeat(400)}`,
    );
    const [session] = await list(token);
    expect(session?.UserAgent.startsWith('OddAgent/1xxx')).toBe(true);
    expect(session?.UserAgent).toHaveLength(256);
    expect(session?.UserAgent.endsWith('…')).toBe(true);
  });

  it('writes last_seen_at at most once a minute per session, by the app’s clock', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const id = sessionOf(agent.token);
    const signedInAt = (await storedSession(id))?.last_seen_at;
    for (let request = 0; request < 5; request++) {
      clock.advance(10_000);
      expect((await whoAmI(agent.token)).statusCode).toBe(200);
    }
    // 50 seconds of requests: still the sign-in's time, no write was made.
    expect((await storedSession(id))?.last_seen_at).toBe(signedInAt);
    clock.advance(11_000);
    expect((await whoAmI(agent.token)).statusCode).toBe(200);
    const seen = new Date(clock.now()).toISOString();
    await pollUntil('the last-seen write', 5000, async () =>
      (await storedSession(id))?.last_seen_at === seen ? true : undefined,
    );
    clock.advance(30_000);
    expect((await whoAmI(agent.token)).statusCode).toBe(200);
    expect((await storedSession(id))?.last_seen_at).toBe(seen);
    expect((await list(agent.token))[0]?.LastSeenAt).toBe(seen);
  });

  it('no longer lists a session whose token has expired, nor ends it', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    await insertExpiredSession(t.database, agent.user.User_Id, 'expired-session');
    // Expiry is the token's (by the system clock), whatever the app's clock says.
    clock.advance(-24 * 60 * MINUTE);
    expect((await list(agent.token)).map((session) => session._id)).toEqual([sessionOf(agent.token)]);
    expect((await end(agent.token, 'expired-session')).statusCode).toBe(404);
    expect(expectStatus<SessionsEndedAnswer>(await endOthers(agent.token), 200).ended).toBe(0);
    clock.advance(24 * 60 * MINUTE);
  });

  it('outlives the app’s clock moving on: a token lasts 12 hours of the system clock', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    clock.advance(13 * 60 * MINUTE);
    expect((await whoAmI(agent.token)).statusCode).toBe(200);
    expect((await list(agent.token)).map((session) => session._id)).toEqual([sessionOf(agent.token)]);
  });

  it('GET /api/users/me answers the login answer’s user with TwoFactor and Passkeys', async () => {
    const agent = await createAgent(t.app, admin);
    const signedIn = expectStatus<LoginAnswer>(
      await login(t.app, agent.user.UserName, agent.password, uniqueAddress()),
      200,
    );
    const me = expectStatus<{ success: boolean; data: Record<string, unknown> }>(
      await whoAmI(signedIn.token),
      200,
    );
    expect(me).toEqual({ success: true, data: { ...signedIn.user, TwoFactor: false, Passkeys: 0 } });
    expect((await call(t.app, { url: '/api/users/me' })).statusCode).toBe(401);
  });
});

describe.each(DIALECTS)('sessions across processes [%s]', (dialect) => {
  const dir = tempDir();

  it('an ended session is refused at once by another app on the same database', async () => {
    const t = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'shared.db') });
    try {
      const other = await t.startAnother({ ownConnection: true });
      const admin = await loginAdmin(t.app);
      const agent = await createAgentWithToken(t.app, admin);
      const phone = await loginAs(other, agent.user.UserName, agent.password);
      expect((await call(other, { url: '/api/users/me', token: agent.token })).statusCode).toBe(200);
      expect((await call(t.app, { url: '/api/users/me', token: phone })).statusCode).toBe(200);

      // Ended on the first app: the second refuses it on its next request.
      expectStatus(
        await call(t.app, {
          method: 'DELETE',
          url: `/api/users/me/sessions/${sessionOf(phone)}`,
          token: agent.token,
        }),
        200,
      );
      expect((await call(other, { url: '/api/users/me', token: phone })).statusCode).toBe(401);
      expect((await call(other, { url: '/api/users/me', token: agent.token })).statusCode).toBe(200);

      // Ended on the second by a sign-out: the first refuses it.
      expectStatus(await call(other, { method: 'POST', url: '/api/users/logout', token: agent.token }), 200);
      expect((await call(t.app, { url: '/api/users/me', token: agent.token })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
