import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_DAYS, weekdayOf } from '../../src/shared/matka.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { TodayBoard, TodayGhadi } from '../../src/shared/schemas/today.js';
import {
  assignGhadis,
  call,
  createAgentWithToken,
  createGhadi,
  expectStatus,
  loginAdmin,
  postResult,
  submitResult,
  today,
} from '../support/factories.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

/*
 * The board's open/close markets and closed ghadis (today-board.test.ts has the rest). Its day is the
 * real one, its clock noon of it in the site's zone, as there.
 */
describe.each(DIALECTS)("today's board: markets and closures [%s]", (dialect) => {
  const date = today();
  const at = (time: string) => Date.parse(`${date}T${time}+05:30`);
  const iso = (instant: number) => new Date(instant).toISOString();
  const clock = new TestClock(at('12:00:00'));
  const t = useTestApp(dialect, { now: clock.now });
  const moveTo = (instant: number) => clock.advance(instant - clock.now());

  let admin: string;
  const ghadis = {} as Record<
    'market' | 'later' | 'starline' | 'holiday' | 'offDay' | 'declared',
    GhadiRecord
  >;

  const rowOf = async (ghadi: GhadiRecord): Promise<TodayGhadi> => {
    const board = expectStatus<{ data: TodayBoard }>(
      await call(t.app, { url: '/api/today', token: admin }),
      200,
    ).data;
    const row = board.ghadis.find((g) => g.GID === ghadi.GID);
    if (!row) throw new Error(`${ghadi.NameEn} is not on the board`);
    return row;
  };
  const declare = (ghadi: GhadiRecord, result: string) =>
    submitResult(t.app, admin, { ghadiId: ghadi.GID, result, dateTime: date });
  const addHoliday = async (body: { GID?: number; Note?: string }) =>
    expectStatus(
      await call(t.app, {
        method: 'POST',
        url: '/api/holidays',
        token: admin,
        body: { Date: date, ...body },
      }),
      201,
    );

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
    const market = { Kind: 'open-close' as const };
    ghadis.market = await createGhadi(t.app, admin, { ...market, OpenTime: '11:00 AM', RTime: '1:00 PM' });
    ghadis.later = await createGhadi(t.app, admin, { ...market, OpenTime: '12:30 PM', RTime: '2:00 PM' });
    ghadis.starline = await createGhadi(t.app, admin, { Kind: 'panna', RTime: '11:30 AM' });
    ghadis.holiday = await createGhadi(t.app, admin, { RTime: '10:00 AM' });
    ghadis.offDay = await createGhadi(t.app, admin, {
      RTime: '10:00 AM',
      Days: ALL_DAYS.filter((day) => day !== weekdayOf(date)),
    });
    ghadis.declared = await createGhadi(t.app, admin, { RTime: '9:00 AM' });
    await addHoliday({ GID: ghadis.holiday.GID, Note: 'Repairs' });
  });

  it('has a market wait for its open panna by its open time, then for its close by RTime', async () => {
    expect(await rowOf(ghadis.market)).toMatchObject({
      Kind: 'open-close',
      OpenTime: '11:00 AM',
      RTime: '1:00 PM',
      openDueAt: iso(at('11:00:00')),
      dueAt: iso(at('13:00:00')),
      step: 'open',
      state: 'overdue',
      closed: null,
      Result: null,
    });
    expect(await rowOf(ghadis.later)).toMatchObject({ step: 'open', state: 'waiting' });
    moveTo(at('12:30:00'));
    expect((await rowOf(ghadis.later)).state).toBe('due');
    moveTo(at('12:45:00'));
    expect((await rowOf(ghadis.later)).state).toBe('overdue');

    await declare(ghadis.market, '123');
    expect(await rowOf(ghadis.market)).toMatchObject({ step: 'close', state: 'waiting', Result: '123-6' });
    moveTo(at('13:00:00'));
    expect((await rowOf(ghadis.market)).state).toBe('due');
    moveTo(at('13:15:00'));
    expect((await rowOf(ghadis.market)).state).toBe('overdue');

    // The close completes the day: declared, not corrected.
    await declare(ghadis.market, '459');
    expect(await rowOf(ghadis.market)).toMatchObject({
      step: 'complete',
      state: 'declared',
      Result: '123-68-459',
    });
    await declare(ghadis.market, '123-69-450');
    expect(await rowOf(ghadis.market)).toMatchObject({ step: 'complete', state: 'corrected' });
  });

  it('gives a starline ghadi no step: one value a day, as a jodi ghadi', async () => {
    expect(await rowOf(ghadis.starline)).toMatchObject({
      Kind: 'panna',
      OpenTime: null,
      openDueAt: null,
      step: null,
      state: 'overdue',
    });
    await declare(ghadis.starline, '128');
    expect(await rowOf(ghadis.starline)).toMatchObject({ state: 'declared', Result: '128-1' });
  });

  it('says a ghadi on holiday or off its days is closed, and never due nor overdue', async () => {
    expect(await rowOf(ghadis.holiday)).toMatchObject({
      closed: 'holiday',
      closedNote: 'Repairs',
      state: 'waiting',
    });
    expect(await rowOf(ghadis.offDay)).toMatchObject({
      closed: 'off-day',
      closedNote: null,
      state: 'waiting',
    });
    // An agent may not declare then; an admin still may, and the ghadi is declared.
    const agent = await createAgentWithToken(t.app, admin);
    await assignGhadis(t.app, admin, agent.user.User_Id, ghadis.offDay.GID);
    const refused = await postResult(t.app, agent.token, {
      ghadiId: ghadis.offDay.GID,
      result: '45',
      dateTime: date,
    });
    expect(refused.statusCode).toBe(409);
    await declare(ghadis.offDay, '45');
    expect(await rowOf(ghadis.offDay)).toMatchObject({ closed: 'off-day', state: 'declared', Result: '45' });
  });

  it('closes every ghadi on a holiday of all of them, a ghadi’s own note first', async () => {
    await declare(ghadis.declared, '07');
    expect(await rowOf(ghadis.later)).toMatchObject({ closed: null, state: 'overdue' });
    await addHoliday({ Note: 'Festival' });
    expect(await rowOf(ghadis.later)).toMatchObject({
      closed: 'holiday',
      closedNote: 'Festival',
      step: 'open',
      state: 'waiting',
    });
    expect(await rowOf(ghadis.holiday)).toMatchObject({ closed: 'holiday', closedNote: 'Repairs' });
    expect(await rowOf(ghadis.declared)).toMatchObject({
      closed: 'holiday',
      state: 'declared',
      Result: '07',
    });
  });
});
