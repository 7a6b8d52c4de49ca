import type { KyselyPlugin } from 'kysely';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { LastSeen } from '../../src/server/modules/users/last-seen.js';
import { LastSeenRepository } from '../../src/server/modules/users/last-seen-repository.js';
import { addDays } from '../../src/shared/dates.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { TodayBoard, TodayGhadi } from '../../src/shared/schemas/today.js';
import {
  assignGhadis,
  call,
  createAgentWithToken,
  createGhadi,
  expectStatus,
  type Failure,
  loginAdmin,
  submitResult,
  today,
} from '../support/factories.js';
import { DIALECTS, SITE_TIMEZONE, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

/** Waits (on the real clock, briefly) for a background write the request did not wait for. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(DIALECTS)("today's board [%s]", (dialect) => {
  // The board's day is the real one (agents declare for the real today), its clock noon of that day
  // in the site's zone, so that the ghadis' times fall before and after it whatever the hour.
  const date = today();
  const at = (time: string) => Date.parse(`${date}T${time}+05:30`);
  const iso = (instant: number) => new Date(instant).toISOString();
  const clock = new TestClock(at('12:00:00'));
  const t = useTestApp(dialect, { now: clock.now });
  const moveTo = (instant: number) => clock.advance(instant - clock.now());

  let admin: string;
  const ghadis = {} as Record<
    'vague' | 'due' | 'evening' | 'late' | 'declared' | 'soon' | 'corrected' | 'gone',
    GhadiRecord
  >;

  const board = async (token = admin) =>
    expectStatus<{ success: true; data: TodayBoard }>(await call(t.app, { url: '/api/today', token }), 200)
      .data;
  const rowOf = async (ghadi: GhadiRecord): Promise<TodayGhadi> => {
    const row = (await board()).ghadis.find((g) => g.GID === ghadi.GID);
    if (!row) throw new Error(`${ghadi.NameEn} is not on the board`);
    return row;
  };
  const statesOf = async (...names: Array<keyof typeof ghadis>) => {
    const rows = (await board()).ghadis;
    return Object.fromEntries(
      names.map((name) => [name, rows.find((g) => g.GID === ghadis[name].GID)?.state]),
    );
  };

  beforeAll(async () => {
    admin = await loginAdmin(t.app);
    const made: Array<[keyof typeof ghadis, string, number]> = [
      ['late', '10:00 AM', 903],
      ['due', '11:50 AM', 901],
      ['soon', '12:30 PM', 905],
      ['evening', '23:00', 902],
      ['declared', '9:00 AM', 904],
      ['corrected', '08:00', 906],
      ['vague', 'Evening', 900],
      ['gone', '1:00 PM', 907],
    ];
    for (const [name, RTime, OrderId] of made)
      ghadis[name] = await createGhadi(t.app, admin, { RTime, OrderId });
    expectStatus(
      await call(t.app, { method: 'DELETE', url: `/api/ghadis/${ghadis.gone.GID}`, token: admin }),
      200,
    );
  });

  it('is for admins only', async () => {
    expect((await call(t.app, { url: '/api/today' })).statusCode).toBe(401);
    const agent = await createAgentWithToken(t.app, admin);
    const refused = await call(t.app, { url: '/api/today', token: agent.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<Failure>().success).toBe(false);
  });

  it("answers today in the site's zone, ghadis by OrderId, without deleted ones", async () => {
    const answer = await board();
    expect(answer).toMatchObject({ date, timeZone: SITE_TIMEZONE, overdueAfterMinutes: 15 });
    const mine = new Set(Object.values(ghadis).map((g) => g.GID));
    const order = ['vague', 'due', 'evening', 'late', 'declared', 'soon', 'corrected'] as const;
    expect(answer.ghadis.map((g) => g.GID).filter((gid) => mine.has(gid))).toEqual(
      order.map((name) => ghadis[name].GID),
    );
    // The starter ghadis (OrderId 1 to 7) come first.
    expect(answer.ghadis.slice(-order.length).map((g) => g.GID)).toEqual(
      order.map((name) => ghadis[name].GID),
    );
    expect(answer.ghadis.some((g) => g.GID === ghadis.gone.GID)).toBe(false);
    expect(await rowOf(ghadis.late)).toEqual({
      GID: ghadis.late.GID,
      NameEn: ghadis.late.NameEn,
      NameHn: ghadis.late.NameHn,
      RTime: '10:00 AM',
      dueAt: iso(at('10:00:00')),
      state: 'overdue',
      Kind: 'jodi',
      OpenTime: null,
      openDueAt: null,
      step: null,
      closed: null,
      closedNote: null,
      Result: null,
      DeclaredAt: null,
      DeclaredBy: null,
      agents: [],
    });
  });

  it('reads RTime as h:mm AM/PM or HH:mm; an unreadable one has no dueAt and waits', async () => {
    expect((await rowOf(ghadis.evening)).dueAt).toBe(iso(at('23:00:00')));
    expect((await rowOf(ghadis.corrected)).dueAt).toBe(iso(at('08:00:00')));
    expect((await rowOf(ghadis.soon)).dueAt).toBe(iso(at('12:30:00')));
    expect(await rowOf(ghadis.vague)).toMatchObject({ dueAt: null, state: 'waiting' });
  });

  it('waits before dueAt, is due from it, and overdue 15 minutes later', async () => {
    expect(await statesOf('late', 'due', 'soon', 'evening', 'vague')).toEqual({
      late: 'overdue',
      due: 'due',
      soon: 'waiting',
      evening: 'waiting',
      vague: 'waiting',
    });
    moveTo(at('12:04:59.999'));
    expect(await statesOf('due')).toEqual({ due: 'due' });
    moveTo(at('12:05:00'));
    expect(await statesOf('due')).toEqual({ due: 'overdue' });
    moveTo(at('12:29:59.999'));
    expect(await statesOf('soon')).toEqual({ soon: 'waiting' });
    moveTo(at('12:30:00'));
    expect(await statesOf('soon')).toEqual({ soon: 'due' });
    moveTo(at('12:44:59.999'));
    expect(await statesOf('soon')).toEqual({ soon: 'due' });
    moveTo(at('12:45:00'));
    expect(await statesOf('soon', 'evening', 'vague')).toEqual({
      soon: 'overdue',
      evening: 'waiting',
      vague: 'waiting',
    });
  });

  it('is declared once the result exists, corrected once it replaced another; with the value, when and who', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    await assignGhadis(t.app, admin, agent.user.User_Id, ghadis.declared.GID);
    const declared = await submitResult(t.app, agent.token, {
      ghadiId: ghadis.declared.GID,
      result: '45',
      dateTime: date,
    });
    expect(await rowOf(ghadis.declared)).toMatchObject({
      state: 'declared',
      Result: '45',
      DeclaredAt: declared.DeclaredAt,
      DeclaredBy: agent.user.DisplayName,
    });
    // The same value again is no correction.
    await submitResult(t.app, agent.token, { ghadiId: ghadis.declared.GID, result: '45', dateTime: date });
    expect((await rowOf(ghadis.declared)).state).toBe('declared');

    await submitResult(t.app, admin, { ghadiId: ghadis.corrected.GID, result: '12', dateTime: date });
    expect((await rowOf(ghadis.corrected)).state).toBe('declared');
    const corrected = await submitResult(t.app, admin, {
      ghadiId: ghadis.corrected.GID,
      result: '21',
      dateTime: date,
    });
    expect(await rowOf(ghadis.corrected)).toMatchObject({
      state: 'corrected',
      Result: '21',
      DeclaredAt: corrected.DeclaredAt,
      DeclaredBy: 'Administrator',
    });

    // Without a dueAt, and overdue: declared all the same.
    await submitResult(t.app, admin, { ghadiId: ghadis.vague.GID, result: '07', dateTime: date });
    await submitResult(t.app, admin, { ghadiId: ghadis.soon.GID, result: '99', dateTime: date });
    expect(await statesOf('vague', 'soon')).toEqual({ vague: 'declared', soon: 'declared' });

    // Yesterday's result is not today's.
    await submitResult(t.app, admin, { ghadiId: ghadis.late.GID, result: '33', dateTime: addDays(date, -1) });
    expect(await rowOf(ghadis.late)).toMatchObject({ state: 'overdue', Result: null, DeclaredBy: null });
  });

  it("lists each ghadi's active agents with when their last request was, kept to the minute", async () => {
    const seen = await createAgentWithToken(t.app, admin);
    const unseen = await createAgentWithToken(t.app, admin);
    const inactive = await createAgentWithToken(t.app, admin);
    for (const agent of [seen, unseen, inactive])
      await assignGhadis(t.app, admin, agent.user.User_Id, ghadis.due.GID);
    const { UserName, DisplayName, Email } = inactive.user;
    expectStatus(
      await call(t.app, {
        method: 'PUT',
        url: `/api/users/${inactive.user._id}`,
        token: admin,
        body: { UserName, DisplayName, Email, isActive: false },
      }),
      200,
    );
    const agentsOf = async () => (await rowOf(ghadis.due)).agents;
    const lastSeenOf = async (agent: typeof seen) =>
      (await agentsOf()).find((a) => a.User_Id === agent.user.User_Id)?.lastSeenAt;

    // Signing in is no authenticated request: neither has been seen.
    expect(await agentsOf()).toEqual(
      [seen, unseen]
        .map(({ user }) => ({
          User_Id: user.User_Id,
          UserName: user.UserName,
          DisplayName: user.DisplayName,
          lastSeenAt: null,
        }))
        .sort((a, b) => a.UserName.localeCompare(b.UserName)),
    );

    const first = clock.now();
    const myGhadis = () => call(t.app, { url: '/api/agent/my-ghadi', token: seen.token });
    expectStatus(await myGhadis(), 200);
    await eventually(async () => (await lastSeenOf(seen)) === iso(first), 'the first request’s time');

    // 30 s later the request is not written. A request of another user, sent after it, is: once that
    // one shows, this one would have too (on SQLite's one connection, for certain).
    clock.advance(30_000);
    expectStatus(await myGhadis(), 200);
    expectStatus(await call(t.app, { url: '/api/agent/my-ghadi', token: unseen.token }), 200);
    await eventually(async () => (await lastSeenOf(unseen)) === iso(clock.now()), 'the other agent’s time');
    expect(await lastSeenOf(seen)).toBe(iso(first));

    clock.advance(31_000);
    expectStatus(await myGhadis(), 200);
    await eventually(async () => (await lastSeenOf(seen)) === iso(first + 61_000), 'the time a minute on');
  });

  it('writes last_seen_at once a minute per user: no query within it, and none over another process’s', async () => {
    const agent = await createAgentWithToken(t.app, admin);
    const userId = agent.user.User_Id;
    let updates = 0;
    const counting: KyselyPlugin = {
      transformQuery(args) {
        if (args.node.kind === 'UpdateQueryNode') updates += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const repository = new LastSeenRepository({ ...t.database, db: t.database.db.withPlugin(counting) });
    const processClock = new TestClock(clock.now());
    const log = pino({ enabled: false });
    const one = new LastSeen(repository, processClock.now, log);
    const other = new LastSeen(repository, processClock.now, log);
    const stored = async () =>
      (
        await t.database.db
          .selectFrom('users')
          .select('last_seen_at')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    const start = processClock.now();

    expect(await one.seen(userId)).toBe(true);
    expect([updates, await stored()]).toEqual([1, iso(start)]);
    expect(one.seen(userId)).toBeNull();
    processClock.advance(30_000);
    expect(one.seen(userId)).toBeNull();
    expect(updates).toBe(1);
    // Another process has no memory of it: it asks, and the database keeps the time written 30 s ago.
    expect(await other.seen(userId)).toBe(false);
    expect([updates, await stored()]).toEqual([2, iso(start)]);
    processClock.advance(31_000);
    expect(await one.seen(userId)).toBe(true);
    expect([updates, await stored()]).toEqual([3, iso(start + 61_000)]);
    expect(other.seen(userId)).toBeNull();
    expect(updates).toBe(3);
  });

  it('moves with the day: tomorrow every ghadi waits for its new result', async () => {
    moveTo(Date.parse(`${addDays(date, 1)}T00:30:00+05:30`));
    const answer = await board();
    expect(answer.date).toBe(addDays(date, 1));
    const row = answer.ghadis.find((g) => g.GID === ghadis.declared.GID);
    expect(row).toMatchObject({
      dueAt: new Date(Date.parse(`${addDays(date, 1)}T09:00:00+05:30`)).toISOString(),
      state: 'waiting',
      Result: null,
    });
  });
});
