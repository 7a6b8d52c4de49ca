import { beforeAll, describe, expect, it } from 'vitest';
import { todayInZone, yesterdayInZone } from '../../src/shared/dates.js';
import type { AssignmentRecord } from '../../src/shared/schemas/assignments.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { ResultRecord } from '../../src/shared/schemas/results.js';
import {
  assignGhadis,
  call,
  createAgentWithToken,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  getCount,
  ghadiFields,
  type Item,
  type List,
  loginAdmin,
  submitResult,
} from '../support/factories.js';
import { DIALECTS, SITE_TIMEZONE, useTestApp } from '../support/test-app.js';

describe.each(DIALECTS)('ghadis [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
  });

  const listGhadis = async () =>
    expectStatus<List<GhadiRecord>>(await call(t.app, { url: '/api/ghadis' }), 200);
  const findGhadi = async (gid: number) => (await listGhadis()).data.find((ghadi) => ghadi.GID === gid);
  const post = (body: unknown) =>
    call(t.app, { method: 'POST', url: '/api/ghadis', token: adminToken, body });
  const put = (id: string | number, body: unknown) =>
    call(t.app, { method: 'PUT', url: `/api/ghadis/${id}`, token: adminToken, body });
  const remove = (id: string | number) =>
    call(t.app, { method: 'DELETE', url: `/api/ghadis/${id}`, token: adminToken });

  it('GET /api/ghadis is public and answers { success, data } sorted by OrderId', async () => {
    await createGhadi(t.app, adminToken, { OrderId: 3 });
    await createGhadi(t.app, adminToken, { OrderId: 0 });
    await createGhadi(t.app, adminToken, { OrderId: 55 });
    const answer = await listGhadis();
    expect(answer.success).toBe(true);
    expect(answer.data.length).toBeGreaterThanOrEqual(10);
    const orders = answer.data.map((ghadi) => ghadi.OrderId);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    for (const ghadi of answer.data) {
      expect(typeof ghadi._id).toBe('string');
      expect(ghadi.id).toBe(ghadi._id);
      expect(typeof ghadi.GID).toBe('number');
      expect(String(ghadi.GID)).toBe(ghadi._id);
      expect(ghadi).toHaveProperty('TodayResult');
      expect(ghadi).toHaveProperty('YesterdayResult');
      expect(ghadi).toHaveProperty('Result');
    }
  });

  it('POST /api/ghadis creates a ghadi (OrderId may come as a digit string)', async () => {
    const fields = ghadiFields();
    const answer = expectStatus<Item<GhadiRecord>>(await post({ ...fields, OrderId: '42' }), 201);
    expect(answer.success).toBe(true);
    expect(answer.data).toMatchObject({
      NameEn: fields.NameEn,
      NameHn: fields.NameHn,
      RTime: fields.RTime,
      OrderId: 42,
      TodayResult: '',
      YesterdayResult: '',
      Result: '',
      isActive: true,
    });
    expect(await findGhadi(answer.data.GID)).toMatchObject({ NameEn: fields.NameEn, OrderId: 42 });
  });

  it('POST /api/ghadis refuses a duplicate English name in any letter case (409)', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const response = await post(ghadiFields({ NameEn: ghadi.NameEn.toUpperCase() }));
    expect(response.statusCode).toBe(409);
    expect(response.json<Failure>().success).toBe(false);
  });

  it('two simultaneous creations of one name give one 201 and one 409', async () => {
    const fields = ghadiFields();
    const responses = await Promise.all([
      post(fields),
      post({ ...fields, NameEn: fields.NameEn.toUpperCase() }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
  });

  it('POST /api/ghadis takes an explicit GID once; later GIDs continue after it', async () => {
    const highest = Math.max(...(await listGhadis()).data.map((ghadi) => ghadi.GID));
    const wanted = highest + 1000;
    const explicit = expectStatus<Item<GhadiRecord>>(await post({ ...ghadiFields(), GID: wanted }), 201).data;
    expect(explicit.GID).toBe(wanted);
    expect((await post({ ...ghadiFields(), GID: wanted })).statusCode).toBe(409);
    const next = await createGhadi(t.app, adminToken);
    expect(next.GID).toBeGreaterThan(wanted);
  });

  it('PUT /api/ghadis/{id} updates the fields but never the GID', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const fields = ghadiFields({ OrderId: 7 });
    const answer = expectStatus<Item<GhadiRecord>>(
      await put(ghadi._id, { ...fields, GID: ghadi.GID + 5000 }),
      200,
    );
    expect(answer.data).toMatchObject({
      GID: ghadi.GID,
      NameEn: fields.NameEn,
      RTime: fields.RTime,
      OrderId: 7,
    });
    expect(await findGhadi(ghadi.GID)).toMatchObject({ NameEn: fields.NameEn });
    expect(await findGhadi(ghadi.GID + 5000)).toBeUndefined();
  });

  it('PUT to another live ghadi’s name answers 409', async () => {
    const first = await createGhadi(t.app, adminToken);
    const second = await createGhadi(t.app, adminToken);
    expect((await put(second._id, ghadiFields({ NameEn: first.NameEn }))).statusCode).toBe(409);
  });

  it('PUT and DELETE of an unknown or deleted ghadi answer 404', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    expect((await remove(ghadi._id)).statusCode).toBe(200);
    for (const id of [ghadi._id, '88888888']) {
      const updated = await put(id, ghadiFields());
      expect(updated.statusCode).toBe(404);
      expect(updated.json<Failure>().success).toBe(false);
      expect((await remove(id)).statusCode).toBe(404);
    }
  });

  it('GET /api/ghadis/count counts live ghadis', async () => {
    const before = await getCount(t.app, adminToken, 'ghadis');
    const ghadi = await createGhadi(t.app, adminToken);
    expect(await getCount(t.app, adminToken, 'ghadis')).toBe(before + 1);
    expect((await remove(ghadi._id)).statusCode).toBe(200);
    expect(await getCount(t.app, adminToken, 'ghadis')).toBe(before);
  });

  describe('results on the chart', () => {
    it('TodayResult and YesterdayResult come from the site time zone’s today and yesterday; Result is the latest', async () => {
      const today = todayInZone(SITE_TIMEZONE);
      const yesterday = yesterdayInZone(SITE_TIMEZONE);
      const both = await createGhadi(t.app, adminToken);
      const olderOnly = await createGhadi(t.app, adminToken);
      const yesterdayOnly = await createGhadi(t.app, adminToken);
      const none = await createGhadi(t.app, adminToken);

      await submitResult(t.app, adminToken, { ghadiId: both.GID, result: '56', dateTime: daysFromToday(-5) });
      await submitResult(t.app, adminToken, { ghadiId: both.GID, result: '34', dateTime: yesterday });
      await submitResult(t.app, adminToken, { ghadiId: both.GID, result: '12', dateTime: today });
      await submitResult(t.app, adminToken, {
        ghadiId: olderOnly.GID,
        result: '78',
        dateTime: daysFromToday(-3),
      });
      await submitResult(t.app, adminToken, {
        ghadiId: yesterdayOnly.GID,
        result: '05',
        dateTime: yesterday,
      });

      expect(await findGhadi(both.GID)).toMatchObject({
        TodayResult: '12',
        YesterdayResult: '34',
        Result: '12',
      });
      expect(await findGhadi(olderOnly.GID)).toMatchObject({
        TodayResult: '',
        YesterdayResult: '',
        Result: '78',
      });
      expect(await findGhadi(yesterdayOnly.GID)).toMatchObject({
        TodayResult: '',
        YesterdayResult: '05',
        Result: '05',
      });
      expect(await findGhadi(none.GID)).toMatchObject({ TodayResult: '', YesterdayResult: '', Result: '' });

      // A corrected value replaces the old one everywhere.
      await submitResult(t.app, adminToken, { ghadiId: both.GID, result: '99', dateTime: today });
      expect(await findGhadi(both.GID)).toMatchObject({
        TodayResult: '99',
        YesterdayResult: '34',
        Result: '99',
      });
    });
  });

  describe('soft delete', () => {
    it('keeps the ghadi’s results, frees its name and removes its assignments', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const agent = await createAgentWithToken(t.app, adminToken);
      await assignGhadis(t.app, adminToken, agent.user.User_Id, ghadi.GID);
      const declared = await submitResult(t.app, agent.token, {
        ghadiId: ghadi.GID,
        result: '42',
        dateTime: daysFromToday(-1),
      });
      const resultsBefore = await getCount(t.app, adminToken, 'results');

      const deleted = await remove(ghadi._id);
      expect(deleted.json()).toMatchObject({ success: true });

      expect(await findGhadi(ghadi.GID)).toBeUndefined();
      expect(await getCount(t.app, adminToken, 'results')).toBe(resultsBefore);
      const adminResults = expectStatus<List<ResultRecord>>(
        await call(t.app, { url: '/api/results', token: adminToken }),
        200,
      );
      expect(adminResults.data.find((result) => result._id === declared._id)).toMatchObject({
        GID: ghadi.GID,
        Result: '42',
      });

      const assignments = expectStatus<List<AssignmentRecord>>(
        await call(t.app, { url: '/api/usermaps', token: adminToken }),
        200,
      );
      expect(assignments.data.filter((assignment) => assignment.GID === ghadi.GID)).toEqual([]);
      const stored = await t.database.db
        .selectFrom('usermaps')
        .select('usermap_id')
        .where('gid', '=', ghadi.GID)
        .execute();
      expect(stored).toEqual([]);
      const mine = expectStatus<List<GhadiRecord>>(
        await call(t.app, { url: '/api/agent/my-ghadi', token: agent.token }),
        200,
      );
      expect(mine.data).toEqual([]);

      const reused = await createGhadi(t.app, adminToken, { NameEn: ghadi.NameEn });
      expect(reused.GID).not.toBe(ghadi.GID);
      expect(await findGhadi(reused.GID)).toMatchObject({ NameEn: ghadi.NameEn, Result: '' });
    });
  });
});
