import { beforeAll, describe, expect, it } from 'vitest';
import { weekdayOf } from '../../src/shared/matka.js';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { HolidayRecord } from '../../src/shared/schemas/holidays.js';
import type { PublicResultRecord } from '../../src/shared/schemas/results.js';
import {
  assignGhadis,
  call,
  createAgentWithToken,
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
} from '../support/factories.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';

const MARKET = { Kind: 'open-close', OpenTime: '3:45 PM', RTime: '5:45 PM' } as const;

describe.each(DIALECTS)('matka markets [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let admin: string;

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
  });

  /** A ghadi of the fields given, assigned to a new agent. */
  async function assigned(fields: Parameters<typeof createGhadi>[2]) {
    const ghadi = await createGhadi(t.app, admin, fields);
    const agent = await createAgentWithToken(t.app, admin);
    await assignGhadis(t.app, admin, agent.user.User_Id, ghadi.GID);
    return { ghadi, agent: agent.token };
  }

  const entriesOf = async (gid: number) =>
    expectStatus<List<DeclarationEntry>>(await call(t.app, { url: `/api/declarations?gid=${gid}` }), 200)
      .data;

  const failure = async (response: Awaited<ReturnType<typeof postResult>>, status: number) =>
    expectStatus<Failure>(response, status).message;

  describe('ghadi fields', () => {
    it('makes a daily jodi ghadi for a client that sends none of the new fields, and a PUT keeps them', async () => {
      const plain = await createGhadi(t.app, admin);
      expect(plain).toMatchObject({ Kind: 'jodi', OpenTime: null, Days: [0, 1, 2, 3, 4, 5, 6] });
      const market = await createGhadi(t.app, admin, { ...MARKET, Days: [6, 1, 2, 3, 4, 5] });
      expect(market).toMatchObject({ Kind: 'open-close', OpenTime: '3:45 PM', Days: [1, 2, 3, 4, 5, 6] });
      const { NameEn, NameHn, OrderId } = market;
      const updated = expectStatus<Item<GhadiRecord>>(
        await call(t.app, {
          method: 'PUT',
          url: `/api/ghadis/${market.GID}`,
          token: admin,
          body: { NameEn, NameHn, RTime: '6:00 PM', OrderId },
        }),
        200,
      ).data;
      expect(updated).toMatchObject({
        Kind: 'open-close',
        OpenTime: '3:45 PM',
        Days: [1, 2, 3, 4, 5, 6],
        RTime: '6:00 PM',
      });
    });

    it('refuses an open/close market without an open time, or opening after it closes, and empty days', async () => {
      const post = (body: object) =>
        call(t.app, { method: 'POST', url: '/api/ghadis', token: admin, body: ghadiFields(body) });
      expect(await failure(await post({ Kind: 'open-close' }), 400)).toMatch(/OpenTime/);
      expect(await failure(await post({ ...MARKET, OpenTime: '6:00 PM' }), 400)).toMatch(/earlier/);
      expect(await failure(await post({ Kind: 'jodi', OpenTime: '3:00 PM' }), 400)).toMatch(/open time/);
      expect(await failure(await post({ Days: [] }), 400)).toMatch(/Days/);
      expect(await failure(await post({ Days: [1, 1] }), 400)).toMatch(/Days/);
      expect(await failure(await post({ Kind: 'matka' }), 400)).toMatch(/Kind/);
    });
  });

  describe('submitting', () => {
    it('declares the open half, completes it with the close panna, then corrects the whole day', async () => {
      const { ghadi, agent } = await assigned(MARKET);
      const date = today();
      const open = await submitResult(t.app, agent, { ghadiId: ghadi.GID, result: '123', dateTime: date });
      expect(open).toMatchObject({ Result: '123-6', Corrected: false, Previous: null });
      const close = await submitResult(t.app, agent, { ghadiId: ghadi.GID, result: '459', dateTime: date });
      expect(close).toMatchObject({ Result: '123-68-459', Corrected: false });
      const corrected = await submitResult(t.app, agent, {
        ghadiId: ghadi.GID,
        result: '123-69-450',
        dateTime: date,
      });
      expect(corrected).toMatchObject({ Result: '123-69-450', Corrected: true, Previous: '123-68-459' });

      const entries = await entriesOf(ghadi.GID);
      expect(entries.map(({ Result, Previous, Step }) => ({ Result, Previous, Step }))).toEqual([
        { Result: '123-6', Previous: null, Step: 'open' },
        { Result: '123-68-459', Previous: '123-6', Step: 'close' },
        { Result: '123-69-450', Previous: '123-68-459', Step: 'close' },
      ]);
      for (let index = 1; index < entries.length; index += 1)
        expect(entries[index]?.prevHash).toBe(entries[index - 1]?.hash);

      const board = expectStatus<List<GhadiRecord>>(await call(t.app, { url: '/api/ghadis' }), 200).data;
      expect(board.find((row) => row.GID === ghadi.GID)).toMatchObject({
        TodayResult: '123-69-450',
        Corrected: true,
      });
    });

    it('takes the close half with its ank, the whole value over the open half, and corrects an open half', async () => {
      const { ghadi, agent } = await assigned(MARKET);
      const submit = (result: string, dateTime = today()) =>
        submitResult(t.app, agent, { ghadiId: ghadi.GID, result, dateTime });
      expect((await submit('123-6')).Result).toBe('123-6');
      expect(await submit('124-7')).toMatchObject({ Result: '124-7', Corrected: true, Previous: '123-6' });
      expect(await submit('8-459')).toMatchObject({ Result: '124-78-459', Corrected: false, Previous: null });
      const yesterday = daysFromToday(-1);
      expect((await submit('128', yesterday)).Result).toBe('128-1');
      expect(await submit('128-10-550', yesterday)).toMatchObject({ Result: '128-10-550', Corrected: false });
      const steps = (await entriesOf(ghadi.GID)).map((entry) => [entry.Result, entry.Step]);
      expect(steps).toEqual([
        ['123-6', 'open'],
        ['124-7', 'open'],
        ['124-78-459', 'close'],
        ['128-1', 'open'],
        ['128-10-550', 'close'],
      ]);
    });

    it('answers 400 naming the wrong part, and writes nothing', async () => {
      const { ghadi, agent } = await assigned(MARKET);
      const send = (result: string) =>
        postResult(t.app, agent, { ghadiId: ghadi.GID, result, dateTime: today() });
      expect(await failure(await send('8-459'), 400)).toMatch(/open panna first/);
      expect(await failure(await send('321'), 400)).toMatch(/open panna/);
      expect(await failure(await send('123-5'), 400)).toMatch(/open ank/);
      expect(await failure(await send('123-67-459'), 400)).toMatch(/jodi/);
      expect(await failure(await send('123-68-451'), 400)).toMatch(/close panna/);
      expect(await entriesOf(ghadi.GID)).toEqual([]);
      await submitResult(t.app, agent, { ghadiId: ghadi.GID, result: '123', dateTime: today() });
      expect(await failure(await send('7-459'), 400)).toMatch(/close ank/);
      expect(await failure(await send('124-78-459'), 400)).toMatch(
        /differs from the declared open panna 123/,
      );
      await submitResult(t.app, agent, { ghadiId: ghadi.GID, result: '459', dateTime: today() });
      for (const text of ['123', '123-6', '460', '8-459'])
        expect(await failure(await send(text), 400), text).toMatch(/day is complete/);
      expect((await entriesOf(ghadi.GID)).map((entry) => entry.Result)).toEqual(['123-6', '123-68-459']);
    });

    it('stores a starline panna with its ank, and a jodi ghadi as before', async () => {
      const { ghadi, agent } = await assigned({ Kind: 'panna' });
      const submit = (result: string) =>
        postResult(t.app, agent, { ghadiId: ghadi.GID, result, dateTime: today() });
      expect(expectStatus<Item<PublicResultRecord>>(await submit('128'), 200).data.Result).toBe('128-1');
      expect(expectStatus<Item<PublicResultRecord>>(await submit('128-1'), 200).data.Corrected).toBe(false);
      expect(await failure(await submit('128-2'), 400)).toMatch(/ank/);
      expect((await entriesOf(ghadi.GID)).map((entry) => entry.Step)).toEqual([null]);
      const jodi = await assigned({});
      const value = await submitResult(t.app, jodi.agent, {
        ghadiId: jodi.ghadi.GID,
        result: '123-6',
        dateTime: today(),
      });
      expect(value.Result).toBe('123-6');
      expect((await entriesOf(jodi.ghadi.GID))[0]?.Step).toBeNull();
    });

    it('answers a retried step with its first answer', async () => {
      const { ghadi, agent } = await assigned(MARKET);
      const keyed = (result: string, key: string) =>
        call(t.app, {
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: agent,
          headers: { 'idempotency-key': key },
          body: { ghadiId: ghadi.GID, result, dateTime: today() },
        });
      expect(expectStatus<Item<PublicResultRecord>>(await keyed('123', 'open-1'), 200).data.Result).toBe(
        '123-6',
      );
      expect(expectStatus<Item<PublicResultRecord>>(await keyed('459', 'close-1'), 200).data.Result).toBe(
        '123-68-459',
      );
      // The open step's retry gets the open step's answer, though the day is complete now.
      expect(expectStatus<Item<PublicResultRecord>>(await keyed('123', 'open-1'), 200).data.Result).toBe(
        '123-6',
      );
      expect(await entriesOf(ghadi.GID)).toHaveLength(2);
    });
  });

  describe('import', () => {
    const importCsv = (body: string) =>
      call(t.app, {
        method: 'POST',
        url: '/api/results/import?dryRun=false',
        token: admin,
        body,
        headers: { 'content-type': 'text/csv' },
      });

    it("takes each kind's stored forms and bare pannas; a bad line names its rule and nothing is written", async () => {
      const market = await createGhadi(t.app, admin, MARKET);
      const starline = await createGhadi(t.app, admin, { Kind: 'panna' });
      const year = 2011;
      const bad = [
        'Date,GID,Result',
        `${year}-03-01,${market.GID},123`,
        `${year}-03-02,${market.GID},123-68-459`,
        `${year}-03-03,${market.GID},123-67-459`,
        `${year}-03-04,${starline.GID},821`,
        `${year}-03-05,${market.GID},8-459`,
      ].join('\n');
      const refused = await call(t.app, {
        method: 'POST',
        url: '/api/results/import?dryRun=false',
        token: admin,
        body: bad,
        headers: { 'content-type': 'text/csv' },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toEqual([
        { line: 4, message: 'Result: The jodi of 123 and 459 is 68, not 67' },
        { line: 5, message: expect.stringMatching(/^Result: 821 is not a valid panna/) },
        { line: 6, message: 'Result: Declare the open panna first: the close panna completes it' },
      ]);
      expect(await entriesOf(market.GID)).toEqual([]);

      const good = [
        'Date,GID,Result',
        `${year}-03-01,${market.GID},123`,
        `${year}-03-02,${market.GID},123-68-459`,
        `${year}-03-03,${starline.GID},128`,
        `${year}-03-04,${starline.GID},550-0`,
      ].join('\n');
      expectStatus(await importCsv(good), 200);
      const stored = (gid: number) =>
        t.database.db
          .selectFrom('results')
          .select(['result_date', 'value', 'previous_value'])
          .where('gid', '=', gid)
          .orderBy('result_date')
          .execute();
      expect((await stored(market.GID)).map((row) => row.value)).toEqual(['123-6', '123-68-459']);
      expect((await stored(starline.GID)).map((row) => row.value)).toEqual(['128-1', '550-0']);

      // Completing an imported open half is a close step, not a correction.
      expectStatus(
        await importCsv(['Date,GID,Result', `${year}-03-01,${market.GID},123-68-459`].join('\n')),
        200,
      );
      expect((await stored(market.GID))[0]).toMatchObject({ value: '123-68-459', previous_value: null });
      const steps = (await entriesOf(market.GID)).map((entry) => [entry.Result, entry.Previous, entry.Step]);
      expect(steps).toEqual([
        ['123-6', null, 'open'],
        ['123-68-459', null, 'close'],
        ['123-68-459', '123-6', 'close'],
      ]);
    });
  });

  describe('holidays and off-days', () => {
    const addHoliday = (body: object) =>
      call(t.app, { method: 'POST', url: '/api/holidays', token: admin, body });

    it('lists, refuses duplicates and unknown ghadis, and deletes', async () => {
      const ghadi = await createGhadi(t.app, admin);
      const date = daysFromToday(40);
      const created = expectStatus<Item<HolidayRecord>>(
        await addHoliday({ Date: date, GID: ghadi.GID, Note: 'Diwali' }),
        201,
      ).data;
      expect(created).toMatchObject({ Date: date, GID: ghadi.GID, Note: 'Diwali' });
      expect(await failure(await addHoliday({ Date: date, GID: ghadi.GID }), 409)).toMatch(
        /already a holiday/,
      );
      expect(await failure(await addHoliday({ Date: date, GID: 2_000_000 }), 404)).toMatch(/not found/);
      expect(await failure(await addHoliday({ Date: '2026-02-30' }), 400)).toMatch(/Date/);
      const every = expectStatus<Item<HolidayRecord>>(await addHoliday({ Date: date }), 201).data;
      expect(every.GID).toBeNull();

      const listed = expectStatus<List<HolidayRecord>>(await call(t.app, { url: '/api/holidays' }), 200).data;
      expect(listed).toEqual(expect.arrayContaining([created, every]));
      expectStatus(
        await call(t.app, { method: 'DELETE', url: `/api/holidays/${created._id}`, token: admin }),
        200,
      );
      expect(
        await failure(
          await call(t.app, { method: 'DELETE', url: `/api/holidays/${created._id}`, token: admin }),
          404,
        ),
      ).toMatch(/not found/);
      const after = expectStatus<List<HolidayRecord>>(await call(t.app, { url: '/api/holidays' }), 200).data;
      expect(after.map((holiday) => holiday._id)).not.toContain(created._id);
      expect(after.map((holiday) => holiday._id)).toContain(every._id);
      expectStatus(
        await call(t.app, { method: 'DELETE', url: `/api/holidays/${every._id}`, token: admin }),
        200,
      );
    });

    it('closes a ghadi on its holiday: the board says so, agents get 409, an admin may declare', async () => {
      const { ghadi, agent } = await assigned(MARKET);
      const holiday = expectStatus<Item<HolidayRecord>>(
        await addHoliday({ Date: today(), GID: ghadi.GID, Note: 'Holi' }),
        201,
      ).data;
      const board = expectStatus<List<GhadiRecord>>(await call(t.app, { url: '/api/ghadis' }), 200).data;
      expect(board.find((row) => row.GID === ghadi.GID)?.Closed).toBe('holiday');
      expect(
        await failure(
          await postResult(t.app, agent, { ghadiId: ghadi.GID, result: '123', dateTime: today() }),
          409,
        ),
      ).toMatch(/holiday/);
      expect(await entriesOf(ghadi.GID)).toEqual([]);
      expect(
        (await submitResult(t.app, admin, { ghadiId: ghadi.GID, result: '123', dateTime: today() })).Result,
      ).toBe('123-6');
      expectStatus(
        await call(t.app, { method: 'DELETE', url: `/api/holidays/${holiday._id}`, token: admin }),
        200,
      );
      const reopened = expectStatus<List<GhadiRecord>>(await call(t.app, { url: '/api/ghadis' }), 200).data;
      expect(reopened.find((row) => row.GID === ghadi.GID)?.Closed).toBeNull();
      // Checked after the agent's window: a date out of it is refused for that first.
      expect(
        await failure(
          await postResult(t.app, agent, { ghadiId: ghadi.GID, result: '459', dateTime: daysFromToday(-5) }),
          403,
        ),
      ).toMatch(/today or yesterday/);
    });

    it('closes a ghadi on the weekdays it does not run', async () => {
      const offToday = weekdayOf(today());
      const days = [0, 1, 2, 3, 4, 5, 6].filter((day) => day !== offToday);
      const { ghadi, agent } = await assigned({ ...MARKET, Days: days });
      expect(ghadi.Closed).toBe('off-day');
      expect(
        await failure(
          await postResult(t.app, agent, { ghadiId: ghadi.GID, result: '123', dateTime: today() }),
          409,
        ),
      ).toMatch(/does not run on/);
      expect(
        (await submitResult(t.app, agent, { ghadiId: ghadi.GID, result: '123', dateTime: daysFromToday(-1) }))
          .Result,
      ).toBe('123-6');
      expect(
        (await submitResult(t.app, admin, { ghadiId: ghadi.GID, result: '120', dateTime: today() })).Result,
      ).toBe('120-3');
    });
  });
});
