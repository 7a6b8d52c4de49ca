import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import type { Database } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import * as compactVisitors from '../../src/server/db/migrations/2026-11-25-0101-compact-visitors.js';
import { VisitorCounter, type VisitorLimits } from '../../src/server/modules/visitors/visitor-counter.js';
import { VisitorsRepository } from '../../src/server/modules/visitors/visitors-repository.js';
import { call, expectStatus, type Failure, unique, uniqueAddress } from '../support/factories.js';
import { fetchRaw, listen } from '../support/http.js';
import {
  createTestApp,
  DIALECTS,
  type Dialect,
  openTestDatabase,
  tempDir,
  testConfig,
  useTestApp,
} from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

interface Stats {
  success: true;
  totalUsers: number;
  activeUsers: number;
}

const silentLog = pino({ enabled: false });

const track = (app: FastifyInstance, sessionId?: string, remoteAddress?: string) =>
  call(app, {
    method: 'POST',
    url: '/api/visitor/track',
    ...(sessionId === undefined ? {} : { headers: { 'x-session-id': sessionId } }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });

const stats = async (app: FastifyInstance) =>
  expectStatus<Stats>(await call(app, { url: '/api/visitor/stats' }), 200);

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The one session a database has counted, last seen `minutesAgo`; returns its id. */
async function storeOneSession(database: Database, minutesAgo: number): Promise<string> {
  const sessionId = unique('stored');
  await database.db
    .insertInto('visitors')
    .values({ session_id: sessionId, last_seen: Date.now() - minutesAgo * 60 * 1000 })
    .execute();
  await database.db.updateTable('visitor_totals').set({ total: 1 }).where('name', '=', 'sessions').execute();
  return sessionId;
}

/** A visitor counter of its own (small limits, no timed writes) on a fresh database of the dialect. */
async function withCounter(
  dialect: Dialect,
  limits: Partial<VisitorLimits>,
  work: (counter: VisitorCounter, visitors: VisitorsRepository) => Promise<void>,
): Promise<void> {
  const own = await createTestApp(dialect);
  const visitors = new VisitorsRepository(own.database);
  const counter = new VisitorCounter(visitors, 60 * 60 * 1000, silentLog, {
    newSessionsPerAddressPerMinute: 1000,
    batchSize: 100,
    maxPending: 100,
    maxAddresses: 10,
    ...limits,
  });
  try {
    await counter.start();
    await work(counter, visitors);
  } finally {
    await counter.stop();
    await own.close();
  }
}

describe.each(DIALECTS)('visitors [%s]', (dialect) => {
  const t = useTestApp(dialect);

  it('POST /api/visitor/track needs an x-session-id of at most 128 printable characters', async () => {
    const missing = await track(t.app);
    expect(missing.statusCode).toBe(400);
    expect(missing.json<Failure>()).toMatchObject({ success: false });
    expect(missing.json<Failure>().message).toContain('x-session-id');

    const tooLong = await track(t.app, 'a'.repeat(129));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<Failure>().message).toContain('x-session-id');
    expect((await track(t.app, 'with space')).statusCode).toBe(400);

    const longest = await track(t.app, 'b'.repeat(128));
    expect(longest.statusCode).toBe(200);
    expect(longest.json()).toMatchObject({ success: true });
  });

  it('GET /api/visitor/stats counts distinct sessions; the same id twice counts once once written', async () => {
    const before = await stats(t.app);
    expect(before.success).toBe(true);
    const first = unique('s');
    const second = unique('s');
    await track(t.app, first);
    await track(t.app, first);
    await track(t.app, second);
    const written = async () =>
      (
        await t.database.db
          .selectFrom('visitors')
          .select('session_id')
          .where('session_id', 'in', [first, second])
          .execute()
      ).length;
    // A session seen again after its write is taken for new until its next write says it is not.
    const countedTwo = async () => {
      const now = await stats(t.app);
      return now.totalUsers === before.totalUsers + 2 && now.activeUsers === before.activeUsers + 2;
    };
    await waitFor(async () => (await written()) === 2 && (await countedTwo()), 'two sessions written');
    await track(t.app, second);
    await waitFor(countedTwo, 'the same session counted once');
    expect(await written()).toBe(2);
  });

  it('stats survive a restart, both after a timed flush and after the flush on close', async () => {
    const own = await createTestApp(dialect);
    try {
      const ids = [unique('s'), unique('s'), unique('s')];
      for (const id of ids) await track(own.app, id);
      await track(own.app, ids[0]);
      await waitFor(async () => {
        const rows = await own.database.db.selectFrom('visitors').select('session_id').execute();
        return rows.length === 3 && (await stats(own.app)).totalUsers === 3;
      }, 'the timed visitor flush');
      expect(await stats(own.app)).toMatchObject({ totalUsers: 3, activeUsers: 3 });
      await own.restart();
      expect(await stats(own.app)).toEqual({ success: true, totalUsers: 3, activeUsers: 3 });

      // Seen again after the restart: still one visitor each.
      await track(own.app, ids[1]);
      // A new one, then an immediate restart: closing the app writes it.
      await track(own.app, unique('s'));
      await own.restart();
      expect(await stats(own.app)).toEqual({ success: true, totalUsers: 4, activeUsers: 4 });
    } finally {
      await own.close();
    }
  });
});

describe.each(DIALECTS)('visitor limits and retention [%s]', (dialect) => {
  it('counts at most 60 new sessions a minute from one address (the rest are accepted, not counted)', async () => {
    const own = await createTestApp(dialect);
    // The allowance is per clock minute: time stands still here so that no minute ends mid-test.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const crowded = uniqueAddress();
      for (let index = 0; index < 75; index++) {
        expect((await track(own.app, unique('flood'), crowded)).statusCode).toBe(200);
      }
      // Another address is not held back by the first one's flood.
      await track(own.app, unique('calm'), uniqueAddress());
      expect(await stats(own.app)).toMatchObject({ totalUsers: 61, activeUsers: 61 });
      await own.restart();
      expect(await stats(own.app)).toMatchObject({ totalUsers: 61 });

      // IPv6 clients count by their /64: other addresses in it share the allowance.
      for (let index = 0; index < 65; index++) {
        await track(own.app, unique('v6'), `2001:db8:1:2::${(index + 1).toString(16)}`);
      }
      expect((await stats(own.app)).totalUsers).toBe(61 + 60);
    } finally {
      vi.useRealTimers();
      await own.close();
    }
  });

  it('prunes sessions unseen for 30 days at start, and totalUsers keeps counting them', async () => {
    const own = await createTestApp(dialect);
    try {
      const old = await storeOneSession(own.database, 40 * 24 * 60);
      await track(own.app, unique('new'));
      await own.restart();
      const rows = await own.database.db.selectFrom('visitors').select('session_id').execute();
      expect(rows.map((row) => row.session_id)).not.toContain(old);
      expect(await stats(own.app)).toMatchObject({ totalUsers: 2, activeUsers: 1 });
      // A session back after 30 days counts again.
      await track(own.app, old);
      expect(await stats(own.app)).toMatchObject({ totalUsers: 3, activeUsers: 2 });
    } finally {
      await own.close();
    }
  });

  it('a session back after the active window is active again as soon as its visit is written', async () => {
    const own = await createTestApp(dialect);
    try {
      const back = await storeOneSession(own.database, 10);
      await own.restart();
      expect(await stats(own.app)).toMatchObject({ totalUsers: 1, activeUsers: 0 });
      await track(own.app, back);
      // Until it is written this process takes it for a new session; once written, it is not one.
      await waitFor(async () => (await stats(own.app)).totalUsers === 1, 'the visit to be written');
      expect(await stats(own.app)).toMatchObject({ totalUsers: 1, activeUsers: 1 });
    } finally {
      await own.close();
    }
  });

  it('writes a batch of any size and any printable ids once each, adding only the new sessions', async () => {
    const own = await createTestApp(dialect);
    try {
      const visitors = new VisitorsRepository(own.database);
      const odd = ['quote"d', 'back\\slash', '{brace}', 'com,ma', "apos'", 'NULL', '(paren)', '$1'];
      const many = Array.from({ length: 1200 }, (_, index) => unique(`many${index}-`));
      const first = [...odd, ...many];
      const minutesAgo = (minutes: number) => Date.now() - minutes * 60 * 1000;
      expect(
        await visitors.recordBatch([...first, odd[0] as string], minutesAgo(10), minutesAgo(15)),
      ).toEqual({
        added: first.length,
        reactivated: 0,
      });
      const stored = await own.database.db
        .selectFrom('visitors')
        .select('session_id')
        .where('session_id', 'in', odd)
        .execute();
      expect(stored.map((row) => row.session_id).sort()).toEqual([...odd].sort());

      // Half of them again (last seen 10 minutes ago, before a 5-minute window), and 300 new ones.
      const again = first.slice(0, 604);
      const fresh = Array.from({ length: 300 }, () => unique('fresh'));
      const now = Date.now();
      expect(await visitors.recordBatch([...again, ...fresh], now, minutesAgo(5))).toEqual({
        added: 300,
        reactivated: 604,
      });
      expect(await visitors.total()).toBe(first.length + 300);
      expect(await visitors.activeSince(minutesAgo(5))).toBe(604 + 300);
      // Seen again within the window: written, not active again.
      const later = Date.now() + 1000;
      expect(await visitors.recordBatch(again.slice(0, 10), later, minutesAgo(5))).toEqual({
        added: 0,
        reactivated: 0,
      });
      const lastSeen = await own.database.db
        .selectFrom('visitors')
        .select('last_seen')
        .where('session_id', 'in', [again[0] as string, again[10] as string])
        .orderBy('last_seen')
        .execute();
      expect(lastSeen.map((row) => Number(row.last_seen))).toEqual([now, later]);
    } finally {
      await own.close();
    }
  });

  it('a full batch is written at once; sightings are dropped only while a write is under way', async () => {
    await withCounter(dialect, { batchSize: 5, maxPending: 8 }, async (counter, visitors) => {
      // The 5th fills the batch, which is taken for writing at once.
      for (let index = 0; index < 5; index++) counter.track(unique('batch'), '10.0.0.1');
      // While that write is under way 8 more may wait, and the 9th is left out.
      for (let index = 0; index < 9; index++) counter.track(unique('batch'), '10.0.0.1');
      expect(counter.stats().totalUsers).toBe(13);
      await counter.stop();
      expect(await visitors.total()).toBe(13);
      expect(counter.stats()).toEqual({ totalUsers: 13, activeUsers: 13 });
    });
  });

  it('after a failed write, a full batch waits for the next timed write instead of retrying at each sighting', async () => {
    await withCounter(dialect, { batchSize: 5, maxPending: 50 }, async (counter, visitors) => {
      const failing = vi.spyOn(visitors, 'recordBatch').mockRejectedValue(new Error('database down'));
      for (let index = 0; index < 5; index++) counter.track(unique('down'), '10.0.0.1');
      await counter.flush();
      const attempts = failing.mock.calls.length;
      // The failed batch is back and full; more sightings wait for the interval.
      for (let index = 0; index < 5; index++) counter.track(unique('down'), '10.0.0.1');
      await new Promise((resolve) => setImmediate(resolve));
      expect(failing).toHaveBeenCalledTimes(attempts);
      failing.mockRestore();
      await counter.flush();
      expect(await visitors.total()).toBe(10);
      // Writing again, a full batch starts a write at once.
      const writes = vi.spyOn(visitors, 'recordBatch');
      for (let index = 0; index < 5; index++) counter.track(unique('up'), '10.0.0.1');
      expect(writes).toHaveBeenCalledTimes(1);
      await counter.flush();
      expect(await visitors.total()).toBe(15);
    });
  });

  it('the per-address allowance goes by the time read at each timed write, not at each sighting', async () => {
    vi.useFakeTimers({
      toFake: ['Date', 'setInterval', 'clearInterval'],
      now: Date.parse('2026-11-25T10:00:30Z'),
    });
    try {
      await withCounter(dialect, { newSessionsPerAddressPerMinute: 2 }, async (counter) => {
        const counted = () => counter.stats().totalUsers;
        const start = counted();
        for (let index = 0; index < 3; index++) counter.track(unique('minute'), '10.0.0.9');
        expect(counted()).toBe(start + 2);
        // A new minute that no timed write has read yet: the address is still held back.
        vi.setSystemTime(Date.parse('2026-11-25T10:01:30Z'));
        counter.track(unique('minute'), '10.0.0.9');
        expect(counted()).toBe(start + 2);
        // The timed write reads the clock: the new minute's allowance starts.
        vi.runOnlyPendingTimers();
        counter.track(unique('minute'), '10.0.0.9');
        expect(counted()).toBe(start + 3);
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes a batch in key order, whatever order its sessions came in', async () => {
    await withCounter(dialect, {}, async (counter, visitors) => {
      const writes = vi.spyOn(visitors, 'recordBatch');
      const ids = ['1795650000300-7', '1795650000100-9', '1795650000200-1', '1795650000100-10'];
      for (const id of ids) counter.track(id, '10.0.0.1');
      await counter.flush();
      expect(writes.mock.calls[0]?.[0]).toEqual([
        '1795650000100-10',
        '1795650000100-9',
        '1795650000200-1',
        '1795650000300-7',
      ]);
      expect(await visitors.total()).toBe(4);
    });
  });

  it('a session seen again after its write counts as new until the next write says it is not', async () => {
    await withCounter(dialect, {}, async (counter) => {
      const [a, b] = [unique('a'), unique('b')];
      counter.track(a, '10.0.0.1');
      counter.track(a, '10.0.0.1');
      counter.track(b, '10.0.0.1');
      expect(counter.stats().totalUsers).toBe(2);
      await counter.flush();
      expect(counter.stats()).toEqual({ totalUsers: 2, activeUsers: 2 });
      counter.track(a, '10.0.0.1');
      expect(counter.stats().totalUsers).toBe(3);
      await counter.flush();
      expect(counter.stats()).toEqual({ totalUsers: 2, activeUsers: 2 });
    });
  });

  it('moving to the compact table keeps every stored session and when it was last seen', async () => {
    const { database, dropDatabase } = await openTestDatabase(dialect, ':memory:');
    try {
      await migrateToLatest(database);
      const { db } = database;
      // Back to the table as it was, with a session in it, and forward again.
      await compactVisitors.down(db);
      const seen = '2026-11-20T10:11:12.345Z';
      await sql`insert into visitors (session_id, first_seen, last_seen) values ('kept', ${seen}, ${seen})`.execute(
        db,
      );
      await sql`delete from kysely_migration where name = '2026-11-25-0101-compact-visitors'`.execute(db);
      await migrateToLatest(database);
      const rows = await db.selectFrom('visitors').selectAll().execute();
      expect(rows.map((row) => ({ ...row, last_seen: Number(row.last_seen) }))).toEqual([
        { session_id: 'kept', last_seen: Date.parse(seen) },
      ]);
      const visitors = new VisitorsRepository(database);
      expect(await visitors.activeSince(Date.parse(seen))).toBe(1);
      expect(await visitors.activeSince(Date.parse(seen) + 1)).toBe(0);
    } finally {
      await database.close();
      await dropDatabase();
    }
  });

  it('two apps on one database each count what the other wrote, once it is written', async () => {
    const own = await createTestApp(dialect);
    try {
      const other = await own.startAnother();
      await track(own.app, unique('a'));
      await track(other, unique('b'));
      await waitFor(
        async () => (await stats(own.app)).totalUsers === 2 && (await stats(other)).totalUsers === 2,
        'both apps to see both visits',
      );
      expect(await stats(other)).toMatchObject({ totalUsers: 2, activeUsers: 2 });
    } finally {
      await own.close();
    }
  });
});

describe.each(DIALECTS)('visitor limits behind a proxy [%s]', (dialect) => {
  const PROXY = '127.0.0.1';
  const LIMIT = 5;

  it('count new sessions by the address the proxy appended, on the route and on the fast path', async () => {
    // Time stands still, so that no minute ends mid-test.
    const clock = new TestClock();
    const own = await createTestApp(dialect, {
      env: { TRUST_PROXY: PROXY, VISITOR_NEW_SESSIONS_PER_MINUTE: String(LIMIT) },
      now: clock.now,
    });
    try {
      const counted = async () => (await stats(own.app)).totalUsers;
      // As a proxy that appends to the client's X-Forwarded-For (nginx's $proxy_add_x_forwarded_for).
      const forwarded = (client: string) => ({ 'x-forwarded-for': `${uniqueAddress()}, ${client}` });

      // The route (app.inject's requests come from 127.0.0.1, the proxy).
      const routeClient = uniqueAddress();
      for (let index = 0; index < LIMIT * 3; index++) {
        const response = await call(own.app, {
          method: 'POST',
          url: '/api/visitor/track',
          headers: { 'x-session-id': unique('route'), ...forwarded(routeClient) },
        });
        expect(response.statusCode).toBe(200);
      }
      expect(await counted()).toBe(LIMIT);

      // The fast path, which reads the address itself, over a real socket.
      const base = await listen(own.app);
      const trackRaw = (headers: Record<string, string>, localAddress: string) =>
        fetchRaw(base, '/api/visitor/track', {
          method: 'POST',
          localAddress,
          headers: { 'x-session-id': unique('fast'), ...headers },
        });
      const fastClient = uniqueAddress();
      for (let index = 0; index < LIMIT * 3; index++) {
        const response = await trackRaw(forwarded(fastClient), PROXY);
        expect(response.status).toBe(200);
        // Answered before Fastify, which would have given it a request id.
        expect(response.headers['x-request-id']).toBeUndefined();
      }
      expect(await counted()).toBe(LIMIT * 2);
      // The route's client is held back on the fast path too: both name the same address.
      await trackRaw(forwarded(routeClient), PROXY);
      expect(await counted()).toBe(LIMIT * 2);

      // A client that reaches the app without the proxy is its socket's address, whatever it writes.
      for (let index = 0; index < LIMIT * 3; index++) {
        await trackRaw({ 'x-forwarded-for': uniqueAddress() }, '127.0.0.41');
      }
      expect(await counted()).toBe(LIMIT * 3);
    } finally {
      await own.close();
    }
  });
});

// Only an app that opens its own database file closes it, so this runs on SQLite alone.
describe('visitors in an app that owns its SQLite file', () => {
  const dir = tempDir();

  it('an app that opens its own database file flushes visitors before closing it', async () => {
    const file = path.join(dir(), 'visitors.db');
    const config = testConfig({ DATABASE_URL: `sqlite:${file}` });
    const first = await buildApp(config, { logger: false });
    await track(first, unique('s'));
    await track(first, unique('s'));
    await first.close();
    const second = await buildApp(config, { logger: false });
    try {
      expect(await stats(second)).toMatchObject({ totalUsers: 2 });
    } finally {
      await second.close();
    }
  });
});
