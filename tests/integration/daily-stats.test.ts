import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import * as lastSeenAndDailyStats from '../../src/server/db/migrations/2026-11-26-0501-last-seen-and-daily-stats.js';
import { DailyStats } from '../../src/server/modules/stats/daily-stats.js';
import { DailyStatsRepository } from '../../src/server/modules/stats/daily-stats-repository.js';
import { VisitorCounter } from '../../src/server/modules/visitors/visitor-counter.js';
import { VisitorsRepository } from '../../src/server/modules/visitors/visitors-repository.js';
import { addDays } from '../../src/shared/dates.js';
import type { ResultsImportAnswer } from '../../src/shared/schemas/results.js';
import type { DailyStatsEntry } from '../../src/shared/schemas/site-stats.js';
import {
  call,
  createAgentWithToken,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import {
  createTestApp,
  DIALECTS,
  openTestDatabase,
  SITE_TIMEZONE,
  type TestApp,
  tempDir,
} from '../support/test-app.js';

type Answer = { success: true; data: DailyStatsEntry[] };

const daily = (app: FastifyInstance, token: string | undefined, query: string) =>
  call(app, { url: `/api/stats/daily?${query}`, ...(token === undefined ? {} : { token }) });

/** Waits (briefly, on the real clock) for what the visitor counters write every 50 ms in tests. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const track = (app: FastifyInstance, sessionId: string) =>
  call(app, { method: 'POST', url: '/api/visitor/track', headers: { 'x-session-id': sessionId } });

describe.each(DIALECTS)('daily stats [%s]', (dialect) => {
  const dir = tempDir();
  let pair: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let admin: string;

  beforeAll(async () => {
    // Two apps on one database, each with its own connection, as two processes would be.
    pair = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'stats.db') });
    a = pair.app;
    b = await pair.startAnother({ ownConnection: true });
    admin = await loginAdmin(a);
  });
  afterAll(async () => {
    await pair?.close();
  });

  const dayOf = async (date: string, app = a): Promise<DailyStatsEntry> => {
    const [entry] = expectStatus<Answer>(await daily(app, admin, `from=${date}&to=${date}`), 200).data;
    if (!entry) throw new Error(`no entry for ${date}`);
    return entry;
  };
  /** Today's counts less those of `before`. */
  const since = async (before: DailyStatsEntry) => {
    const now = await dayOf(today());
    return {
      visitors: now.visitors - before.visitors,
      declarations: now.declarations - before.declarations,
      corrections: now.corrections - before.corrections,
    };
  };

  it('is for admins only', async () => {
    const query = `from=${today()}&to=${today()}`;
    expect((await daily(a, undefined, query)).statusCode).toBe(401);
    const agent = await createAgentWithToken(a, admin);
    const refused = await daily(a, agent.token, query);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<Failure>().success).toBe(false);
  });

  it('answers every day of the range in order, zeros for days with nothing', async () => {
    expect(expectStatus<Answer>(await daily(a, admin, 'from=2004-02-27&to=2004-03-02'), 200)).toEqual({
      success: true,
      data: ['2004-02-27', '2004-02-28', '2004-02-29', '2004-03-01', '2004-03-02'].map((date) => ({
        date,
        visitors: 0,
        declarations: 0,
        corrections: 0,
      })),
    });
  });

  it('takes at most 366 days, from on or before to, as real dates', async () => {
    const year = expectStatus<Answer>(await daily(a, admin, 'from=2024-01-01&to=2024-12-31'), 200).data;
    expect(year).toHaveLength(366);
    expect([year[0]?.date, year.at(-1)?.date]).toEqual(['2024-01-01', '2024-12-31']);
    for (const [query, field] of [
      ['from=2024-01-01&to=2025-01-01', 'to'],
      ['from=2026-03-02&to=2026-03-01', 'to'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=2026-03-01', 'to'],
      ['to=2026-03-01', 'from'],
      ['from=2026-3-1&to=2026-03-01', 'from'],
    ] as const) {
      const refused = await daily(a, admin, query);
      expect([query, refused.statusCode]).toEqual([query, 400]);
      expect(refused.json<Failure>().message).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('counts first declarations and corrections on the day they are made, once each', async () => {
    const before = await dayOf(today());
    const pastDay = daysFromToday(-3);
    const pastBefore = await dayOf(pastDay);
    const ghadi = await createGhadi(a, admin);
    const other = await createGhadi(a, admin);
    await submitResult(a, admin, { ghadiId: ghadi.GID, result: '10', dateTime: today() });
    await submitResult(a, admin, { ghadiId: ghadi.GID, result: '10', dateTime: today() });
    await submitResult(b, admin, { ghadiId: ghadi.GID, result: '11', dateTime: today() });
    // Declared today for a past date: it counts today.
    await submitResult(a, admin, { ghadiId: other.GID, result: '20', dateTime: pastDay });
    await submitResult(a, admin, { ghadiId: other.GID, result: '21', dateTime: pastDay });
    expect(await since(before)).toEqual({ visitors: 0, declarations: 2, corrections: 2 });
    expect(await dayOf(pastDay)).toEqual(pastBefore);
  });

  it('adds what a CSV import created and corrected, and nothing for a dry run or unchanged lines', async () => {
    const [first, second, stored] = [
      await createGhadi(a, admin),
      await createGhadi(a, admin),
      await createGhadi(a, admin),
    ];
    await submitResult(a, admin, { ghadiId: stored.GID, result: '50', dateTime: daysFromToday(-1) });
    await submitResult(a, admin, { ghadiId: stored.GID, result: '60', dateTime: daysFromToday(-2) });
    const before = await dayOf(today());
    const file = [
      'Date,GID,Result',
      `${today()},${first.GID},01`,
      `${daysFromToday(-1)},${second.GID},02`,
      `${daysFromToday(-1)},${stored.GID},55`,
      `${daysFromToday(-2)},${stored.GID},60`,
    ].join('\n');
    const importFile = (dryRun: boolean) =>
      call(a, {
        method: 'POST',
        url: `/api/results/import?dryRun=${dryRun}`,
        token: admin,
        body: file,
        headers: { 'content-type': 'text/csv' },
      });
    expectStatus(await importFile(true), 200);
    expect(await since(before)).toEqual({ visitors: 0, declarations: 0, corrections: 0 });
    expect(expectStatus<ResultsImportAnswer>(await importFile(false), 200)).toMatchObject({
      created: 2,
      corrected: 1,
      unchanged: 1,
    });
    expect(await since(before)).toEqual({ visitors: 0, declarations: 2, corrections: 1 });
    expectStatus(await importFile(false), 200);
    expect(await since(before)).toEqual({ visitors: 0, declarations: 2, corrections: 1 });
  });

  it('counts each new visitor session once, in the batch that stores it', async () => {
    const stats = new DailyStats(new DailyStatsRepository(pair.database), SITE_TIMEZONE);
    // A counter of its own, written when told to (the app's write every 50 ms).
    const counter = new VisitorCounter(
      new VisitorsRepository(pair.database, stats),
      60 * 60 * 1000,
      pino({ enabled: false }),
    );
    await counter.start();
    try {
      const before = await dayOf(today());
      const [one, two, three] = [unique('s'), unique('s'), unique('s')];
      counter.track(one, '10.0.0.1');
      counter.track(two, '10.0.0.1');
      counter.track(one, '10.0.0.1');
      await counter.flush();
      expect(await since(before)).toEqual({ visitors: 2, declarations: 0, corrections: 0 });
      counter.track(one, '10.0.0.1');
      counter.track(three, '10.0.0.1');
      await counter.flush();
      expect(await since(before)).toEqual({ visitors: 3, declarations: 0, corrections: 0 });
      counter.track(two, '10.0.0.1');
      await counter.flush();
      expect(await since(before)).toEqual({ visitors: 3, declarations: 0, corrections: 0 });
    } finally {
      await counter.stop();
    }
  });

  it('adds up what two apps on one database count at the same moment', async () => {
    const before = await dayOf(today());
    const ghadis = await Promise.all(Array.from({ length: 8 }, () => createGhadi(a, admin)));
    const adminOnB = await loginAdmin(b);
    const declareAll = (value: string) =>
      Promise.all(
        ghadis.map((ghadi, index) =>
          submitResult(index % 2 ? b : a, index % 2 ? adminOnB : admin, {
            ghadiId: ghadi.GID,
            result: value,
            dateTime: today(),
          }),
        ),
      );
    await declareAll('1');
    await declareAll('2');
    const sessions = Array.from({ length: 10 }, () => unique('pair'));
    await Promise.all(sessions.map((session, index) => track(index % 2 ? b : a, session)));
    await eventually(async () => (await since(before)).visitors >= 10, 'the visits written');
    expect(await since(before)).toEqual({ visitors: 10, declarations: 8, corrections: 8 });
    // Both apps read the same totals.
    expect(await dayOf(today(), b)).toEqual(await dayOf(today(), a));
  });
});

describe.each(DIALECTS)('the daily totals of a site that had results before them [%s]', (dialect) => {
  const dir = tempDir();

  it('are filled by the migration: declarations by creation, corrections by history, per day of the zone', async () => {
    const { database, dropDatabase } = await openTestDatabase(dialect, path.join(dir(), 'before.db'));
    try {
      await migrateToLatest(database);
      const { db } = database;
      const now = new Date().toISOString();
      const { gid } = await db
        .insertInto('ghadis')
        .values({
          name_en: 'Old',
          name_folded: 'old',
          name_hn: 'पुराना',
          r_time: '1:00 PM',
          order_id: 1,
          created_at: now,
          updated_at: now,
        })
        .returning('gid')
        .executeTakeFirstOrThrow();
      // Kolkata is UTC+5:30: 18:30 UTC is its midnight.
      const created = ['2025-03-10T18:29:59.999Z', '2025-03-10T18:30:00.000Z', '2025-03-11T10:00:00.000Z'];
      const ids: number[] = [];
      for (const [index, createdAt] of created.entries()) {
        const row = await db
          .insertInto('results')
          .values({
            gid,
            result_date: addDays('2025-03-01', index),
            value: String(index),
            created_by: null,
            created_at: createdAt,
            updated_at: createdAt,
            declared_at: createdAt,
            previous_value: null,
          })
          .returning('result_id')
          .executeTakeFirstOrThrow();
        ids.push(row.result_id);
      }
      const history = [
        { old_value: '0', new_value: '5', changed_at: '2025-03-11T18:29:00.000Z' },
        // A value sent again, as the first versions recorded it: no correction.
        { old_value: '5', new_value: '5', changed_at: '2025-03-11T18:40:00.000Z' },
      ];
      for (const entry of history)
        await db
          .insertInto('result_history')
          .values({ result_id: ids[0] ?? 0, changed_by: null, ...entry })
          .execute();

      const totals = () => db.selectFrom('daily_stats').selectAll().orderBy('date').execute();
      await lastSeenAndDailyStats.down(db);
      await lastSeenAndDailyStats.up(db, { timeZone: 'Asia/Kolkata' });
      expect(await totals()).toEqual([
        { date: '2025-03-10', visitors: 0, declarations: 1, corrections: 0 },
        { date: '2025-03-11', visitors: 0, declarations: 2, corrections: 1 },
      ]);
      await lastSeenAndDailyStats.down(db);
      await lastSeenAndDailyStats.up(db, { timeZone: 'UTC' });
      expect(await totals()).toEqual([
        { date: '2025-03-10', visitors: 0, declarations: 2, corrections: 0 },
        { date: '2025-03-11', visitors: 0, declarations: 1, corrections: 1 },
      ]);
    } finally {
      await database.close();
      await dropDatabase();
    }
  });
});
