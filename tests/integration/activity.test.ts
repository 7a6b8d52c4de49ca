import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ActivityRepository } from '../../src/server/modules/activity/activity-repository.js';
import type { ActivityAnswer, ActivityEntry } from '../../src/shared/schemas/activity.js';
import type { ContentBlockRecord } from '../../src/shared/schemas/content-blocks.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { LoginAnswer, UserRecord } from '../../src/shared/schemas/users.js';
import {
  assignGhadis,
  call,
  contentBlockFields,
  createAgent,
  createAgentWithToken,
  createContentBlock,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  ghadiFields,
  type Item,
  type List,
  loginAdmin,
  postResult,
  submitResult,
  today,
  unique,
  uniqueAddress,
} from '../support/factories.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, DIALECTS, type TestApp, useTestApp } from '../support/test-app.js';

/** app.inject's own address: the proxy the suite's app trusts, so X-Forwarded-For names the client. */
const PROXY = '127.0.0.1';
const CLIENT_IP = '203.0.113.9';
const CLIENT_AGENT = 'TrailTest/1.0 (activity.test.ts)';
/** Headers of a request from the client above, through the proxy. */
const FROM_CLIENT = { 'x-forwarded-for': CLIENT_IP, 'user-agent': CLIENT_AGENT };

/** Makes inserts into `table` whose `column` equals `value` fail, until the returned function runs. */
async function failInserts(t: TestApp, table: string, column: string, value: string) {
  const db = t.database.db;
  const name = `fail_${table}`;
  if (t.dialect === 'sqlite') {
    await sql
      .raw(`create trigger ${name} before insert on ${table} when new.${column} = '${value}'
        begin select raise(abort, 'forced failure'); end`)
      .execute(db);
    return async () => {
      await sql.raw(`drop trigger ${name}`).execute(db);
    };
  }
  await sql
    .raw(`create function ${name}() returns trigger language plpgsql
      as $$ begin raise exception 'forced failure'; end $$`)
    .execute(db);
  await sql
    .raw(`create trigger ${name} before insert on ${table} for each row
      when (new.${column} = '${value}') execute function ${name}()`)
    .execute(db);
  return async () => {
    await sql.raw(`drop trigger ${name} on ${table}`).execute(db);
    await sql.raw(`drop function ${name}()`).execute(db);
  };
}

describe.each(DIALECTS)('the activity trail [%s]', (dialect) => {
  const t = useTestApp(dialect, { env: { TRUST_PROXY: PROXY } });
  let admin: string;
  let adminId: number;
  /** Every password and token this suite used: none may appear in the trail. */
  const secrets: string[] = [ADMIN_PASSWORD];

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
    secrets.push(admin);
    const users = expectStatus<List<UserRecord>>(await call(t.app, { url: '/api/users', token: admin }), 200);
    adminId = users.data.find((user) => user.UserName === ADMIN_USERNAME)?.User_Id ?? 0;
  });

  const trail = async (query: string, token = admin) =>
    expectStatus<ActivityAnswer>(await call(t.app, { url: `/api/activity?${query}`, token }), 200);
  /** The entries of one action about one record (or, without an id, about a name), newest first. */
  const entriesAbout = async (action: string, target: { id?: number | string; name?: string }) =>
    (await trail(`action=${action}&limit=100`)).data.filter(
      (entry) =>
        (target.id === undefined || entry.Target.Id === String(target.id)) &&
        (target.name === undefined || entry.Target.Name === target.name),
    );
  /** The one entry of an action about a record; fails when there is none or more than one. */
  const onlyEntry = async (action: string, target: { id?: number | string; name?: string }) => {
    const entries = await entriesAbout(action, target);
    expect(entries, `${action} ${JSON.stringify(target)}`).toHaveLength(1);
    return entries[0] as ActivityEntry;
  };
  const asAdmin = () => ({ UserId: adminId, UserName: ADMIN_USERNAME, Role: 'admin' });
  const total = async () => (await trail('limit=1')).pagination.total;

  it('records sign-ins, failed ones and sign-outs: who, on what, from where', async () => {
    const agent = await createAgent(t.app, admin);
    secrets.push(agent.password);
    const id = agent.user.User_Id;
    const signIn = (Password: string, UserName = agent.user.UserName) =>
      call(t.app, {
        method: 'POST',
        url: '/api/users/login',
        body: { UserName, Password },
        headers: FROM_CLIENT,
      });

    const token = expectStatus<LoginAnswer>(await signIn(agent.password), 200).token;
    secrets.push(token);
    const asAgent = { UserId: id, UserName: agent.user.UserName, Role: 'agent' };
    const onAgent = { Id: String(id), Name: agent.user.UserName };
    expect(await onlyEntry('login', { id })).toMatchObject({
      ...asAgent,
      Action: 'login',
      Target: onAgent,
      Ip: CLIENT_IP,
      UserAgent: CLIENT_AGENT,
    });

    expect((await signIn('not-the-password-1')).statusCode).toBe(401);
    secrets.push('not-the-password-1');
    expect(await onlyEntry('login_failed', { id })).toMatchObject({
      ...asAgent,
      Target: onAgent,
      Summary: 'wrong password',
      Ip: CLIENT_IP,
    });

    const nobody = unique('nobody');
    expect((await signIn('whatever-password', nobody)).statusCode).toBe(401);
    secrets.push('whatever-password');
    // A name no account has is kept masked: its first two characters and its length.
    expect((await trail('action=login_failed&limit=1')).data[0]).toMatchObject({
      UserId: null,
      UserName: null,
      Role: null,
      Target: { Id: null, Name: `no… (${nobody.length})` },
      Summary: 'unknown user name',
      Ip: CLIENT_IP,
    });

    const longAgent = 'A'.repeat(1000);
    expectStatus(
      await call(t.app, {
        method: 'POST',
        url: '/api/users/logout',
        token,
        headers: { ...FROM_CLIENT, 'user-agent': longAgent },
      }),
      200,
    );
    const logout = await onlyEntry('logout', { id });
    expect(logout).toMatchObject({ ...asAgent, Target: onAgent, Ip: CLIENT_IP });
    expect(logout.UserAgent).toHaveLength(256);
    expect(longAgent.startsWith(logout.UserAgent.slice(0, -1))).toBe(true);
  });

  it('keeps of a name no account has only a mask, and no client text its control characters', async () => {
    // A password typed into the name box, wrapped in control and bidi characters.
    const typed = `\u202eHunter2-secret\u0007pass\u0085word\u2066`;
    // What a header can carry (HTTP refuses most C0 characters): a tab and C1 characters (Latin-1).
    const agentText = `Evil\tAgent\u0085[31m/1.0\u009b`;
    const answer = await call(t.app, {
      method: 'POST',
      url: '/api/users/login',
      body: { UserName: typed, Password: 'whatever-password' },
      headers: { ...FROM_CLIENT, 'user-agent': agentText },
    });
    expect(answer.statusCode).toBe(401);
    const entry = (await trail('action=login_failed&limit=1')).data[0];
    // After stripping: "Hunter2-secretpassword", 22 characters.
    expect(entry).toMatchObject({
      UserId: null,
      Target: { Id: null, Name: 'Hu… (22)' },
      UserAgent: 'EvilAgent[31m/1.0',
    });
    for (const part of ['Hunter2', 'secret', 'password', 'unter']) {
      expect(JSON.stringify(entry)).not.toContain(part);
    }

    // A display name's bidi override and a bell reach the summary without them.
    const agent = await createAgent(t.app, admin, { DisplayName: 'Asha\u202e kcalb\u0007' });
    const created = await onlyEntry('user_create', { id: agent.user.User_Id });
    expect(created.Summary).toContain('DisplayName: "Asha kcalb"');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may be left
    expect(created.Summary).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u);
  });

  it('records each change of agents, ghadis, assignments and content once, old → new', async () => {
    const fields = { UserName: unique('trail'), DisplayName: 'Asha', Email: 'asha@example.com' };
    const agent = await createAgent(t.app, admin, { ...fields, Password: 'first-password-1' });
    secrets.push('first-password-1', 'second-password-2');
    const userId = agent.user.User_Id;
    expect(await onlyEntry('user_create', { id: userId })).toMatchObject({
      ...asAdmin(),
      Target: { Id: String(userId), Name: fields.UserName },
      Summary: `UserName: "${fields.UserName}"; DisplayName: "Asha"; Email: "asha@example.com"; UserType: "agent"; isActive: true`,
    });
    const update = { ...fields, DisplayName: 'Asha K', Password: 'second-password-2' };
    expectStatus(
      await call(t.app, { method: 'PUT', url: `/api/users/${userId}`, token: admin, body: update }),
      200,
    );
    expect((await onlyEntry('user_update', { id: userId })).Summary).toBe(
      'DisplayName: "Asha" → "Asha K"; password changed',
    );
    expectStatus(await call(t.app, { method: 'DELETE', url: `/api/users/${userId}`, token: admin }), 200);
    expect(await onlyEntry('user_delete', { id: userId })).toMatchObject({
      ...asAdmin(),
      Target: { Id: String(userId), Name: fields.UserName },
    });

    const ghadi = await createGhadi(t.app, admin, { RTime: '6:30 PM' });
    expect(await onlyEntry('ghadi_create', { id: ghadi.GID })).toMatchObject({
      ...asAdmin(),
      Target: { Id: String(ghadi.GID), Name: ghadi.NameEn },
    });
    const renamed = ghadiFields({ NameHn: ghadi.NameHn, RTime: '7:00 PM', OrderId: ghadi.OrderId });
    expectStatus(
      await call(t.app, { method: 'PUT', url: `/api/ghadis/${ghadi.GID}`, token: admin, body: renamed }),
      200,
    );
    expect(await onlyEntry('ghadi_update', { id: ghadi.GID })).toMatchObject({
      Target: { Id: String(ghadi.GID), Name: renamed.NameEn },
      Summary: `NameEn: "${ghadi.NameEn}" → "${renamed.NameEn}"; RTime: "6:30 PM" → "7:00 PM"`,
    });

    const other = await createAgent(t.app, admin);
    const second = await createGhadi(t.app, admin);
    const assignments = await assignGhadis(t.app, admin, other.user.User_Id, [ghadi.GID, second.GID]);
    for (const assignment of assignments) {
      expect(await onlyEntry('assignment_create', { id: assignment._id })).toMatchObject({
        ...asAdmin(),
        Target: { Id: assignment._id, Name: `${other.user.UserName} → ${assignment.NameEn}` },
      });
    }
    const [first] = assignments;
    expectStatus(
      await call(t.app, { method: 'DELETE', url: `/api/usermaps/${first?._id}`, token: admin }),
      200,
    );
    expect(await onlyEntry('assignment_delete', { id: first?._id })).toMatchObject({
      Target: { Id: first?._id, Name: `${other.user.UserName} → ${renamed.NameEn}` },
    });

    expectStatus(await call(t.app, { method: 'DELETE', url: `/api/ghadis/${ghadi.GID}`, token: admin }), 200);
    expect(await onlyEntry('ghadi_delete', { id: ghadi.GID })).toMatchObject({
      Target: { Id: String(ghadi.GID), Name: renamed.NameEn },
    });

    const block = await createContentBlock(t.app, admin);
    expect(await onlyEntry('content_create', { id: block._id })).toMatchObject({
      Target: { Id: block._id, Name: block.Title },
    });
    const edited = contentBlockFields({ Slug: block.Slug, Title: block.Title, Content: '<p>New text</p>' });
    expectStatus<Item<ContentBlockRecord>>(
      await call(t.app, {
        method: 'PUT',
        url: `/api/contentblocks/${block._id}`,
        token: admin,
        body: edited,
      }),
      200,
    );
    expect((await onlyEntry('content_update', { id: block._id })).Summary).toBe(
      `Content: ${JSON.stringify(block.Content)} → "<p>New text</p>"`,
    );
    expectStatus(
      await call(t.app, { method: 'DELETE', url: `/api/contentblocks/${block._id}`, token: admin }),
      200,
    );
    expect(await onlyEntry('content_delete', { id: block._id })).toMatchObject({
      Target: { Id: block._id, Name: block.Title },
    });
  });

  it('records declarations, corrections and imports, but not a value sent again', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    secrets.push(agent.token, agent.password);
    const ghadi = await createGhadi(t.app, admin);
    await assignGhadis(t.app, admin, agent.user.User_Id, ghadi.GID);
    const declared = await submitResult(t.app, agent.token, {
      ghadiId: ghadi.GID,
      result: '07',
      dateTime: today(),
    });
    const onResult = { Id: declared._id, Name: `${ghadi.NameEn} ${today()}` };
    expect(await onlyEntry('result_declare', { id: declared._id })).toMatchObject({
      UserId: agent.user.User_Id,
      Role: 'agent',
      Target: onResult,
      Summary: 'Result: "07"',
    });
    await submitResult(t.app, agent.token, { ghadiId: ghadi.GID, result: '42', dateTime: today() });
    await submitResult(t.app, agent.token, { ghadiId: ghadi.GID, result: '42', dateTime: today() });
    expect(await onlyEntry('result_correct', { id: declared._id })).toMatchObject({
      Target: onResult,
      Summary: 'Result: "07" → "42"',
    });
    expect(await entriesAbout('result_declare', { id: declared._id })).toHaveLength(1);

    const importing = (body: string, dryRun: boolean) =>
      call(t.app, {
        method: 'POST',
        url: `/api/results/import?dryRun=${dryRun}`,
        token: admin,
        body,
        headers: { 'content-type': 'text/csv' },
      });
    const [yesterday, earlier] = [daysFromToday(-1), daysFromToday(-2)];
    const csv = `Date,GID,Result\n${earlier},${ghadi.GID},11\n${yesterday},${ghadi.GID},12\n${today()},${ghadi.GID},42\n`;
    const before = await total();
    expectStatus(await importing(csv, true), 200);
    expect((await importing(`Date,GID,Result\n${today()},${ghadi.GID},not valid!\n`, false)).statusCode).toBe(
      400,
    );
    expect(await total()).toBe(before);
    expectStatus(await importing(csv, false), 200);
    expect(await onlyEntry('results_import', { name: `${earlier} to ${today()}` })).toMatchObject({
      ...asAdmin(),
      Target: { Id: null },
      Summary: '3 lines: 2 created, 0 corrected, 1 unchanged',
    });
    expect(await total()).toBe(before + 1);
  });

  it('records nothing for a change that is refused or rolled back', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    secrets.push(agent.token);
    const ghadi = await createGhadi(t.app, admin);
    const block = await createContentBlock(t.app, admin);
    const taken = await createContentBlock(t.app, admin);
    const before = await total();
    const refusals: Array<[Parameters<typeof call>[1], number]> = [
      // A unique conflict found by the database, in the transaction the entry would have joined.
      [{ method: 'POST', url: '/api/users', body: { ...agentBody(), UserName: agent.user.UserName } }, 409],
      [
        { method: 'POST', url: '/api/ghadis', body: ghadiFields({ NameEn: ghadi.NameEn.toUpperCase() }) },
        409,
      ],
      [
        {
          method: 'PUT',
          url: `/api/contentblocks/${block._id}`,
          body: contentBlockFields({ Slug: taken.Slug }),
        },
        409,
      ],
      // The last active admin, refused after the lock was taken.
      [{ method: 'DELETE', url: `/api/users/${adminId}` }, 409],
      [{ method: 'DELETE', url: '/api/users/999999' }, 404],
      [{ method: 'DELETE', url: '/api/usermaps/999999' }, 404],
      [{ method: 'DELETE', url: '/api/contentblocks/999999' }, 404],
      [{ method: 'PUT', url: `/api/ghadis/${ghadi.GID}`, body: { NameEn: '' } }, 400],
      [{ method: 'POST', url: '/api/usermaps', body: { User_Id: agent.user.User_Id, GID: 999999 } }, 404],
    ];
    for (const [request, status] of refusals) {
      const answer = await call(t.app, { ...request, token: admin });
      expect([request.method, request.url, answer.statusCode]).toEqual([request.method, request.url, status]);
    }
    // An agent's submission for a ghadi not theirs.
    expect(
      (await postResult(t.app, agent.token, { ghadiId: ghadi.GID, result: '1', dateTime: today() }))
        .statusCode,
    ).toBe(403);
    expect(await total()).toBe(before);
  });

  it('writes an entry in its change’s transaction: one fails, neither is kept', async () => {
    // The entry cannot be written: the agent it records is not created.
    const name = unique('doomed');
    const restoreUsers = await failInserts(t, 'activity_log', 'target_name', name);
    try {
      const answer = await call(t.app, {
        method: 'POST',
        url: '/api/users',
        token: admin,
        body: agentBody(name),
      });
      expect(answer.statusCode).toBe(500);
    } finally {
      await restoreUsers();
    }
    const users = expectStatus<List<UserRecord>>(await call(t.app, { url: '/api/users', token: admin }), 200);
    expect(users.data.map((user) => user.UserName)).not.toContain(name);
    expect(await entriesAbout('user_create', { name })).toEqual([]);

    // The change fails after its entry was written (its change-log row, the transaction's last): the
    // ghadi keeps its name, and no entry says otherwise.
    const ghadi = await createGhadi(t.app, admin);
    // A new name: a change of what every page lists.
    const restoreChanges = await failInserts(
      t,
      'change_log',
      'payload',
      JSON.stringify({ gid: ghadi.GID, listed: true }),
    );
    try {
      const body = ghadiFields({ NameHn: ghadi.NameHn, RTime: ghadi.RTime, OrderId: ghadi.OrderId });
      const answer = await call(t.app, {
        method: 'PUT',
        url: `/api/ghadis/${ghadi.GID}`,
        token: admin,
        body,
      });
      expect(answer.statusCode).toBe(500);
    } finally {
      await restoreChanges();
    }
    const ghadis = expectStatus<List<GhadiRecord>>(await call(t.app, { url: '/api/ghadis' }), 200);
    expect(ghadis.data.find((row) => row.GID === ghadi.GID)?.NameEn).toBe(ghadi.NameEn);
    expect(await entriesAbout('ghadi_update', { id: ghadi.GID })).toEqual([]);
  });

  it('filters by user, action and days of the site, combined', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    secrets.push(agent.token, agent.password);
    const ghadi = await createGhadi(t.app, admin);
    await assignGhadis(t.app, admin, agent.user.User_Id, ghadi.GID);
    await submitResult(t.app, agent.token, { ghadiId: ghadi.GID, result: '5', dateTime: today() });

    const mine = await trail(`userId=${agent.user.User_Id}`);
    expect(mine.data.map((entry) => entry.Action)).toEqual(['result_declare', 'login']);
    expect(mine.pagination.total).toBe(2);
    expect(new Set(mine.data.map((entry) => entry.UserId))).toEqual(new Set([agent.user.User_Id]));

    const logins = await trail('action=login&limit=100');
    expect(logins.data.length).toBeGreaterThan(1);
    expect(logins.data.every((entry) => entry.Action === 'login')).toBe(true);
    const agentLogins = await trail(`action=login&userId=${agent.user.User_Id}`);
    expect(agentLogins.data).toHaveLength(1);
    expect(agentLogins.data[0]).toMatchObject({ UserId: agent.user.User_Id, Action: 'login' });
    expect((await trail(`action=user_delete&userId=${agent.user.User_Id}`)).pagination.total).toBe(0);

    const everything = await total();
    expect((await trail(`from=${today()}&to=${today()}&limit=1`)).pagination.total).toBe(everything);
    expect((await trail(`from=${today()}&limit=1`)).pagination.total).toBe(everything);
    expect((await trail(`to=${daysFromToday(-1)}`)).pagination.total).toBe(0);
    expect((await trail(`from=${daysFromToday(1)}`)).pagination.total).toBe(0);
    const agentToday = await trail(`userId=${agent.user.User_Id}&action=login&from=${today()}&to=${today()}`);
    expect(agentToday.data.map((entry) => entry._id)).toEqual(agentLogins.data.map((entry) => entry._id));
  });

  it('pages newest first, on the server, at most 100 a page', async () => {
    await createGhadi(t.app, admin);
    const newest = await createGhadi(t.app, admin);
    const all = await total();
    const first = await trail('limit=3');
    expect(first.data[0]).toMatchObject({ Action: 'ghadi_create', Target: { Id: String(newest.GID) } });
    expect(first.pagination).toEqual({ page: 1, limit: 3, total: all, totalPages: Math.ceil(all / 3) });
    const second = await trail('limit=3&page=2');
    const ids = [...first.data, ...second.data].map((entry) => Number(entry._id));
    expect(ids).toHaveLength(6);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(6);
    // Consecutive places: page 2 starts right where page 1 ended.
    expect(ids[3]).toBe((ids[2] ?? 0) - 1);
    const instants = [...first.data, ...second.data].map((entry) => entry.At);
    expect(instants).toEqual([...instants].sort().reverse());

    const last = await trail(`limit=3&page=${Math.ceil(all / 3)}`);
    expect(last.data.length).toBe(all - 3 * (Math.ceil(all / 3) - 1));
    expect(last.data.at(-1)?._id).toBe('1');
    const past = await trail(`limit=3&page=${Math.ceil(all / 3) + 1}`);
    expect(past).toMatchObject({ data: [], pagination: { total: all } });

    expect((await trail('')).pagination.limit).toBe(50);
    expect((await trail('limit=100')).data).toHaveLength(Math.min(100, all));
  });

  it('answers 400 for bad input, in the one error shape', async () => {
    const cases: Array<[string, string]> = [
      ['limit=101', 'limit: Must be 100 or less'],
      ['limit=0', 'limit: Must be 1 or more'],
      ['page=0', 'page: Must be 1 or more'],
      ['page=abc', 'page: Must be a whole number'],
      ['action=bogus', 'action: Must be one of'],
      ['userId=abc', 'userId: Must be a positive number'],
      ['userId=0', 'userId: Must be a positive number'],
      ['from=2026-02-30', 'from: Must be a date (YYYY-MM-DD)'],
      ['to=2026-1-1', 'to: Must be a date (YYYY-MM-DD)'],
      [`from=${today()}&to=${daysFromToday(-1)}`, 'to: Must be on or after from'],
    ];
    for (const [query, message] of cases) {
      const answer = await call(t.app, { url: `/api/activity?${query}`, token: admin });
      expect([query, answer.statusCode]).toEqual([query, 400]);
      const failure = answer.json<Failure>();
      expect(failure.success).toBe(false);
      expect(failure.message.startsWith(message), `${query}: ${failure.message}`).toBe(true);
    }
  });

  it('is for admins: 401 without a token, 403 for an agent', async () => {
    expect((await call(t.app, { url: '/api/activity' })).statusCode).toBe(401);
    const agent = await createAgentWithToken(t.app, admin);
    secrets.push(agent.token);
    const answer = await call(t.app, { url: '/api/activity', token: agent.token });
    expect(answer.statusCode).toBe(403);
    expect(answer.json<Failure>()).toMatchObject({ success: false, message: 'Admin access required' });
  });

  it('holds no password, hash or token anywhere', async () => {
    const pages: string[] = [];
    for (let page = 1; ; page++) {
      const answer = await call(t.app, { url: `/api/activity?limit=100&page=${page}`, token: admin });
      const body = expectStatus<ActivityAnswer>(answer, 200);
      pages.push(answer.body);
      if (page >= body.pagination.totalPages) break;
    }
    const everything = pages.join('\n');
    const hashes = await t.database.db.selectFrom('users').select('password_hash').execute();
    for (const secret of [...secrets, ...hashes.map((row) => row.password_hash)]) {
      expect(everything.includes(secret), 'a secret is in the trail').toBe(false);
    }
    expect(everything).not.toMatch(/argon2|password_hash|Bearer|eyJ/i);
    expect(everything).toMatch(/password changed/);
  });
});

function agentBody(UserName = unique('agent')) {
  return { UserName, DisplayName: 'Someone', Email: `${UserName}@example.com`, Password: 'agent-password-1' };
}

describe.each(DIALECTS)('the activity trail’s days [%s]', (dialect) => {
  const t = useTestApp(dialect);
  const append = (target: string, now: string) =>
    t.database.db.transaction().execute((trx) =>
      new ActivityRepository(t.database).append(
        trx,
        {
          user_id: null,
          user_name: null,
          role: null,
          action: 'login_failed',
          target_id: null,
          target_name: target,
          summary: 'unknown user name',
          ip: uniqueAddress(),
          user_agent: '',
        },
        now,
      ),
    );

  it('reads from and to as days of the site’s zone, both included, and keeps At in order', async () => {
    // Asia/Kolkata is UTC+05:30: its 2 January runs from 2026-01-01T18:30Z to 2026-01-02T18:30Z.
    await append('last of 1 Jan', '2026-01-01T18:29:59.999Z');
    await append('first of 2 Jan', '2026-01-01T18:30:00.000Z');
    await append('last of 2 Jan', '2026-01-02T18:29:59.999Z');
    await append('first of 3 Jan', '2026-01-02T18:30:00.000Z');
    // Written by a process whose clock is behind: it takes the latest instant, not an earlier one.
    await append('behind', '2026-01-02T00:00:00.000Z');
    const admin = await loginAdmin(t.app);
    const names = async (query: string) =>
      expectStatus<ActivityAnswer>(
        await call(t.app, { url: `/api/activity?${query}`, token: admin }),
        200,
      ).data.map((entry) => entry.Target.Name);
    expect(await names('from=2026-01-02&to=2026-01-02')).toEqual(['last of 2 Jan', 'first of 2 Jan']);
    expect(await names('to=2026-01-01')).toEqual(['last of 1 Jan']);
    expect(await names('from=2026-01-03&to=2026-01-03')).toEqual(['behind', 'first of 3 Jan']);
    expect(await names('from=2026-01-01&to=2026-01-03&action=login_failed&limit=2&page=2')).toEqual([
      'last of 2 Jan',
      'first of 2 Jan',
    ]);
    const behind = expectStatus<ActivityAnswer>(
      await call(t.app, { url: '/api/activity?action=login_failed&limit=1', token: admin }),
      200,
    ).data[0];
    expect(behind).toMatchObject({ At: '2026-01-02T18:30:00.000Z', Target: { Name: 'behind' } });
    expect(await names(`from=${today()}`)).toEqual([ADMIN_USERNAME]);
  });
});
