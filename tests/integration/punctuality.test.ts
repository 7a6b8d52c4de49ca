import { describe, expect, it } from 'vitest';
import * as importedResults from '../../src/server/db/migrations/2026-11-29-0103-imported-results.js';
import { addDays, todayInZone } from '../../src/shared/dates.js';
import { ALL_DAYS, weekdayOf } from '../../src/shared/matka.js';
import { punctualityLine } from '../../src/shared/punctuality-line.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { PunctualityRecord } from '../../src/shared/schemas/punctuality.js';
import type { GhadiStatsEntry } from '../../src/shared/schemas/site-stats.js';
import {
  call,
  createGhadi,
  expectStatus,
  type Failure,
  type GhadiFields,
  importResults,
  loginAdmin,
  submitResult,
  unique,
} from '../support/factories.js';
import { dueAt, MINUTE, minutes, noonOf, wall } from '../support/site-wall-clock.js';
import {
  createTestApp,
  DIALECTS,
  noteUnbuilt,
  SITE_TIMEZONE,
  useTestApp,
  WEB_BUILT,
} from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

noteUnbuilt('punctuality.test.ts');

type Answer = { success: true; data: PunctualityRecord };

/*
 * Declarations are stamped by the real clock, so each ghadi's RTime is set around the real time the
 * suite starts (T0): due 5 minutes before it is declared on time, due on an earlier date late. The
 * public record's dates are the public site's (today and the 29 before it); the injected clock is the
 * console's "now", which the admin's figures compared here are judged at.
 */
describe.each(DIALECTS)('a ghadi’s punctuality in public [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, { now: clock.now, serveWebApp: WEB_BUILT });
  const T0 = clock.now();
  // Due 5 minutes before T0: D is its date (today, or yesterday in the first minutes of a day).
  const due = wall(T0 - 5 * MINUTE);
  const D = due.date;

  const addressOf = (ghadi: GhadiRecord) => encodeURIComponent(ghadi.NameEn.toLowerCase());
  const read = (ghadi: GhadiRecord | string) =>
    call(t.app, { url: `/api/punctuality/${typeof ghadi === 'string' ? ghadi : addressOf(ghadi)}` });
  const record = async (ghadi: GhadiRecord) => expectStatus<Answer>(await read(ghadi), 200).data;
  /** A ghadi made at noon of `createdOn` (its first day owed), as though made then. */
  const madeOn = async (admin: string, createdOn: string, fields: Partial<GhadiFields>) => {
    const ghadi = await createGhadi(t.app, admin, { NameEn: unique('Punctual '), ...fields });
    await t.database.db
      .updateTable('ghadis')
      .set({ created_at: new Date(noonOf(createdOn)).toISOString() })
      .where('gid', '=', ghadi.GID)
      .execute();
    return ghadi;
  };
  const declare = (admin: string, ghadi: GhadiRecord, dateTime: string, result: string) =>
    submitResult(t.app, admin, { ghadiId: ghadi.GID, result, dateTime });
  const delayOf = (declaredAt: string | null | undefined, rTime: string, date: string) =>
    Math.max(0, Date.parse(declaredAt ?? '') - dueAt(rTime, date));
  const importLines = (admin: string, lines: Array<[string, number, string]>) =>
    importResults(t.app, admin, lines);

  it('answers 404 for a name no live ghadi has, and one record for every spelling of a name', async () => {
    const admin = await loginAdmin(t.app);
    const missing = await read(unique('nobody'));
    expect(missing.statusCode).toBe(404);
    expect(missing.json<Failure>().success).toBe(false);

    const ghadi = await createGhadi(t.app, admin, { NameEn: unique('Spelled Two Ways ') });
    const today = todayInZone(SITE_TIMEZONE);
    const first = await read(ghadi);
    expect(first.json<Answer>()).toEqual({
      success: true,
      data: {
        from: addDays(today, -29),
        to: today,
        days: 0,
        declared: 0,
        onTime: 0,
        medianDelayMinutes: null,
        corrections: 0,
        imported: 0,
      },
    });
    const respelled = await read(ghadi.NameEn.toUpperCase().replaceAll(' ', '-'));
    expect(respelled.statusCode).toBe(200);
    expect(respelled.body).toBe(first.body);
    expect(respelled.headers.etag).toBe(first.headers.etag);

    expectStatus(await call(t.app, { method: 'DELETE', url: `/api/ghadis/${ghadi.GID}`, token: admin }), 200);
    expect((await read(ghadi)).statusCode).toBe(404);
  });

  it('counts days owed, declared and on time by the first declaration, its median delay and corrections', async () => {
    const admin = await loginAdmin(t.app);
    const ghadi = await madeOn(admin, addDays(D, -2), { RTime: due.time });
    // D − 2 is missed; D − 1 declared a day late; D on time, then corrected.
    const late = await declare(admin, ghadi, addDays(D, -1), '21');
    const onTime = await declare(admin, ghadi, D, '11');
    await declare(admin, ghadi, D, '12');
    const lateDelay = delayOf(late.DeclaredAt, due.time, addDays(D, -1));
    const onTimeDelay = delayOf(onTime.DeclaredAt, due.time, D);
    expect(onTimeDelay).toBeLessThan(15 * MINUTE);
    expect(lateDelay).toBeGreaterThan(24 * 60 * MINUTE);
    expect(await record(ghadi)).toMatchObject({
      days: 3,
      declared: 2,
      onTime: 1,
      medianDelayMinutes: minutes((lateDelay + onTimeDelay) / 2),
      corrections: 1,
      imported: 0,
    });
  });

  it('counts neither a day not over yet nor one before the ghadi existed; early is on time, 0 minutes', async () => {
    const admin = await loginAdmin(t.app);
    const today = todayInZone(SITE_TIMEZONE);
    // Made today, due at 23:59: today's deadline is tomorrow at 00:14, so today owes nothing yet.
    const ghadi = await madeOn(admin, today, { RTime: '23:59' });
    expect(await record(ghadi)).toMatchObject({ days: 0, declared: 0, onTime: 0, medianDelayMinutes: null });
    const declared = await declare(admin, ghadi, today, '44');
    expect(await record(ghadi)).toMatchObject({
      days: 1,
      declared: 1,
      onTime: 1,
      medianDelayMinutes: minutes(delayOf(declared.DeclaredAt, '23:59', today)),
    });
  });

  it('has no on-time count or delay for an RTime it cannot read, and still counts the days', async () => {
    const admin = await loginAdmin(t.app);
    const today = todayInZone(SITE_TIMEZONE);
    const ghadi = await madeOn(admin, addDays(today, -2), { RTime: 'Evening' });
    await declare(admin, ghadi, addDays(today, -1), '07');
    // today − 2 is over without a result; today is not over.
    expect(await record(ghadi)).toMatchObject({
      days: 2,
      declared: 1,
      onTime: null,
      medianDelayMinutes: null,
      corrections: 0,
    });
  });

  it('leaves out imported days (here and in the console), holidays and days off its Days', async () => {
    const admin = await loginAdmin(t.app);
    const ghadi = await madeOn(admin, addDays(D, -5), {
      RTime: due.time,
      Days: ALL_DAYS.filter((weekday) => weekday !== weekdayOf(addDays(D, -4))),
    });
    expectStatus(
      await call(t.app, {
        method: 'POST',
        url: '/api/holidays',
        token: admin,
        body: { Date: addDays(D, -3), GID: ghadi.GID },
      }),
      201,
    );
    // D − 5 missed; D − 4 off its Days and D − 3 its holiday, declared by an admin all the same.
    await declare(admin, ghadi, addDays(D, -4), '01');
    await declare(admin, ghadi, addDays(D, -3), '02');
    // D − 2 and D − 1 imported (stamped now, days after their dates); D declared on time.
    await importLines(admin, [
      [addDays(D, -2), ghadi.GID, '31'],
      [addDays(D, -1), ghadi.GID, '32'],
    ]);
    const onTime = await declare(admin, ghadi, D, '51');
    // An import correcting a declared value is a correction, and leaves the first declaration's time.
    await importLines(admin, [
      [D, ghadi.GID, '52'],
      [addDays(D, -1), ghadi.GID, '33'],
    ]);
    const delay = delayOf(onTime.DeclaredAt, due.time, D);
    expect(await record(ghadi)).toMatchObject({
      days: 2,
      declared: 1,
      onTime: 1,
      medianDelayMinutes: minutes(delay),
      corrections: 2,
      imported: 2,
    });
    // The console's figures follow the same rule.
    const stats = expectStatus<{ data: GhadiStatsEntry[] }>(
      await call(t.app, { url: `/api/stats/ghadis?from=${addDays(D, -5)}&to=${D}`, token: admin }),
      200,
    ).data.find((entry) => entry.GID === ghadi.GID);
    expect(stats).toMatchObject({ days: 2, declared: 1, onTime: 1, imported: 2, onTimeRate: 0.5 });
  });

  it('counts a market’s day when it is complete, against its close time; a close step is no correction', async () => {
    const admin = await loginAdmin(t.app);
    // Closes 5 minutes before T0, opens two hours before that (or at midnight early in the day).
    const open = wall(T0 - 125 * MINUTE);
    const [openTime, closeTime] = open.date === D ? [open.time, due.time] : ['00:00', '00:01'];
    const market = await madeOn(admin, addDays(D, -2), {
      RTime: closeTime,
      Kind: 'open-close',
      OpenTime: openTime,
    });
    // D − 2 completed a day late; D − 1 an open half alone (corrected), never completed; D complete now.
    await declare(admin, market, addDays(D, -2), '137');
    const late = await declare(admin, market, addDays(D, -2), '459');
    await declare(admin, market, addDays(D, -1), '137');
    await declare(admin, market, addDays(D, -1), '128-1');
    await declare(admin, market, D, '123');
    const closed = await declare(admin, market, D, '459');
    expect(closed.Result).toBe('123-68-459');
    const delays = [
      delayOf(late.DeclaredAt, closeTime, addDays(D, -2)),
      delayOf(closed.DeclaredAt, closeTime, D),
    ];
    expect(await record(market)).toMatchObject({
      days: 3,
      declared: 2,
      onTime: delays.filter((delay) => delay < 15 * MINUTE).length,
      medianDelayMinutes: minutes(delays.reduce((sum, delay) => sum + delay, 0) / 2),
      corrections: 1,
    });
  });

  it('is kept under the ghadi and dropped by its declarations, its RTime and its holidays', async () => {
    const admin = await loginAdmin(t.app);
    const ghadi = await madeOn(admin, addDays(D, -1), { RTime: due.time });
    const other = await madeOn(admin, addDays(D, -1), { RTime: due.time });
    const first = await read(ghadi);
    const otherFirst = await read(other);
    // What it shows: the ghadi, every result of it, and the site's day (dropped at its rollover).
    const keys = String(first.headers['surrogate-key']).split(' ');
    expect(keys).toEqual(expect.arrayContaining([`ghadi-${ghadi.GID}`, `results-${ghadi.GID}`, 'today']));
    expect(first.json<Answer>().data).toMatchObject({ days: 1, declared: 0 });

    // Changed behind the app's back (no change logged): the kept answer stays.
    await t.database.db
      .updateTable('ghadis')
      .set({ r_time: 'Evening' })
      .where('gid', '=', ghadi.GID)
      .execute();
    expect((await read(ghadi)).body).toBe(first.body);

    // A declaration for the ghadi drops it (and shows the RTime read meanwhile); another ghadi's stays.
    await declare(admin, ghadi, D, '11');
    expect((await record(ghadi)).onTime).toBeNull();
    expect((await read(other)).headers.etag).toBe(otherFirst.headers.etag);

    // Its RTime, changed through the API.
    const { NameEn, NameHn, OrderId } = ghadi;
    expectStatus(
      await call(t.app, {
        method: 'PUT',
        url: `/api/ghadis/${ghadi.GID}`,
        token: admin,
        body: { NameEn, NameHn, OrderId, RTime: due.time },
      }),
      200,
    );
    expect(await record(ghadi)).toMatchObject({ days: 2, declared: 1, onTime: 1 });

    // A holiday of the ghadi on its missed day.
    expectStatus(
      await call(t.app, {
        method: 'POST',
        url: '/api/holidays',
        token: admin,
        body: { Date: addDays(D, -1), GID: ghadi.GID },
      }),
      201,
    );
    expect(await record(ghadi)).toMatchObject({ days: 1, declared: 1, onTime: 1 });
    expect((await read(other)).headers.etag).toBe(otherFirst.headers.etag);
  });

  it.skipIf(!WEB_BUILT)('shows on the ghadi’s results page of this month, in English and Hindi', async () => {
    const admin = await loginAdmin(t.app);
    const ghadi = await madeOn(admin, addDays(D, -2), { RTime: due.time });
    const late = await declare(admin, ghadi, addDays(D, -1), '21');
    await declare(admin, ghadi, addDays(D, -1), '22');
    const onTime = await declare(admin, ghadi, D, '11');
    const figures = {
      days: 3,
      declared: 2,
      onTime: 1,
      medianDelayMinutes: minutes(
        (delayOf(late.DeclaredAt, due.time, addDays(D, -1)) + delayOf(onTime.DeclaredAt, due.time, D)) / 2,
      ),
      corrections: 1,
      imported: 0,
    };
    const page = (path: string) => call(t.app, { url: path });
    const english = await page(`/satta-results/${addressOf(ghadi)}`);
    expect(english.statusCode).toBe(200);
    const line = punctualityLine(figures, due.time, 'en', 30);
    expect(line).toMatch(/^Last 30 days: declared on 2 of 3 days, 1 on time; usually .+; 1 correction$/);
    expect(english.body).toContain(`>${line}<`);
    const hindi = await page(`/hi/satta-results/${addressOf(ghadi)}`);
    expect(hindi.body).toContain(`>${punctualityLine(figures, due.time, 'hi', 30)}<`);
    // A past month's page is a closed period's: it does not carry the last 30 days.
    const past = await page(`/satta-results/${addressOf(ghadi)}?month=1&year=2020`);
    expect(past.body).not.toContain('Last 30 days');
  });
});

describe.each(DIALECTS)('the migration that marks imported entries [%s]', (dialect) => {
  it('marks the entries an import wrote before it: those sharing their instant with another', async () => {
    const t = await createTestApp(dialect);
    try {
      const admin = await loginAdmin(t.app);
      const ghadi = await createGhadi(t.app, admin, { NameEn: unique('Migrated ') });
      const csv = (lines: string[]) =>
        call(t.app, {
          method: 'POST',
          url: '/api/results/import?dryRun=false',
          token: admin,
          body: `Date,GID,Result\n${lines.map((date) => `${date},${ghadi.GID},20`).join('\n')}\n`,
          headers: { 'content-type': 'text/csv; charset=utf-8' },
        });
      await submitResult(t.app, admin, { ghadiId: ghadi.GID, result: '10', dateTime: '2024-05-01' });
      expectStatus(await csv(['2024-05-02', '2024-05-03']), 200);
      expectStatus(await csv(['2024-05-04']), 200);
      const { db } = t.database;
      const flags = async () =>
        (
          await db
            .selectFrom('declarations')
            .select(['result_date', 'imported'])
            .where('gid', '=', ghadi.GID)
            .orderBy('seq')
            .execute()
        ).map((row) => [row.result_date, Number(row.imported)]);
      // Written since: every import's entries are marked as they are written.
      expect(await flags()).toEqual([
        ['2024-05-01', 0],
        ['2024-05-02', 1],
        ['2024-05-03', 1],
        ['2024-05-04', 1],
      ]);
      await importedResults.down(db);
      await importedResults.up(db);
      // Before it, a lone imported line looks like a declaration.
      expect(await flags()).toEqual([
        ['2024-05-01', 0],
        ['2024-05-02', 1],
        ['2024-05-03', 1],
        ['2024-05-04', 0],
      ]);
    } finally {
      await t.close();
    }
  });
});
