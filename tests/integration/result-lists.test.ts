import { beforeAll, describe, expect, it } from 'vitest';
import type { Pagination } from '../../src/shared/schemas/common.js';
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
  loginAdmin,
  submitResult,
  unique,
  uniqueAddress,
} from '../support/factories.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

interface Paged<T> {
  success: true;
  data: T[];
  pagination: Pagination;
}

/** More than one chunk of the unpaged admin list (500 rows), with many rows sharing a date. */
const BULK_DAYS = 700;

describe.each(DIALECTS)('paged and searched result lists [%s]', (dialect) => {
  const t = useTestApp(dialect, { env: { PUBLIC_QUERIES_PER_MINUTE: '1000' } });
  let adminToken: string;
  let bulk: GhadiRecord;
  let other: GhadiRecord;

  /** Results written straight to the database: years of them would take minutes through the API. */
  async function insertResults(gid: number, days: number, createdBy: number | null) {
    const now = new Date().toISOString();
    const rows = Array.from({ length: days }, (_, index) => ({
      gid,
      result_date: daysFromToday(-2 - index),
      value: String(index % 100).padStart(2, '0'),
      created_by: createdBy,
      created_at: now,
      updated_at: now,
      declared_at: now,
    }));
    for (let start = 0; start < rows.length; start += 200) {
      await t.database.db
        .insertInto('results')
        .values(rows.slice(start, start + 200))
        .execute();
    }
  }

  const admin = async <T = ResultRecord>(query: string) =>
    expectStatus<Paged<T>>(await call(t.app, { url: `/api/results${query}`, token: adminToken }), 200);
  const anyone = async (query: string, remoteAddress = uniqueAddress()) =>
    expectStatus<Paged<PublicResultRecord>>(
      await call(t.app, { url: `/api/results${query}`, remoteAddress }),
      200,
    );

  /** Every page of a query, joined. */
  async function allPages(query: string, limit: number) {
    const first = await admin(`${query}&page=1&limit=${limit}`);
    const rows = [...first.data];
    for (let page = 2; page <= first.pagination.totalPages; page++) {
      rows.push(...(await admin(`${query}&page=${page}&limit=${limit}`)).data);
    }
    return { rows, first };
  }

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
    bulk = await createGhadi(t.app, adminToken, { NameEn: unique('Bulk ') });
    other = await createGhadi(t.app, adminToken, { NameEn: unique('Other ') });
    await insertResults(bulk.GID, BULK_DAYS, null);
    await insertResults(other.GID, BULK_DAYS, null);
  });

  it('pages a search from both ends in list order: newest date first, then newest declaration', async () => {
    const query = `?q=${encodeURIComponent(bulk.NameEn)}`;
    for (const limit of [5, 15]) {
      const { rows, first } = await allPages(query, limit);
      expect(first.pagination).toEqual({
        page: 1,
        limit,
        total: BULK_DAYS,
        totalPages: Math.ceil(BULK_DAYS / limit),
      });
      expect(rows).toHaveLength(BULK_DAYS);
      expect(rows.map((row) => row.Date)).toEqual(
        Array.from({ length: BULK_DAYS }, (_, index) => daysFromToday(-2 - index)),
      );
    }
    const last = await admin(`${query}&page=${Math.ceil(BULK_DAYS / 15)}&limit=15`);
    expect(last.data).toHaveLength(BULK_DAYS % 15 || 15);
    expect((await admin(`${query}&page=999&limit=15`)).data).toEqual([]);
  });

  it('answers the whole admin list when no page is asked for, the same rows as its pages', async () => {
    const response = await call(t.app, { url: '/api/results', token: adminToken });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const whole = JSON.parse(response.body) as { success: boolean; data: ResultRecord[] };
    expect(whole.success).toBe(true);
    const count = expectStatus<{ count: number }>(
      await call(t.app, { url: '/api/results/count', token: adminToken }),
      200,
    ).count;
    expect(whole.data).toHaveLength(count);
    expect(whole.data.length).toBeGreaterThan(2 * BULK_DAYS - 1);
    const paged = await allPages('?q=', 500);
    expect(whole.data.map((row) => row._id)).toEqual(paged.rows.map((row) => row._id));
    expect(new Set(whole.data.map((row) => row._id)).size).toBe(whole.data.length);
  });

  it('searches by ghadi name part, result in any case, date, year and month, and author for admins only', async () => {
    const agent = await createAgentWithToken(t.app, adminToken, { DisplayName: unique('Searcher ') });
    await assignGhadis(t.app, adminToken, agent.user.User_Id, other.GID);
    const marker = unique('Zq').slice(0, 12);
    await submitResult(t.app, agent.token, {
      ghadiId: other.GID,
      result: marker,
      dateTime: daysFromToday(0),
    });

    const byValue = await admin(`?q=${marker.toLowerCase()}&page=1&limit=5`);
    expect(byValue.data.map((row) => row.Result)).toEqual([marker]);
    const byAuthor = await admin(
      `?q=${encodeURIComponent(agent.user.DisplayName.toUpperCase())}&page=1&limit=5`,
    );
    expect(byAuthor.data.map((row) => row.Result)).toEqual([marker]);
    const publicByAuthor = await anyone(`?q=${encodeURIComponent(agent.user.DisplayName)}`);
    expect(publicByAuthor.data).toEqual([]);

    const part = bulk.NameEn.slice(2, -2).toLowerCase();
    expect((await admin(`?q=${encodeURIComponent(part)}&page=1&limit=5`)).pagination.total).toBe(BULK_DAYS);

    const day = daysFromToday(-30);
    const byDay = await admin(`?q=${day}&page=1&limit=100`);
    expect(byDay.data.every((row) => row.Date === day)).toBe(true);
    expect(byDay.data.map((row) => row.GID)).toEqual(expect.arrayContaining([bulk.GID, other.GID]));
    for (const text of [day.slice(0, 7), day.slice(0, 4)]) {
      const byPeriod = await admin(`?q=${text}&page=1&limit=500`);
      expect(byPeriod.pagination.total).toBeGreaterThan(0);
      expect(byPeriod.data.every((row) => row.Date.startsWith(text))).toBe(true);
    }
    // Wildcards are not wildcards.
    expect((await admin('?q=%25&page=1&limit=5')).pagination.total).toBe(0);
  });

  it('answers the public its newest page when it asks for no month, and never a deleted ghadi’s results', async () => {
    const newest = await anyone('');
    expect(newest.pagination).toMatchObject({ page: 1, limit: 100 });
    expect(newest.data).toHaveLength(100);
    const doomed = await createGhadi(t.app, adminToken, { NameEn: unique('Doomed ') });
    await submitResult(t.app, adminToken, { ghadiId: doomed.GID, result: '77', dateTime: daysFromToday(0) });
    const query = `?q=${encodeURIComponent(doomed.NameEn)}`;
    expect((await anyone(query)).data.map((row) => row.Result)).toEqual(['77']);
    expectStatus(
      await call(t.app, { method: 'DELETE', url: `/api/ghadis/${doomed.GID}`, token: adminToken }),
      200,
    );
    expect((await anyone(query)).data).toEqual([]);
    expect((await anyone('')).data.map((row) => row.GID)).not.toContain(doomed.GID);
    expect((await admin(`${query}&page=1&limit=5`)).data.map((row) => row.Result)).toEqual(['77']);
  });

  it('answers 400 naming the field for a page or limit out of range', async () => {
    const cases: Array<[string, string | undefined, RegExp]> = [
      ['?page=0&limit=5', adminToken, /^page: /],
      ['?page=100001&limit=5', adminToken, /^page: Must be 100000 or less/],
      ['?page=1&limit=0', adminToken, /^limit: /],
      ['?page=1&limit=501', adminToken, /^limit: Must be 500 or less/],
      ['?page=x', adminToken, /^page: /],
      ['?q=a&limit=101', undefined, /^limit: Must be 100 or less/],
    ];
    for (const [query, token, message] of cases) {
      const failure = expectStatus<Failure>(
        await call(t.app, { url: `/api/results${query}`, ...(token ? { token } : {}) }),
        400,
      );
      expect(failure.message).toMatch(message);
    }
    const agent = await createAgentWithToken(t.app, adminToken);
    const failure = expectStatus<Failure>(
      await call(t.app, { url: '/api/agent/my-ghadi/results?limit=101', token: agent.token }),
      400,
    );
    expect(failure.message).toMatch(/^limit: Must be 100 or less/);
  });

  it('pages an agent’s history, 10 by default, searchable, one ghadi or all of its own', async () => {
    const agent = await createAgentWithToken(t.app, adminToken);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, [bulk.GID, other.GID]);
    const history = async (query: string) =>
      expectStatus<Paged<PublicResultRecord>>(
        await call(t.app, { url: `/api/agent/my-ghadi/results${query}`, token: agent.token }),
        200,
      );
    const first = await history('');
    expect(first.pagination).toEqual({
      page: 1,
      limit: 10,
      total: 2 * BULK_DAYS + 1,
      totalPages: Math.ceil((2 * BULK_DAYS + 1) / 10),
    });
    const one = await history(`?ghadiId=${bulk.GID}&page=70`);
    expect(one.data.map((row) => row.Date)).toEqual(
      Array.from({ length: 10 }, (_, index) => daysFromToday(-2 - 690 - index)),
    );
    const searched = await history(`?q=${daysFromToday(-5)}`);
    expect(searched.data.map((row) => row.GID).sort()).toEqual([bulk.GID, other.GID].sort());
  });
});

describe.each(DIALECTS)('public result queries per client address [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, { env: { PUBLIC_QUERIES_PER_MINUTE: '3' }, now: clock.now });

  it('answers 429 with Retry-After past the limit, to that address only; cached lists and admins go on', async () => {
    const adminToken = await loginAdmin(t.app);
    const address = uniqueAddress();
    const search = (remoteAddress: string, token?: string) =>
      call(t.app, { url: '/api/results?q=gali', remoteAddress, ...(token ? { token } : {}) });
    // The limit counts whole clock minutes: start at the beginning of one.
    clock.toNextMinute();
    for (let index = 0; index < 3; index++) expect((await search(address)).statusCode).toBe(200);
    const refused = await search(address);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBe(60);
    expect((await search(uniqueAddress())).statusCode).toBe(200);
    expect((await search(address, adminToken)).statusCode).toBe(200);
    const month = daysFromToday(0).slice(0, 7);
    expect(
      (await call(t.app, { url: `/api/results?month=${month}`, remoteAddress: address })).statusCode,
    ).toBe(200);
    // Once the minute Retry-After named has passed, the address may search again.
    clock.advance(retryAfter * 1000);
    expect((await search(address)).statusCode).toBe(200);
  });
});
