import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeChannel } from '../../src/server/db/database.js';
import type { LiveEvent } from '../../src/shared/live-events.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createContentBlock,
  createGhadi,
  type List,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { listen, openEvents, type ReceivedEvent } from '../support/http.js';
import { pollUntil } from '../support/poll-until.js';
import { createTestApp, DIALECTS, type TestApp, tempDir } from '../support/test-app.js';

/** Polls until `check` holds (the other app hears of a write through the bus, not at once). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  await pollUntil(what, timeoutMs, async () => ((await check()) ? true : undefined));
}

const eventOf = (predicate: (event: LiveEvent) => boolean) => (events: ReceivedEvent[]) =>
  events.some((event) => predicate(event.data as LiveEvent));

/**
 * Two apps on one database, each with its own connection, as two processes (or machines) would be:
 * a write through one reaches the other's caches and live streams.
 */
describe.each(DIALECTS)('two apps on one database [%s]', (dialect) => {
  const dir = tempDir();
  let pair: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let token: string;
  let baseA: string;
  let baseB: string;

  beforeAll(async () => {
    pair = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'shared.db') });
    a = pair.app;
    b = await pair.startAnother({ ownConnection: true });
    token = await loginAdmin(a);
    baseA = await listen(a);
    baseB = await listen(b);
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('a result, a rename and a content edit made on one show on the other, in its reads and stream', async () => {
    const stream = await openEvents(baseB);
    try {
      const ghadi = await createGhadi(a, token);
      const name = encodeURIComponent(ghadi.NameEn.toLowerCase());
      // Read on B first, so that B has the answers cached that the writes must replace.
      await call(b, { url: '/api/ghadis' });
      await call(b, { url: `/api/results/${name}` });

      await submitResult(a, token, { ghadiId: ghadi.GID, result: '73', dateTime: today() });
      await eventually(async () => {
        const row = (await call(b, { url: '/api/ghadis' }))
          .json<List<GhadiRecord>>()
          .data.find((g) => g.GID === ghadi.GID);
        return row?.TodayResult === '73';
      }, 'the result on the other app');
      // B rebuilds what it kept and serves the old answer meanwhile (at most STALE_SERVE_MS).
      await eventually(
        async () => (await call(b, { url: `/api/results/${name}` })).body.includes('"Result":"73"'),
        'the result in the other app’s list',
      );
      await stream.waitFor(
        eventOf(
          (event) => event.kind === 'result' && event.gid === ghadi.GID && event.result?.Result === '73',
        ),
      );

      const renamed = `${ghadi.NameEn} Renamed`;
      await call(a, {
        method: 'PUT',
        url: `/api/ghadis/${ghadi._id}`,
        token,
        body: { NameEn: renamed, NameHn: ghadi.NameHn, RTime: ghadi.RTime, OrderId: ghadi.OrderId },
      });
      await eventually(
        async () => (await call(b, { url: '/api/ghadis' })).body.includes(renamed),
        'the rename on the other app',
      );
      await stream.waitFor(eventOf((event) => event.kind === 'ghadi' && event.ghadi?.NameEn === renamed));

      const slug = unique('shared-');
      await call(b, { url: `/api/contentblocks/slug/${slug}` });
      await createContentBlock(a, token, { Slug: slug, Content: '<p>from A</p>' });
      await eventually(
        async () => (await call(b, { url: `/api/contentblocks/slug/${slug}` })).statusCode === 200,
        'the content block on the other app',
      );
      await stream.waitFor(
        eventOf((event) => event.kind === 'content' && event.slug === slug && event.block !== null),
      );
    } finally {
      stream.close();
    }
  });

  it('event ids are the same on both: a page moving from one to the other misses nothing', async () => {
    const ghadi = await createGhadi(a, token);
    const onA = await openEvents(baseA);
    await submitResult(a, token, { ghadiId: ghadi.GID, result: '01', dateTime: today() });
    const isFirst = eventOf((event) => event.kind === 'result' && event.result?.Result === '01');
    const [seen] = (await onA.waitFor(isFirst)).filter((event) => isFirst([event]));
    onA.close();
    await submitResult(a, token, { ghadiId: ghadi.GID, result: '02', dateTime: today() });
    // Reconnecting to B with A's id: B gives what came after it.
    const onB = await openEvents(baseB, { headers: { 'last-event-id': String(seen?.id) } });
    try {
      const [next] = await onB.waitFor((events) => events.length >= 1);
      expect(next?.id).toBe((seen?.id ?? 0) + 1);
      expect(next?.data).toMatchObject({ kind: 'result', result: { Result: '02' } });
    } finally {
      onB.close();
    }
  });

  // The LISTEN connection is PostgreSQL's; SQLite processes poll the file and have none to lose.
  if (dialect === 'postgres')
    it('after its bus connection is lost, an app reconnects, drops what it cached and reads what it missed', async () => {
      const stream = await openEvents(baseB);
      try {
        const ghadi = await createGhadi(a, token);
        // B hears of the new ghadi through the bus; until then its answer may be an older one, and
        // a notice arriving after the write below would make B read that write too.
        await stream.waitFor(eventOf((event) => event.kind === 'ghadi' && event.ghadi?.GID === ghadi.GID));
        const hasName = async (name: string) => (await call(b, { url: '/api/ghadis' })).body.includes(name);
        expect(await hasName(ghadi.NameEn)).toBe(true);
        // Written behind the app's back (no change logged): only a resync shows it.
        const behind = `${ghadi.NameEn} Behind`;
        await pair.database.db
          .updateTable('ghadis')
          .set({ name_en: behind })
          .where('gid', '=', ghadi.GID)
          .execute();
        expect(await hasName(behind)).toBe(false);

        // Every bus connection on this schema's channel goes; a write on A follows at once, its
        // notification sent while nobody listens.
        const ended = await sql<{ ended: boolean }>`
          select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = current_database() and query = ${`listen "${changeChannel(pair.database)}"`}`.execute(
          pair.database.db,
        );
        expect(ended.rows.length).toBeGreaterThanOrEqual(2);
        await submitResult(a, token, { ghadiId: ghadi.GID, result: '88', dateTime: today() });

        await eventually(() => hasName(behind), 'the resync on the other app');
        await eventually(
          async () => (await call(b, { url: '/api/ghadis' })).body.includes('"TodayResult":"88"'),
          'the missed result on the other app',
        );
        await stream.waitFor(
          eventOf(
            (event) => event.kind === 'result' && event.gid === ghadi.GID && event.result?.Result === '88',
          ),
        );
      } finally {
        stream.close();
      }
    });
});
