import { beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentRecord } from '../../src/shared/schemas/assignments.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { UserRecord } from '../../src/shared/schemas/users.js';
import {
  assignGhadis,
  call,
  createAgent,
  createAgentWithToken,
  createGhadi,
  expectStatus,
  type Failure,
  type Item,
  type List,
  loginAdmin,
  postResult,
  today,
} from '../support/factories.js';
import { ADMIN_USERNAME, DIALECTS, useTestApp } from '../support/test-app.js';

describe.each(DIALECTS)('assignments [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
  });

  const post = (body: unknown) =>
    call(t.app, { method: 'POST', url: '/api/usermaps', token: adminToken, body });
  const remove = (id: string) =>
    call(t.app, { method: 'DELETE', url: `/api/usermaps/${id}`, token: adminToken });
  const listAssignments = async () =>
    expectStatus<List<AssignmentRecord>>(await call(t.app, { url: '/api/usermaps', token: adminToken }), 200);
  const myGhadis = async (token: string) =>
    expectStatus<List<GhadiRecord>>(await call(t.app, { url: '/api/agent/my-ghadi', token }), 200);
  const storedFor = (userId: number) =>
    t.database.db
      .selectFrom('usermaps')
      .select(['gid'])
      .where('user_id', '=', userId)
      .orderBy('gid')
      .execute();

  it('assigns one ghadi given GID as a number', async () => {
    const agent = await createAgent(t.app, adminToken);
    const ghadi = await createGhadi(t.app, adminToken);
    const answer = expectStatus<Item<AssignmentRecord[]>>(
      await post({ User_Id: agent.user.User_Id, GID: ghadi.GID }),
      201,
    );
    expect(answer.success).toBe(true);
    expect(answer.data).toHaveLength(1);
    expect(answer.data[0]).toMatchObject({
      User_Id: agent.user.User_Id,
      GID: ghadi.GID,
      UserName: agent.user.UserName,
      NameEn: ghadi.NameEn,
    });
    expect(typeof answer.data[0]?._id).toBe('string');
    expect(answer.data[0]?.id).toBe(answer.data[0]?._id);
  });

  it('assigns several ghadis given GID as a list (and digit strings)', async () => {
    const agent = await createAgent(t.app, adminToken);
    const first = await createGhadi(t.app, adminToken);
    const second = await createGhadi(t.app, adminToken);
    const answer = expectStatus<Item<AssignmentRecord[]>>(
      await post({ User_Id: String(agent.user.User_Id), GID: [first.GID, String(second.GID)] }),
      201,
    );
    expect(answer.data.map((assignment) => assignment.GID).sort((a, b) => a - b)).toEqual(
      [first.GID, second.GID].sort((a, b) => a - b),
    );
    expect((await storedFor(agent.user.User_Id)).map((row) => row.gid)).toEqual(
      [first.GID, second.GID].sort((a, b) => a - b),
    );
  });

  it('refuses a user who is not an agent (400)', async () => {
    const users = expectStatus<List<UserRecord>>(
      await call(t.app, { url: '/api/users', token: adminToken }),
      200,
    );
    const admin = users.data.find((user) => user.UserName === ADMIN_USERNAME);
    expect(admin?.UserType).toBe('admin');
    const ghadi = await createGhadi(t.app, adminToken);
    const response = await post({ User_Id: admin?.User_Id, GID: ghadi.GID });
    expect(response.statusCode).toBe(400);
    expect(response.json<Failure>()).toMatchObject({
      success: false,
      message: expect.stringContaining('User_Id'),
    });
    expect(await storedFor(admin?.User_Id ?? 0)).toEqual([]);
  });

  it('answers 404 for an unknown or deleted user', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    expect((await post({ User_Id: 55555555, GID: ghadi.GID })).statusCode).toBe(404);
    const agent = await createAgent(t.app, adminToken);
    await call(t.app, { method: 'DELETE', url: `/api/users/${agent.user._id}`, token: adminToken });
    expect((await post({ User_Id: agent.user.User_Id, GID: ghadi.GID })).statusCode).toBe(404);
  });

  it('answers 404 when a ghadi does not exist (or is deleted), writing nothing', async () => {
    const agent = await createAgent(t.app, adminToken);
    const ghadi = await createGhadi(t.app, adminToken);
    const gone = await createGhadi(t.app, adminToken);
    await call(t.app, { method: 'DELETE', url: `/api/ghadis/${gone.GID}`, token: adminToken });
    for (const GID of [66666666, [ghadi.GID, 66666666], gone.GID]) {
      const response = await post({ User_Id: agent.user.User_Id, GID });
      expect(response.statusCode).toBe(404);
      expect(response.json<Failure>().success).toBe(false);
    }
    expect(await storedFor(agent.user.User_Id)).toEqual([]);
  });

  it('answers 409 when the ghadi is already assigned to the agent', async () => {
    const agent = await createAgent(t.app, adminToken);
    const ghadi = await createGhadi(t.app, adminToken);
    const other = await createGhadi(t.app, adminToken);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, [ghadi.GID, other.GID]);
    const again = await post({ User_Id: agent.user.User_Id, GID: ghadi.GID });
    expect(again.statusCode).toBe(409);
    expect(again.json<Failure>()).toMatchObject({ success: false, message: expect.any(String) });
    expect((await post({ User_Id: agent.user.User_Id, GID: [other.GID, ghadi.GID] })).statusCode).toBe(409);
    expect(await storedFor(agent.user.User_Id)).toHaveLength(2);

    // A list with something new adds the new pairs only.
    const third = await createGhadi(t.app, adminToken);
    const mixed = expectStatus<Item<AssignmentRecord[]>>(
      await post({ User_Id: agent.user.User_Id, GID: [ghadi.GID, third.GID] }),
      201,
    );
    expect(mixed.data.map((assignment) => assignment.GID)).toContain(third.GID);
    expect(await storedFor(agent.user.User_Id)).toHaveLength(3);
  });

  it('refuses an empty list or a missing field (400 naming the field)', async () => {
    const agent = await createAgent(t.app, adminToken);
    const empty = await post({ User_Id: agent.user.User_Id, GID: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<Failure>().message).toContain('GID');
    const noUser = await post({ GID: 1 });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json<Failure>().message).toContain('User_Id');
  });

  it('lets one ghadi go to several agents', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const first = await createAgent(t.app, adminToken);
    const second = await createAgent(t.app, adminToken);
    await assignGhadis(t.app, adminToken, first.user.User_Id, ghadi.GID);
    await assignGhadis(t.app, adminToken, second.user.User_Id, ghadi.GID);
    const assignments = (await listAssignments()).data.filter((assignment) => assignment.GID === ghadi.GID);
    expect(assignments.map((assignment) => assignment.User_Id).sort((a, b) => a - b)).toEqual(
      [first.user.User_Id, second.user.User_Id].sort((a, b) => a - b),
    );
  });

  it('GET /api/usermaps lists the assignments as { success, data }', async () => {
    const agent = await createAgent(t.app, adminToken);
    const ghadi = await createGhadi(t.app, adminToken);
    const [created] = await assignGhadis(t.app, adminToken, agent.user.User_Id, ghadi.GID);
    const answer = await listAssignments();
    expect(answer.success).toBe(true);
    expect(answer.data.find((assignment) => assignment._id === created?._id)).toEqual(created);
    for (const assignment of answer.data) {
      expect(typeof assignment.User_Id).toBe('number');
      expect(typeof assignment.GID).toBe('number');
    }
  });

  it('GET /api/agent/my-ghadi lists the caller’s ghadis by OrderId, and nobody else’s', async () => {
    const agent = await createAgentWithToken(t.app, adminToken);
    const late = await createGhadi(t.app, adminToken, { OrderId: 900 });
    const early = await createGhadi(t.app, adminToken, { OrderId: 100 });
    const middle = await createGhadi(t.app, adminToken, { OrderId: 500 });
    const notMine = await createGhadi(t.app, adminToken, { OrderId: 300 });
    expect((await myGhadis(agent.token)).data).toEqual([]);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, [late.GID, early.GID, middle.GID]);
    const other = await createAgent(t.app, adminToken);
    await assignGhadis(t.app, adminToken, other.user.User_Id, notMine.GID);

    const answer = await myGhadis(agent.token);
    expect(answer.success).toBe(true);
    expect(answer.data.map((ghadi) => ghadi.GID)).toEqual([early.GID, middle.GID, late.GID]);
    expect(answer.data[0]).toMatchObject({ NameEn: early.NameEn, OrderId: 100, TodayResult: '' });
  });

  it('DELETE /api/usermaps/{id} removes one assignment; the agent loses that ghadi only', async () => {
    const agent = await createAgentWithToken(t.app, adminToken);
    const kept = await createGhadi(t.app, adminToken, { OrderId: 1 });
    const dropped = await createGhadi(t.app, adminToken, { OrderId: 2 });
    const assignments = await assignGhadis(t.app, adminToken, agent.user.User_Id, [kept.GID, dropped.GID]);
    const target = assignments.find((assignment) => assignment.GID === dropped.GID);
    if (!target) throw new Error('assignment missing');

    const response = await remove(target._id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true });
    expect((await listAssignments()).data.map((assignment) => assignment._id)).not.toContain(target._id);
    expect((await myGhadis(agent.token)).data.map((ghadi) => ghadi.GID)).toEqual([kept.GID]);
    const submit = await postResult(t.app, agent.token, {
      ghadiId: dropped.GID,
      result: '12',
      dateTime: today(),
    });
    expect(submit.statusCode).toBe(403);
    expect(
      (await postResult(t.app, agent.token, { ghadiId: kept.GID, result: '12', dateTime: today() }))
        .statusCode,
    ).toBe(200);
    expect((await remove(target._id)).statusCode).toBe(404);
  });

  it('deleting an agent removes its assignments', async () => {
    const agent = await createAgent(t.app, adminToken);
    const ghadi = await createGhadi(t.app, adminToken);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, ghadi.GID);
    await call(t.app, { method: 'DELETE', url: `/api/users/${agent.user._id}`, token: adminToken });
    expect(await storedFor(agent.user.User_Id)).toEqual([]);
    expect(
      (await listAssignments()).data.filter((assignment) => assignment.User_Id === agent.user.User_Id),
    ).toEqual([]);
  });
});
