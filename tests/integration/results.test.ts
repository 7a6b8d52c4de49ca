import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { PublicResultRecord, ResultRecord } from '../../src/shared/schemas/results.js';
import {
  assignGhadis,
  call,
  createAgentWithToken,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  getCount,
  keysDeep,
  type List,
  loginAdmin,
  postResult,
  submitResult,
  today,
} from '../support/factories.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';

interface Paged<T> extends List<T> {
  pagination?: { page: number; limit: number; total: number; totalPages: number };
}

const PUBLIC_KEYS = [
  '_id',
  'id',
  'GID',
  'Name',
  'Result',
  'DateTime',
  'Date',
  'isActive',
  'Corrected',
  'Previous',
  'DeclaredAt',
].sort();

describe.each(DIALECTS)('results [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
  });

  const storedResults = (gid: number) =>
    t.database.db.selectFrom('results').selectAll().where('gid', '=', gid).orderBy('result_date').execute();

  const results = async (query = '', token?: string) =>
    expectStatus<Paged<ResultRecord>>(
      await call(t.app, { url: `/api/results${query}`, ...(token ? { token } : {}) }),
      200,
    );

  /** A ghadi assigned to a new agent, with the agent's token. */
  async function assignedGhadi() {
    const ghadi = await createGhadi(t.app, adminToken);
    const agent = await createAgentWithToken(t.app, adminToken);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, ghadi.GID);
    return { ghadi, agent };
  }

  describe('POST /api/agent/my-ghadi/update-result', () => {
    it('answers an agent the stored result’s public fields, the business date and DateTime at UTC midnight', async () => {
      const { ghadi, agent } = await assignedGhadi();
      const date = daysFromToday(-1);
      const response = await postResult(t.app, agent.token, {
        ghadiId: ghadi.GID,
        result: '47',
        dateTime: date,
      });
      const answer = expectStatus<{ success: boolean; message: string; data: PublicResultRecord }>(
        response,
        200,
      );
      expect(answer.success).toBe(true);
      expect(answer.data).toMatchObject({
        GID: ghadi.GID,
        Name: ghadi.NameEn,
        Result: '47',
        DateTime: `${date}T00:00:00.000Z`,
        Date: date,
        isActive: true,
      });
      // Who declared a result is the admin's to see (docs/api.md); the author is stored all the same.
      expect(Object.keys(answer.data).sort()).toEqual(PUBLIC_KEYS);
      expect(typeof answer.data._id).toBe('string');
      expect(await storedResults(ghadi.GID)).toMatchObject([
        { result_date: date, value: '47', created_by: agent.user.User_Id },
      ]);
    });

    it('accepts a date, a local date-time and an ISO timestamp (dated in Asia/Kolkata)', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const day = daysFromToday(-20);
      const cases: Array<[string, string]> = [
        [day, day],
        [`${daysFromToday(-21)}T08:26`, daysFromToday(-21)],
        [`${daysFromToday(-22)}T23:59:30`, daysFromToday(-22)],
        // 20:00 UTC is 01:30 the next day in India.
        [`${addDays(daysFromToday(-23), -1)}T20:00:00Z`, daysFromToday(-23)],
        [`${daysFromToday(-24)}T18:29:59.999Z`, daysFromToday(-24)],
        [`${daysFromToday(-26)}T18:30:00Z`, daysFromToday(-25)],
        [`${daysFromToday(-27)}T23:30:00+05:30`, daysFromToday(-27)],
        [`  ${daysFromToday(-28)}  `, daysFromToday(-28)],
      ];
      for (const [dateTime, expected] of cases) {
        const record = await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '11', dateTime });
        expect({ dateTime, date: record.Date }).toEqual({ dateTime, date: expected });
        expect(record.DateTime).toBe(`${expected}T00:00:00.000Z`);
      }
      const dates = (await storedResults(ghadi.GID)).map((row) => row.result_date);
      expect(dates.sort()).toEqual(cases.map(([, expected]) => expected).sort());
    });

    it('refuses anything else as dateTime with a 400 that names the field, and writes nothing', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const [year, month, day] = daysFromToday(-3).split('-');
      for (const dateTime of [
        'garbage',
        `${day}-${month}-${year}`,
        `${year}/${month}/${day}`,
        `${year}-02-30`,
        `${year}-13-01`,
        `${year}-${month}-${day}T25:00`,
        `${year}-${month}-${day} 08:26`,
        '1700000000000',
        '',
      ]) {
        const response = await postResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '10', dateTime });
        expect({ dateTime, status: response.statusCode }).toEqual({ dateTime, status: 400 });
        expect(response.json<Failure>().message).toMatch(/^dateTime: /);
      }
      expect(await storedResults(ghadi.GID)).toEqual([]);
    });

    it('takes dates from 2000-01-01 up to tomorrow (site time zone) only, from an admin', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const tomorrow = daysFromToday(1);
      const dayAfter = daysFromToday(2);
      for (const dateTime of ['1999-12-31', dayAfter, `${dayAfter}T00:01`, `${tomorrow}T18:30:00Z`]) {
        const response = await postResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '10', dateTime });
        expect({ dateTime, status: response.statusCode }).toEqual({ dateTime, status: 400 });
        expect(response.json<Failure>().message).toContain('dateTime');
      }
      expect(await storedResults(ghadi.GID)).toEqual([]);
      for (const dateTime of ['2000-01-01', tomorrow, today()]) {
        const record = await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '10', dateTime });
        expect(record.Date).toBe(dateTime);
      }
    });

    it('an agent may enter or correct today’s and yesterday’s results only (site time zone): else 403', async () => {
      const { ghadi, agent } = await assignedGhadi();
      const yesterday = daysFromToday(-1);
      const accepted: Array<[string, string]> = [
        [today(), today()],
        [yesterday, yesterday],
        [`${yesterday}T23:30`, yesterday],
        // 20:00 UTC two days ago is 01:30 yesterday in India.
        [`${daysFromToday(-2)}T20:00:00Z`, yesterday],
      ];
      for (const [dateTime, date] of accepted) {
        const record = await submitResult(t.app, agent.token, { ghadiId: ghadi.GID, result: '21', dateTime });
        expect({ dateTime, date: record.Date }).toEqual({ dateTime, date });
      }
      const before = await storedResults(ghadi.GID);
      expect(before.map((row) => row.result_date)).toEqual([yesterday, today()]);

      for (const dateTime of [
        daysFromToday(-2),
        daysFromToday(-3),
        `${daysFromToday(-3)}T10:00`,
        `${daysFromToday(-2)}T18:29:00Z`,
        daysFromToday(-400),
        daysFromToday(1),
      ]) {
        const response = await postResult(t.app, agent.token, { ghadiId: ghadi.GID, result: '99', dateTime });
        expect({ dateTime, status: response.statusCode }).toEqual({ dateTime, status: 403 });
        expect(response.json<Failure>()).toEqual({
          success: false,
          message:
            'Agents may only enter results for today or yesterday; ask an admin to correct older dates',
        });
      }
      expect(await storedResults(ghadi.GID)).toEqual(before);

      // An admin corrects any date, the agent's ones included.
      for (const dateTime of [daysFromToday(-3), yesterday, daysFromToday(1)]) {
        const record = await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '77', dateTime });
        expect(record.Date).toBe(dateTime);
      }
      expect((await storedResults(ghadi.GID)).map((row) => [row.result_date, row.value])).toEqual([
        [daysFromToday(-3), '77'],
        [yesterday, '77'],
        [today(), '21'],
        [daysFromToday(1), '77'],
      ]);
    });

    it('a second submission for the same ghadi and date replaces the value and records the history', async () => {
      const { ghadi, agent } = await assignedGhadi();
      const date = daysFromToday(-1);
      const resultsBefore = await getCount(t.app, adminToken, 'results');
      const first = await submitResult(t.app, agent.token, {
        ghadiId: ghadi.GID,
        result: '15',
        dateTime: date,
      });
      expect(await getCount(t.app, adminToken, 'results')).toBe(resultsBefore + 1);
      const startedAt = Date.now();
      const second = await submitResult(t.app, adminToken, {
        ghadiId: ghadi.GID,
        result: '51',
        dateTime: `${date}T10:00`,
      });
      expect(second._id).toBe(first._id);
      expect(second.Result).toBe('51');
      expect(second.CreatedByName).not.toBe(agent.user.DisplayName);
      expect(await getCount(t.app, adminToken, 'results')).toBe(resultsBefore + 1);

      const rows = await storedResults(ghadi.GID);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.value).toBe('51');
      const history = await t.database.db
        .selectFrom('result_history')
        .selectAll()
        .where('result_id', '=', Number(first._id))
        .execute();
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ old_value: '15', new_value: '51', changed_by: second.CreatedById });
      const changedAt = Date.parse(history[0]?.changed_at ?? '');
      expect(changedAt).toBeGreaterThanOrEqual(startedAt - 1000);
      expect(changedAt).toBeLessThanOrEqual(Date.now() + 1000);

      await submitResult(t.app, agent.token, { ghadiId: ghadi.GID, result: '77', dateTime: date });
      const more = await t.database.db
        .selectFrom('result_history')
        .select(['old_value', 'new_value', 'changed_by'])
        .where('result_id', '=', Number(first._id))
        .orderBy('history_id')
        .execute();
      expect(more).toEqual([
        { old_value: '15', new_value: '51', changed_by: second.CreatedById },
        { old_value: '51', new_value: '77', changed_by: agent.user.User_Id },
      ]);
    });

    it('simultaneous submissions for one ghadi and date keep one result and record every replacement', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const date = daysFromToday(-1);
      const values = ['10', '20', '30', '40', '50'];
      const responses = await Promise.all(
        values.map((result) => postResult(t.app, adminToken, { ghadiId: ghadi.GID, result, dateTime: date })),
      );
      expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
      const rows = await storedResults(ghadi.GID);
      expect(rows).toHaveLength(1);
      expect(values).toContain(rows[0]?.value);
      const history = await t.database.db
        .selectFrom('result_history')
        .select(['new_value'])
        .where('result_id', '=', rows[0]?.result_id ?? 0)
        .execute();
      expect(history).toHaveLength(values.length - 1);
    });

    it('trims values and keeps leading zeros', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const first = await submitResult(t.app, adminToken, {
        ghadiId: ghadi.GID,
        result: '  06 ',
        dateTime: daysFromToday(-1),
      });
      const second = await submitResult(t.app, adminToken, {
        ghadiId: ghadi.GID,
        result: '00',
        dateTime: daysFromToday(-2),
      });
      expect(first.Result).toBe('06');
      expect(second.Result).toBe('00');
      expect((await storedResults(ghadi.GID)).map((row) => row.value)).toEqual(['00', '06']);
    });

    it('refuses an empty or blank result (400 naming result)', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      for (const result of ['', '   ']) {
        const response = await postResult(t.app, adminToken, {
          ghadiId: ghadi.GID,
          result,
          dateTime: today(),
        });
        expect(response.statusCode).toBe(400);
        expect(response.json<Failure>().message).toMatch(/^result: /);
      }
    });

    it('an agent may submit only for its assigned ghadis (403, nothing written)', async () => {
      const { agent } = await assignedGhadi();
      const other = await createGhadi(t.app, adminToken);
      const response = await postResult(t.app, agent.token, {
        ghadiId: other.GID,
        result: '12',
        dateTime: today(),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json<Failure>()).toMatchObject({ success: false });
      expect(await storedResults(other.GID)).toEqual([]);
    });

    it('an admin may submit for any ghadi, and gets 404 for an unknown or deleted one', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const record = await submitResult(t.app, adminToken, {
        ghadiId: ghadi.GID,
        result: '88',
        dateTime: today(),
      });
      expect(record.GID).toBe(ghadi.GID);
      expect(record.CreatedByName).toBeTruthy();
      expect(
        (await postResult(t.app, adminToken, { ghadiId: 77777777, result: '1', dateTime: today() }))
          .statusCode,
      ).toBe(404);
      await call(t.app, { method: 'DELETE', url: `/api/ghadis/${ghadi.GID}`, token: adminToken });
      const deleted = await postResult(t.app, adminToken, {
        ghadiId: ghadi.GID,
        result: '1',
        dateTime: daysFromToday(-1),
      });
      expect(deleted.statusCode).toBe(404);
    });
  });

  describe('GET /api/results', () => {
    let ghadi: GhadiRecord;
    let agentName: string;
    // Agents declare today's and yesterday's results; the older one is an admin's correction.
    const recent = () => today();
    const older = () => daysFromToday(-40);

    beforeAll(async () => {
      const setup = await assignedGhadi();
      ghadi = setup.ghadi;
      agentName = setup.agent.user.DisplayName;
      await submitResult(t.app, setup.agent.token, { ghadiId: ghadi.GID, result: '31', dateTime: recent() });
      await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '32', dateTime: older() });
      await submitResult(t.app, setup.agent.token, {
        ghadiId: ghadi.GID,
        result: '33',
        dateTime: daysFromToday(-1),
      });
    });

    const ours = <T extends { GID: number }>(data: T[]) => data.filter((row) => row.GID === ghadi.GID);

    it('with an admin token lists every result, newest first, with CreatedById and CreatedByName', async () => {
      const answer = await results('', adminToken);
      expect(answer.success).toBe(true);
      expect(answer.pagination).toBeUndefined();
      expect(ours(answer.data).map((row) => row.Result)).toEqual(['31', '33', '32']);
      const dates = answer.data.map((row) => row.Date);
      expect(dates).toEqual([...dates].sort().reverse());
      for (const row of answer.data) {
        expect(row).toHaveProperty('CreatedById');
        expect(row).toHaveProperty('CreatedByName');
      }
      expect(ours(answer.data)[0]).toMatchObject({ CreatedByName: agentName, Name: ghadi.NameEn });
      expect(answer.data.length).toBe(await getCount(t.app, adminToken, 'results'));
    });

    it('without a token (or with an agent token) answers public fields only', async () => {
      const agent = await createAgentWithToken(t.app, adminToken);
      for (const token of [undefined, agent.token]) {
        const answer = await results('', token);
        expect(ours(answer.data).map((row) => row.Result)).toEqual(['31', '33', '32']);
        const keys = keysDeep(answer.data);
        expect(keys).not.toContain('CreatedById');
        expect(keys).not.toContain('CreatedByName');
        expect(keys).not.toContain('UpdatedAt');
        for (const row of answer.data) expect(Object.keys(row).sort()).toEqual(PUBLIC_KEYS);
      }
    });

    it('with an invalid token answers 401', async () => {
      const response = await call(t.app, { url: '/api/results', token: 'not-a-token' });
      expect(response.statusCode).toBe(401);
      expect(response.json<Failure>().success).toBe(false);
    });

    it('?month=YYYY-MM keeps that month only', async () => {
      const month = older().slice(0, 7);
      const answer = await results(`?month=${month}`, adminToken);
      expect(answer.data.length).toBeGreaterThan(0);
      for (const row of answer.data) expect(row.Date.slice(0, 7)).toBe(month);
      expect(ours(answer.data).map((row) => row.Result)).toEqual(['32']);
      const bad = await call(t.app, { url: '/api/results?month=2026-13' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<Failure>().message).toContain('month');
    });

    it('?q= searches the agent’s name, the ghadi’s name, the result and the date', async () => {
      const byAgent = await results(`?q=${encodeURIComponent(agentName.toUpperCase())}`, adminToken);
      expect(byAgent.data.map((row) => row.Result).sort()).toEqual(['31', '33']);

      // Only admins may search by author: others are not told who declared a result.
      const publicByAgent = await results(`?q=${encodeURIComponent(agentName)}`);
      expect(ours(publicByAgent.data)).toEqual([]);
      const publicByGhadi = await results(`?q=${encodeURIComponent(ghadi.NameEn)}`);
      expect(ours(publicByGhadi.data).map((row) => row.Result)).toEqual(['31', '33', '32']);

      const byGhadi = await results(`?q=${encodeURIComponent(ghadi.NameEn.toLowerCase())}`, adminToken);
      expect(byGhadi.data.map((row) => row.Result)).toEqual(['31', '33', '32']);

      const unique = `Q${Date.now().toString(36)}`;
      await submitResult(t.app, adminToken, {
        ghadiId: ghadi.GID,
        result: unique,
        dateTime: daysFromToday(-6),
      });
      const byResult = await results(`?q=${unique.toLowerCase()}`, adminToken);
      expect(byResult.data.map((row) => row.Result)).toEqual([unique]);

      const byDate = await results(`?q=${older()}`, adminToken);
      expect(ours(byDate.data).map((row) => row.Result)).toEqual(['32']);
      for (const row of byDate.data) {
        const text = [row.Date, row.Name, row.Result, row.CreatedByName].join(' ').toLowerCase();
        expect(text).toContain(older());
      }

      const nothing = await results('?q=no-such-thing-anywhere', adminToken);
      expect(nothing.data).toEqual([]);
      // LIKE wildcards are taken literally.
      expect((await results('?q=%25', adminToken)).data).toEqual([]);
    });

    it('?page=&limit= pages the list and adds a pagination object', async () => {
      const query = `?q=${encodeURIComponent(ghadi.NameEn)}`;
      const all = (await results(query, adminToken)).data;
      expect(all.length).toBeGreaterThanOrEqual(3);
      const first = await results(`${query}&page=1&limit=2`, adminToken);
      expect(first.data).toHaveLength(2);
      expect(first.pagination).toEqual({
        page: 1,
        limit: 2,
        total: all.length,
        totalPages: Math.ceil(all.length / 2),
      });
      const pages = [first.data];
      for (let page = 2; page <= (first.pagination?.totalPages ?? 0); page++) {
        pages.push((await results(`${query}&page=${page}&limit=2`, adminToken)).data);
      }
      expect(pages.flat().map((row) => row._id)).toEqual(all.map((row) => row._id));
      const beyond = await results(`${query}&page=99&limit=2`, adminToken);
      expect(beyond.data).toEqual([]);
      expect(beyond.pagination?.total).toBe(all.length);

      const publicPage = await results('?page=1&limit=1');
      expect(publicPage.data).toHaveLength(1);
      expect(publicPage.pagination).toMatchObject({ page: 1, limit: 1 });
      expect(keysDeep(publicPage.data)).not.toContain('CreatedById');
    });
  });

  describe('GET /api/results/{name}', () => {
    it('answers a ghadi’s results by lower-cased English name, newest first, public fields only', async () => {
      const ghadi = await createGhadi(t.app, adminToken, { NameEn: `Mixed Case ${Date.now().toString(36)}` });
      for (const [days, result] of [
        [-10, '10'],
        [-1, '01'],
        [-5, '05'],
      ] as const) {
        await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result, dateTime: daysFromToday(days) });
      }
      const response = await call(t.app, {
        url: `/api/results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`,
      });
      const answer = expectStatus<List<PublicResultRecord>>(response, 200);
      expect(answer.success).toBe(true);
      expect(answer.data.map((row) => row.Result)).toEqual(['01', '05', '10']);
      expect(answer.data.map((row) => row.Date)).toEqual([
        daysFromToday(-1),
        daysFromToday(-5),
        daysFromToday(-10),
      ]);
      for (const row of answer.data) {
        expect(Object.keys(row).sort()).toEqual(PUBLIC_KEYS);
        expect(row).toMatchObject({ GID: ghadi.GID, Name: ghadi.NameEn });
      }
    });

    it('?month=&year= narrows to one month', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const recentDay = daysFromToday(-2);
      const oldDay = daysFromToday(-400);
      await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '21', dateTime: recentDay });
      await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '42', dateTime: oldDay });
      const name = encodeURIComponent(ghadi.NameEn.toLowerCase());
      const month = (date: string) => Number(date.slice(5, 7));
      const year = (date: string) => Number(date.slice(0, 4));

      const old = expectStatus<List<PublicResultRecord>>(
        await call(t.app, { url: `/api/results/${name}?month=${month(oldDay)}&year=${year(oldDay)}` }),
        200,
      );
      expect(old.data.map((row) => row.Result)).toEqual(['42']);
      const current = expectStatus<List<PublicResultRecord>>(
        await call(t.app, { url: `/api/results/${name}?month=${month(recentDay)}&year=${year(recentDay)}` }),
        200,
      );
      expect(current.data.map((row) => row.Result)).toEqual(['21']);
      const all = expectStatus<List<PublicResultRecord>>(
        await call(t.app, { url: `/api/results/${name}` }),
        200,
      );
      expect(all.data.map((row) => row.Result)).toEqual(['21', '42']);

      const empty = await call(t.app, { url: `/api/results/${name}?month=${month(oldDay)}&year=2001` });
      expect(empty.statusCode).toBe(404);
      expect((await call(t.app, { url: `/api/results/${name}?month=13` })).statusCode).toBe(400);
    });

    it('answers 404 for an unknown ghadi and for a ghadi without results', async () => {
      const unknown = await call(t.app, { url: '/api/results/no-such-ghadi' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<Failure>()).toEqual({
        success: false,
        message: expect.stringContaining('no-such-ghadi'),
      });
      const ghadi = await createGhadi(t.app, adminToken);
      const empty = await call(t.app, {
        url: `/api/results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`,
      });
      expect(empty.statusCode).toBe(404);
      expect(empty.json<Failure>().success).toBe(false);
    });
  });

  describe('GET /api/agent/my-ghadi/results', () => {
    it('lists the agent’s assigned ghadis’ results, optionally for one of them; others answer 403', async () => {
      const { ghadi, agent } = await assignedGhadi();
      const second = await createGhadi(t.app, adminToken);
      await assignGhadis(t.app, adminToken, agent.user.User_Id, second.GID);
      const foreign = await createGhadi(t.app, adminToken);
      await submitResult(t.app, agent.token, {
        ghadiId: ghadi.GID,
        result: '61',
        dateTime: today(),
      });
      await submitResult(t.app, agent.token, {
        ghadiId: second.GID,
        result: '62',
        dateTime: daysFromToday(-1),
      });
      await submitResult(t.app, adminToken, {
        ghadiId: foreign.GID,
        result: '63',
        dateTime: daysFromToday(-1),
      });

      const all = expectStatus<List<PublicResultRecord>>(
        await call(t.app, { url: '/api/agent/my-ghadi/results', token: agent.token }),
        200,
      );
      expect(all.data.map((row) => row.Result)).toEqual(['61', '62']);
      const one = expectStatus<List<PublicResultRecord>>(
        await call(t.app, { url: `/api/agent/my-ghadi/results?ghadiId=${second.GID}`, token: agent.token }),
        200,
      );
      expect(one.data.map((row) => row.Result)).toEqual(['62']);
      const other = await call(t.app, {
        url: `/api/agent/my-ghadi/results?ghadiId=${foreign.GID}`,
        token: agent.token,
      });
      expect(other.statusCode).toBe(403);
    });
  });

  describe('GET /api/results/count', () => {
    it('counts results: a new one adds one, a replacement adds none', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const before = await getCount(t.app, adminToken, 'results');
      await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '1', dateTime: daysFromToday(-1) });
      await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '2', dateTime: daysFromToday(-2) });
      expect(await getCount(t.app, adminToken, 'results')).toBe(before + 2);
      await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '3', dateTime: daysFromToday(-2) });
      expect(await getCount(t.app, adminToken, 'results')).toBe(before + 2);
    });
  });

  describe('soft delete of an agent', () => {
    it('keeps the agent’s results, with its name, in the count and the admin list', async () => {
      const { ghadi, agent } = await assignedGhadi();
      const declared = await submitResult(t.app, agent.token, {
        ghadiId: ghadi.GID,
        result: '91',
        dateTime: daysFromToday(-1),
      });
      const before = await getCount(t.app, adminToken, 'results');
      const deleted = await call(t.app, {
        method: 'DELETE',
        url: `/api/users/${agent.user._id}`,
        token: adminToken,
      });
      expect(deleted.statusCode).toBe(200);
      expect(await getCount(t.app, adminToken, 'results')).toBe(before);
      const listed = (await results('', adminToken)).data.find((row) => row._id === declared._id);
      expect(listed).toMatchObject({
        Result: '91',
        CreatedById: agent.user.User_Id,
        CreatedByName: agent.user.DisplayName,
      });
      const publicList = (await results('')).data.find((row) => row._id === declared._id);
      expect(publicList).toMatchObject({ Result: '91' });
    });
  });
});
