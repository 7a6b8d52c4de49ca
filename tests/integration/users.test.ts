import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/database.js';
import type { UserRecord } from '../../src/shared/schemas/users.js';
import {
  agentFields,
  call,
  createAgent,
  expectStatus,
  type Failure,
  getCount,
  type Item,
  keysDeep,
  type List,
  loginAdmin,
  unique,
} from '../support/factories.js';
import { ADMIN_USERNAME, DIALECTS, useTestApp } from '../support/test-app.js';

const FORBIDDEN_KEYS = ['password', 'password_hash', 'passwordhash', 'hash'];

function expectNoPassword(answer: unknown) {
  const keys = keysDeep(answer).map((key) => key.toLowerCase());
  for (const key of FORBIDDEN_KEYS) expect(keys).not.toContain(key);
  expect(JSON.stringify(answer)).not.toContain('$argon2');
}

/** An admin made behind the API's back (the API only creates agents). */
async function insertAdmin(database: Database, isActive = true): Promise<number> {
  const now = new Date().toISOString();
  const row = await database.db
    .insertInto('users')
    .values({
      username: unique('admin'),
      display_name: 'Second admin',
      email: 'second@example.com',
      password_hash: 'not-a-hash',
      user_type: 'admin',
      is_active: isActive ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  return row.user_id;
}

async function storedUser(database: Database, userId: number) {
  return database.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

describe.each(DIALECTS)('users [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
  });

  const put = (id: string | number, body: unknown) =>
    call(t.app, { method: 'PUT', url: `/api/users/${id}`, token: adminToken, body });
  const remove = (id: string | number) =>
    call(t.app, { method: 'DELETE', url: `/api/users/${id}`, token: adminToken });
  const list = async () =>
    expectStatus<List<UserRecord>>(await call(t.app, { url: '/api/users', token: adminToken }), 200);

  it('GET /api/users lists users as { success, data } with string _id, numeric User_Id and no password', async () => {
    const agent = await createAgent(t.app, adminToken);
    const answer = await list();
    expect(answer.success).toBe(true);
    expect(Array.isArray(answer.data)).toBe(true);
    const mine = answer.data.find((user) => user.User_Id === agent.user.User_Id);
    expect(mine).toMatchObject({ UserName: agent.user.UserName, UserType: 'agent', userType: 'agent' });
    expect(answer.data.some((user) => user.UserName === ADMIN_USERNAME && user.UserType === 'admin')).toBe(
      true,
    );
    for (const user of answer.data) {
      expect(typeof user._id).toBe('string');
      expect(user.id).toBe(user._id);
      expect(typeof user.User_Id).toBe('number');
      expect(typeof user.isActive).toBe('boolean');
    }
    expectNoPassword(answer);
  });

  it('POST /api/users creates an active agent by default and answers it without a password', async () => {
    const fields = agentFields();
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/users',
      token: adminToken,
      body: fields,
    });
    const answer = expectStatus<Item<UserRecord>>(response, 201);
    expect(answer.success).toBe(true);
    expect(answer.data).toMatchObject({
      UserName: fields.UserName,
      DisplayName: fields.DisplayName,
      Email: fields.Email,
      UserType: 'agent',
      userType: 'agent',
      isActive: true,
    });
    expect(typeof answer.data.User_Id).toBe('number');
    expect(answer.data._id).toBe(String(answer.data.User_Id));
    expectNoPassword(answer);
    expect(response.body).not.toContain(fields.Password);
    expect((await storedUser(t.database, answer.data.User_Id))?.user_type).toBe('agent');
  });

  it('POST /api/users keeps isActive false when asked', async () => {
    const agent = await createAgent(t.app, adminToken, { isActive: false });
    expect(agent.user.isActive).toBe(false);
    expect((await storedUser(t.database, agent.user.User_Id))?.is_active).toBe(0);
  });

  it('POST /api/users with UserType admin is refused (400) and creates nothing', async () => {
    const fields = agentFields();
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/users',
      token: adminToken,
      body: { ...fields, UserType: 'admin' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<Failure>()).toMatchObject({ success: false });
    expect(response.json<Failure>().message).toContain('UserType');
    const rows = await t.database.db
      .selectFrom('users')
      .select('user_id')
      .where('username', '=', fields.UserName)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('POST /api/users accepts UserType agent explicitly', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/users',
      token: adminToken,
      body: { ...agentFields(), UserType: 'agent' },
    });
    expect(expectStatus<Item<UserRecord>>(response, 201).data.UserType).toBe('agent');
  });

  it('POST /api/users ignores User_Id, isDeleted and other server-owned fields in the body', async () => {
    const fields = agentFields();
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/users',
      token: adminToken,
      body: {
        ...fields,
        User_Id: 987654,
        _id: '987654',
        isDeleted: true,
        is_deleted: 1,
        user_type: 'admin',
        userType: 'admin',
        token_version: 99,
      },
    });
    const created = expectStatus<Item<UserRecord>>(response, 201).data;
    expect(created.User_Id).not.toBe(987654);
    expect(created.UserType).toBe('agent');
    const row = await storedUser(t.database, created.User_Id);
    expect(row).toMatchObject({ is_deleted: 0, user_type: 'agent', token_version: 0 });
    expect((await list()).data.map((user) => user.User_Id)).toContain(created.User_Id);
    expect(await storedUser(t.database, 987654)).toBeUndefined();
  });

  it('refuses a duplicate username in any letter case (409); a deleted user’s name can be reused', async () => {
    const agent = await createAgent(t.app, adminToken);
    const duplicate = await call(t.app, {
      method: 'POST',
      url: '/api/users',
      token: adminToken,
      body: agentFields({ UserName: agent.user.UserName.toUpperCase() }),
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json<Failure>()).toMatchObject({ success: false, message: 'Username already exists' });

    expect((await remove(agent.user._id)).statusCode).toBe(200);
    const reused = await createAgent(t.app, adminToken, { UserName: agent.user.UserName });
    expect(reused.user.User_Id).not.toBe(agent.user.User_Id);
  });

  it('two simultaneous creations of one username give one 201 and one 409', async () => {
    const fields = agentFields();
    const responses = await Promise.all(
      [1, 2].map(() => call(t.app, { method: 'POST', url: '/api/users', token: adminToken, body: fields })),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
  });

  it('PUT /api/users/{id} updates the fields and answers without a password', async () => {
    const agent = await createAgent(t.app, adminToken);
    const newName = unique('renamed');
    const response = await put(agent.user._id, {
      UserName: newName,
      DisplayName: 'New display',
      Email: 'new@example.com',
      isActive: false,
    });
    const answer = expectStatus<Item<UserRecord>>(response, 200);
    expect(answer.data).toMatchObject({
      User_Id: agent.user.User_Id,
      UserName: newName,
      DisplayName: 'New display',
      Email: 'new@example.com',
      isActive: false,
      UserType: 'agent',
    });
    expectNoPassword(answer);
  });

  it('PUT /api/users/{id} to a taken username answers 409', async () => {
    const first = await createAgent(t.app, adminToken);
    const second = await createAgent(t.app, adminToken);
    const response = await put(second.user._id, {
      UserName: first.user.UserName,
      DisplayName: 'x',
      Email: 'x@example.com',
    });
    expect(response.statusCode).toBe(409);
  });

  it('PUT cannot make an agent an admin', async () => {
    const agent = await createAgent(t.app, adminToken);
    const response = await put(agent.user._id, {
      UserName: agent.user.UserName,
      DisplayName: agent.user.DisplayName,
      Email: agent.user.Email,
      UserType: 'admin',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<Failure>().message).toContain('UserType');
    expect((await storedUser(t.database, agent.user.User_Id))?.user_type).toBe('agent');
  });

  it('PUT ignores User_Id and isDeleted in the body', async () => {
    const agent = await createAgent(t.app, adminToken);
    const other = await createAgent(t.app, adminToken);
    const response = await put(agent.user._id, {
      UserName: agent.user.UserName,
      DisplayName: 'Still me',
      Email: agent.user.Email,
      User_Id: other.user.User_Id,
      isDeleted: true,
      is_deleted: 1,
    });
    const answer = expectStatus<Item<UserRecord>>(response, 200);
    expect(answer.data.User_Id).toBe(agent.user.User_Id);
    expect((await storedUser(t.database, agent.user.User_Id))?.is_deleted).toBe(0);
    expect((await storedUser(t.database, other.user.User_Id))?.display_name).toBe(other.user.DisplayName);
    expect((await list()).data.map((user) => user.User_Id)).toContain(agent.user.User_Id);
  });

  it('PUT and DELETE of an unknown or deleted user answer 404', async () => {
    const agent = await createAgent(t.app, adminToken);
    expect((await remove(agent.user._id)).statusCode).toBe(200);
    const body = { UserName: unique('x'), DisplayName: 'x', Email: 'x@example.com' };
    for (const id of [agent.user._id, '99999999']) {
      const updated = await put(id, body);
      expect(updated.statusCode).toBe(404);
      expect(updated.json<Failure>()).toMatchObject({ success: false });
      expect((await remove(id)).statusCode).toBe(404);
    }
  });

  it('DELETE hides the agent from the list but keeps its row', async () => {
    const agent = await createAgent(t.app, adminToken);
    const answer = expectStatus<{ success: boolean }>(await remove(agent.user._id), 200);
    expect(answer.success).toBe(true);
    expect((await list()).data.map((user) => user.User_Id)).not.toContain(agent.user.User_Id);
    expect((await storedUser(t.database, agent.user.User_Id))?.is_deleted).toBe(1);
  });

  it('GET /api/users/count counts agents only: not admins, not deleted ones', async () => {
    const before = await getCount(t.app, adminToken, 'users');
    const first = await createAgent(t.app, adminToken);
    await createAgent(t.app, adminToken, { isActive: false });
    expect(await getCount(t.app, adminToken, 'users')).toBe(before + 2);
    await insertAdmin(t.database);
    expect(await getCount(t.app, adminToken, 'users')).toBe(before + 2);
    expect((await remove(first.user._id)).statusCode).toBe(200);
    const answer = expectStatus<{ success: boolean; count: number }>(
      await call(t.app, { url: '/api/users/count', token: adminToken }),
      200,
    );
    expect(answer).toEqual({ success: true, count: before + 1 });
  });

  describe('the last active admin', () => {
    const own = useTestApp(dialect);
    let token: string;
    let adminId: number;

    beforeAll(async () => {
      token = await loginAdmin(own.app);
      const users = expectStatus<List<UserRecord>>(await call(own.app, { url: '/api/users', token }), 200);
      const admin = users.data.find((user) => user.UserName === ADMIN_USERNAME);
      if (!admin) throw new Error('no bootstrap admin');
      adminId = admin.User_Id;
    });

    const adminBody = (overrides: Record<string, unknown> = {}) => ({
      UserName: ADMIN_USERNAME,
      DisplayName: 'Administrator',
      Email: 'admin@example.com',
      ...overrides,
    });
    const putOwn = (id: number, body: unknown) =>
      call(own.app, { method: 'PUT', url: `/api/users/${id}`, token, body });
    const deleteOwn = (id: number) => call(own.app, { method: 'DELETE', url: `/api/users/${id}`, token });

    it('cannot be deleted, deactivated or demoted (409) while it is the only one', async () => {
      const deleted = await deleteOwn(adminId);
      expect(deleted.statusCode).toBe(409);
      expect(deleted.json<Failure>()).toMatchObject({ success: false });
      expect((await putOwn(adminId, adminBody({ isActive: false }))).statusCode).toBe(409);
      expect((await putOwn(adminId, adminBody({ UserType: 'agent' }))).statusCode).toBe(409);
      // An inactive admin does not count as a second one.
      await insertAdmin(own.database, false);
      expect((await deleteOwn(adminId)).statusCode).toBe(409);

      const row = await storedUser(own.database, adminId);
      expect(row).toMatchObject({ user_type: 'admin', is_active: 1, is_deleted: 0 });
      expect((await call(own.app, { url: '/api/users', token })).statusCode).toBe(200);
    });

    it('with two active admins, one can be demoted, deactivated or deleted', async () => {
      const second = await insertAdmin(own.database);
      const demoted = await putOwn(second, adminBody({ UserName: unique('second'), UserType: 'agent' }));
      expect(expectStatus<Item<UserRecord>>(demoted, 200).data.UserType).toBe('agent');
      // Now the first is the last active admin again.
      expect((await deleteOwn(adminId)).statusCode).toBe(409);

      const third = await insertAdmin(own.database);
      const deactivated = await putOwn(third, adminBody({ UserName: unique('third'), isActive: false }));
      expect(expectStatus<Item<UserRecord>>(deactivated, 200).data.isActive).toBe(false);
      expect((await putOwn(adminId, adminBody({ isActive: false }))).statusCode).toBe(409);

      const fourth = await insertAdmin(own.database);
      expect((await deleteOwn(fourth)).statusCode).toBe(200);
      expect((await storedUser(own.database, fourth))?.is_deleted).toBe(1);
      expect((await deleteOwn(adminId)).statusCode).toBe(409);
    });
  });
});
