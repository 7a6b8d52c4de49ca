import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.js';
import { ALL_DAYS, weekdayOf } from '../../src/shared/matka.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { GhadiStatsEntry } from '../../src/shared/schemas/site-stats.js';
import {
  call,
  createAgentWithToken,
  createGhadi,
  expectStatus,
  type Failure,
  importResults,
  loginAdmin,
  submitResult,
} from '../support/factories.js';
import { DAY, dueAt, MINUTE, minutes, wall } from '../support/site-wall-clock.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

type Answer = { success: true; data: GhadiStatsEntry[] };

/*
 * Declarations are stamped by the real clock, so the ghadis' times are set around the real time the
 * suite starts (T0): a result time 5 minutes before it is declared on time, one an hour before it late.
 * The injected clock, which says what "today" is and which deadlines have passed, starts at T0 too
 * and is moved forward to see days fall due.
 */
describe.each(DIALECTS)('per-ghadi stats [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, { now: clock.now });
  const T0 = clock.now();
  const today = wall(T0).date;

  const stats = async (from: string, to: string, token: string) =>
    expectStatus<Answer>(await call(t.app, { url: `/api/stats/ghadis?from=${from}&to=${to}`, token }), 200)
      .data;
  const entryOf = async (ghadi: GhadiRecord, from: string, to: string, token: string) => {
    const entry = (await stats(from, to, token)).find((row) => row.GID === ghadi.GID);
    if (!entry) throw new Error(`${ghadi.NameEn} is not listed`);
    return entry;
  };
  /** A ghadi that existed ten days before T0, as though made then. */
  const madeEarlier = async (admin: string, RTime: string, OrderId: number) => {
    const ghadi = await createGhadi(t.app, admin, { RTime, OrderId });
    await t.database.db
      .updateTable('ghadis')
      .set({ created_at: new Date(T0 - 10 * DAY).toISOString() })
      .where('gid', '=', ghadi.GID)
      .execute();
    return ghadi;
  };

  it('is for admins only, over at most 366 days, from on or before to', async () => {
    const admin = await loginAdmin(t.app);
    const url = `/api/stats/ghadis?from=${today}&to=${today}`;
    expect((await call(t.app, { url })).statusCode).toBe(401);
    const agent = await createAgentWithToken(t.app, admin);
    const refused = await call(t.app, { url, token: agent.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<Failure>().success).toBe(false);

    expect(await stats('2024-01-01', '2024-12-31', admin)).toEqual(expect.any(Array));
    for (const [query, field] of [
      ['from=2024-01-01&to=2025-01-01', 'to'],
      ['from=2026-03-02&to=2026-03-01', 'to'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['to=2026-03-01', 'from'],
      ['from=2026-03-01', 'to'],
    ] as const) {
      const answer = await call(t.app, { url: `/api/stats/ghadis?${query}`, token: admin });
      expect([query, answer.statusCode]).toEqual([query, 400]);
      expect(answer.json<Failure>().message).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('counts owed days, declared days and days on time by the first declaration, by OrderId', async () => {
    const admin = await loginAdmin(t.app);
    // Due 5 minutes before T0 (its date is the day that instant falls on).
    const punctualDue = wall(T0 - 5 * MINUTE);
    const punctual = await madeEarlier(admin, punctualDue.time, 952);
    const vague = await madeEarlier(admin, 'Evening', 951);
    const gone = await madeEarlier(admin, '10:00', 950);
    const day = punctualDue.date;

    const onTime = await submitResult(t.app, admin, { ghadiId: punctual.GID, result: '11', dateTime: day });
    // A correction later is no later declaration.
    await submitResult(t.app, admin, { ghadiId: punctual.GID, result: '12', dateTime: day });
    const late = await submitResult(t.app, admin, {
      ghadiId: punctual.GID,
      result: '21',
      dateTime: addDays(day, -1),
    });
    await submitResult(t.app, admin, { ghadiId: vague.GID, result: '07', dateTime: addDays(day, -1) });
    await submitResult(t.app, admin, { ghadiId: gone.GID, result: '01', dateTime: addDays(day, -1) });
    expectStatus(await call(t.app, { method: 'DELETE', url: `/api/ghadis/${gone.GID}`, token: admin }), 200);

    const from = addDays(day, -3);
    const answer = await stats(from, day, admin);
    const mine = answer.filter((row) => [punctual.GID, vague.GID, gone.GID].includes(row.GID));
    // Deleted ghadis are left out; the rest come by OrderId.
    expect(mine.map((row) => row.GID)).toEqual([vague.GID, punctual.GID]);

    const onTimeDelay = Math.max(0, Date.parse(onTime.DeclaredAt ?? '') - dueAt(punctualDue.time, day));
    const lateDelay = Date.parse(late.DeclaredAt ?? '') - dueAt(punctualDue.time, addDays(day, -1));
    // Four days owed (two declared, two missed): one on time.
    expect(mine[1]).toEqual({
      GID: punctual.GID,
      NameEn: punctual.NameEn,
      days: 4,
      declared: 2,
      onTime: 1,
      onTimeRate: 0.25,
      medianDelayMinutes: minutes((onTimeDelay + lateDelay) / 2),
      imported: 0,
    });
    expect(onTimeDelay).toBeLessThan(15 * MINUTE);
    expect(lateDelay).toBeGreaterThan(DAY);

    // Without a readable RTime: days past (and declared ones) count, with no rate or delay.
    expect(mine[0]).toEqual({
      GID: vague.GID,
      NameEn: vague.NameEn,
      days: day < today ? 4 : 3,
      declared: 1,
      onTime: 0,
      onTimeRate: null,
      medianDelayMinutes: null,
      imported: 0,
    });

    // A missed day alone; and days before the ghadi existed owe nothing.
    expect(await entryOf(punctual, addDays(day, -2), addDays(day, -2), admin)).toMatchObject({
      days: 1,
      declared: 0,
      onTime: 0,
      onTimeRate: 0,
      medianDelayMinutes: null,
    });
    expect(await entryOf(punctual, addDays(day, -30), addDays(day, -12), admin)).toMatchObject({
      days: 0,
      declared: 0,
      onTimeRate: null,
      medianDelayMinutes: null,
    });
  });

  it('leaves out holidays and off-days, and counts a market day when it is complete', async () => {
    const admin = await loginAdmin(t.app);
    // Due (closes) 5 minutes before T0, open two hours before that: a day owed when it closed.
    const due = wall(T0 - 5 * MINUTE);
    const day = due.date;
    const open = wall(T0 - 125 * MINUTE);
    const [openTime, closeTime] = open.date === day ? [open.time, due.time] : ['00:00', '00:01'];
    const market = await madeEarlier(admin, closeTime, 955);
    const { NameEn, NameHn, OrderId } = market;
    // Not running on the day before `day`, and a holiday of every ghadi two days before.
    const offDay = new Date(`${addDays(day, -1)}T00:00:00Z`).getUTCDay();
    expectStatus(
      await call(t.app, {
        method: 'PUT',
        url: `/api/ghadis/${market.GID}`,
        token: admin,
        body: {
          NameEn,
          NameHn,
          OrderId,
          RTime: closeTime,
          Kind: 'open-close',
          OpenTime: openTime,
          Days: [0, 1, 2, 3, 4, 5, 6].filter((weekday) => weekday !== offDay),
        },
      }),
      200,
    );
    const holiday = expectStatus<{ data: { _id: string } }>(
      await call(t.app, {
        method: 'POST',
        url: '/api/holidays',
        token: admin,
        body: { Date: addDays(day, -2) },
      }),
      201,
    ).data;
    try {
      // An admin's result on the off-day counts for nothing.
      await submitResult(t.app, admin, { ghadiId: market.GID, result: '128', dateTime: addDays(day, -1) });
      // Three days before: only the open half, never completed: owed and missing.
      await submitResult(t.app, admin, { ghadiId: market.GID, result: '137', dateTime: addDays(day, -3) });
      await submitResult(t.app, admin, { ghadiId: market.GID, result: '123', dateTime: day });
      const closed = await submitResult(t.app, admin, { ghadiId: market.GID, result: '459', dateTime: day });
      const delay = Math.max(0, Date.parse(closed.DeclaredAt ?? '') - dueAt(closeTime, day));
      // Owed: day (declared when complete) and day − 3 (open half only); day − 1 off, day − 2 a holiday.
      expect(await entryOf(market, addDays(day, -3), day, admin)).toEqual({
        GID: market.GID,
        NameEn,
        days: 2,
        declared: 1,
        onTime: delay < 15 * MINUTE ? 1 : 0,
        onTimeRate: delay < 15 * MINUTE ? 0.5 : 0,
        medianDelayMinutes: minutes(delay),
        imported: 0,
      });
    } finally {
      expectStatus(
        await call(t.app, { method: 'DELETE', url: `/api/holidays/${holiday._id}`, token: admin }),
        200,
      );
    }
  });

  it('declared an hour after dueAt is late, by the minutes it took', async () => {
    const admin = await loginAdmin(t.app);
    const due = wall(T0 - 60 * MINUTE);
    const ghadi = await madeEarlier(admin, due.time, 953);
    const declared = await submitResult(t.app, admin, {
      ghadiId: ghadi.GID,
      result: '33',
      dateTime: due.date,
    });
    const delay = Date.parse(declared.DeclaredAt ?? '') - dueAt(due.time, due.date);
    expect(await entryOf(ghadi, due.date, due.date, admin)).toMatchObject({
      days: 1,
      declared: 1,
      onTime: 0,
      onTimeRate: 0,
      medianDelayMinutes: minutes(delay),
    });
    expect(delay).toBeGreaterThanOrEqual(60 * MINUTE);
  });

  it('owes a day once its deadline has passed, and nothing before the ghadi was made', async () => {
    const admin = await loginAdmin(t.app);
    // Made today (not earlier), due at 23:59: today's deadline is tomorrow at 00:14.
    const ghadi = await createGhadi(t.app, admin, { RTime: '23:59', OrderId: 954 });
    const range = [addDays(today, -5), addDays(today, 1)] as const;
    expect(await entryOf(ghadi, ...range, admin)).toMatchObject({ days: 0, onTimeRate: null });

    clock.advance(Date.parse(`${addDays(today, 1)}T00:13:59+05:30`) - clock.now());
    expect(await entryOf(ghadi, ...range, admin)).toMatchObject({ days: 0, onTimeRate: null });
    clock.advance(1000);
    expect(await entryOf(ghadi, ...range, admin)).toMatchObject({
      days: 1,
      declared: 0,
      onTime: 0,
      onTimeRate: 0,
      medianDelayMinutes: null,
    });
  });

  it('counts a declaration before dueAt on time, with no delay', async () => {
    const admin = await loginAdmin(t.app);
    const due = wall(T0 + 90 * MINUTE);
    const ghadi = await madeEarlier(admin, due.time, 955);
    await submitResult(t.app, admin, { ghadiId: ghadi.GID, result: '44', dateTime: due.date });
    // Two days on, every date of the range is over.
    clock.advance(T0 + 2 * DAY - clock.now());
    expect(await entryOf(ghadi, due.date, due.date, admin)).toEqual({
      GID: ghadi.GID,
      NameEn: ghadi.NameEn,
      days: 1,
      declared: 1,
      onTime: 1,
      onTimeRate: 1,
      medianDelayMinutes: 0,
      imported: 0,
    });
  });

  it('skips the days a ghadi does not run: its holidays and the weekdays off its Days', async () => {
    const admin = await loginAdmin(t.app);
    // Due an hour before the board's clock, every day of the range is over.
    const due = wall(clock.now() - 60 * MINUTE);
    const day = due.date;
    const ghadi = await createGhadi(t.app, admin, {
      RTime: due.time,
      OrderId: 957,
      Days: ALL_DAYS.filter((weekday) => weekday !== weekdayOf(addDays(day, -1))),
    });
    await t.database.db
      .updateTable('ghadis')
      .set({ created_at: new Date(clock.now() - 10 * DAY).toISOString() })
      .where('gid', '=', ghadi.GID)
      .execute();
    const range = [addDays(day, -3), day] as const;
    // Three days missed; the day off its Days owes nothing.
    expect(await entryOf(ghadi, ...range, admin)).toMatchObject({ days: 3, declared: 0 });
    expectStatus(
      await call(t.app, {
        method: 'POST',
        url: '/api/holidays',
        token: admin,
        body: { Date: addDays(day, -2), GID: ghadi.GID },
      }),
      201,
    );
    // An admin's value on the holiday counts neither way.
    await submitResult(t.app, admin, { ghadiId: ghadi.GID, result: '45', dateTime: addDays(day, -2) });
    expect(await entryOf(ghadi, ...range, admin)).toMatchObject({
      days: 2,
      declared: 0,
      onTime: 0,
      onTimeRate: 0,
    });
  });
  it('leaves out the days a CSV import gave their first value: neither on time nor late', async () => {
    const admin = await loginAdmin(t.app);
    const importLines = (lines: Array<[string, number, string]>) => importResults(t.app, admin, lines);
    const due = wall(T0 - 5 * MINUTE);
    const day = due.date;
    const ghadi = await madeEarlier(admin, due.time, 958);
    const history = await madeEarlier(admin, due.time, 959);
    // Imported values are stamped with the import's time, days after their dates.
    await importLines([
      [addDays(day, -3), ghadi.GID, '31'],
      [addDays(day, -2), ghadi.GID, '32'],
      ...[-3, -2, -1, 0].map((offset): [string, number, string] => [addDays(day, offset), history.GID, '60']),
    ]);
    const late = await submitResult(t.app, admin, {
      ghadiId: ghadi.GID,
      result: '41',
      dateTime: addDays(day, -1),
    });
    const onTime = await submitResult(t.app, admin, { ghadiId: ghadi.GID, result: '51', dateTime: day });
    // An import correcting declared values leaves their first declarations' times.
    await importLines([
      [addDays(day, -1), ghadi.GID, '42'],
      [day, ghadi.GID, '52'],
    ]);

    const lateDelay = Date.parse(late.DeclaredAt ?? '') - dueAt(due.time, addDays(day, -1));
    const onTimeDelay = Math.max(0, Date.parse(onTime.DeclaredAt ?? '') - dueAt(due.time, day));
    expect(await entryOf(ghadi, addDays(day, -3), day, admin)).toEqual({
      GID: ghadi.GID,
      NameEn: ghadi.NameEn,
      days: 2,
      declared: 2,
      onTime: 1,
      onTimeRate: 0.5,
      medianDelayMinutes: minutes((lateDelay + onTimeDelay) / 2),
      imported: 2,
    });
    // A history loaded by import alone has nothing to rate: not 0 % on time with a delay of days.
    expect(await entryOf(history, addDays(day, -3), day, admin)).toEqual({
      GID: history.GID,
      NameEn: history.NameEn,
      days: 0,
      declared: 0,
      onTime: 0,
      onTimeRate: null,
      medianDelayMinutes: null,
      imported: 4,
    });
  });
});
