import { randomBytes } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import { DatabaseHealth } from '../../src/server/db/database-health.js';
import { SettingsRepository } from '../../src/server/modules/settings/settings-repository.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  assignGhadis,
  type CallOptions,
  call,
  contentBlockFields,
  createAgentWithToken,
  createContentBlock,
  createGhadi,
  expectStatus,
  type Failure,
  ghadiFields,
  type List,
  loginAdmin,
  postResult,
  type Response,
  today,
} from '../support/factories.js';
import { fetchRaw, listen } from '../support/http.js';
import { addressOf, startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import {
  createTestApp,
  POSTGRES_URL,
  SKIP_POSTGRES,
  type TestApp,
  tempDir,
  testConfig,
  withAdminClient,
} from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

/** The apps' DATABASE_DEADLINE_MS: short, so a test of a database that stopped answering is short too. */
const DEADLINE_MS = 400;
/** database.ts waits this much past the deadline for a PostgreSQL server that answers nothing at all. */
const CLIENT_MARGIN_MS = 1000;
/** How long a request may take to fail when the database is gone or frozen: the deadline and some slack. */
const ANSWER_LIMIT_MS = DEADLINE_MS + CLIENT_MARGIN_MS + 800;
/** The promise: within this long of the database coming back, writes succeed again. */
const RECOVERY_LIMIT_MS = 2000;

const UNAVAILABLE = /the database is unavailable/;
const BACK = /the database is back after/;
/** A full disk or a read-only file: reads go on, so it is logged as writes failing, not an outage. */
const WRITES_FAIL = /database writes fail/;
const WRITES_BACK = /database writes succeed again after/;
const LOST = /a database connection was lost/;

interface Entry {
  level: 'warn' | 'info';
  fields: Record<string, unknown>;
  message: string;
}

/** What a DatabaseHealth logs (its logTo), kept for the test to count. */
class HealthLog {
  readonly entries: Entry[] = [];
  readonly logger = {
    warn: (fields: unknown, message?: string) => this.record('warn', fields, message),
    info: (fields: unknown, message?: string) => this.record('info', fields, message),
  };

  private record(level: Entry['level'], fields: unknown, message: string | undefined) {
    this.entries.push({ level, fields: (fields ?? {}) as Record<string, unknown>, message: message ?? '' });
  }

  matching(pattern: RegExp): Entry[] {
    return this.entries.filter((entry) => pattern.test(entry.message));
  }
}

/** A DatabaseHealth that also counts the connections the database dropped (it logs them once a minute). */
class CountingHealth extends DatabaseHealth {
  /** By error: the pool and the connection itself both report a connection's one error. */
  private readonly lostErrors = new Set<unknown>();
  get lost(): number {
    return this.lostErrors.size;
  }
  override connectionLost(error: unknown): void {
    this.lostErrors.add(error);
    super.connectionLost(error);
  }
  /** Queries that failed for the database's sake (a connection ended while it ran one, say). */
  failures = 0;
  override failed(error: unknown, during?: 'a request' | 'a background task'): void {
    this.failures += 1;
    super.failed(error, during);
  }
}

async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `request`, and how long it took to answer. */
async function timed(request: Promise<Response>): Promise<{ response: Response; ms: number }> {
  const started = Date.now();
  const response = await request;
  return { response, ms: Date.now() - started };
}

/** The answer a request gets while the database cannot be used: 503, Retry-After, the API's JSON. */
function expectUnavailable(response: Response) {
  const answer = expectStatus<Failure>(response, 503);
  expect(Object.keys(answer).sort()).toEqual(['message', 'success']);
  expect(answer.success).toBe(false);
  expect(answer.message).toMatch(/database/i);
  expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
}

/** An app whose PostgreSQL connections all go through a proxy the test controls. */
interface ProxiedApp {
  app: FastifyInstance;
  database: Database;
  proxy: TcpProxy;
  health: CountingHealth;
  /** The health's clock: an outage lasts as long as the test says. */
  clock: TestClock;
  log: HealthLog;
  schema: string;
  /** Set on every connection of this app (its connection string), so the test ends only its own. */
  applicationName: string;
  close(): Promise<void>;
}

async function startProxiedApp(): Promise<ProxiedApp> {
  const schema = `test_faults_${randomBytes(5).toString('hex')}`;
  const applicationName = `ghadi_faults_${randomBytes(5).toString('hex')}`;
  await withAdminClient((client) => client.query(`create schema ${schema}`));
  const proxy = await startTcpProxy(addressOf(POSTGRES_URL));
  const url = new URL(proxy.through(POSTGRES_URL));
  url.searchParams.set('application_name', applicationName);
  const target = { kind: 'postgres' as const, url: url.toString() };
  const clock = new TestClock();
  const health = new CountingHealth(clock.now);
  const database = openDatabase(target, { pgSchema: schema, deadlineMs: DEADLINE_MS, health });
  const config = { ...testConfig({ DATABASE_DEADLINE_MS: String(DEADLINE_MS) }), database: target };
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { database, logger: false, serveWebApp: false });
  } catch (error) {
    await database.close();
    await proxy.close();
    await withAdminClient((client) => client.query(`drop schema ${schema} cascade`));
    throw error;
  }
  // buildApp points the health at its own (silent) logger; the test reads what it logs instead.
  const log = new HealthLog();
  health.logTo(log.logger);
  return {
    app,
    database,
    proxy,
    health,
    clock,
    log,
    schema,
    applicationName,
    async close() {
      // A test that failed halfway may leave the proxy paused: the app could not close over it.
      proxy.resume();
      await app.close();
      await database.close();
      await proxy.close();
      await withAdminClient((client) => client.query(`drop schema ${schema} cascade`));
    },
  };
}

/** Writes until one succeeds (the database is back), within the limit. */
async function writesSucceedAgain(app: FastifyInstance, token: string): Promise<GhadiRecord> {
  let created: GhadiRecord | undefined;
  await eventually(
    async () => {
      const response = await call(app, {
        method: 'POST',
        url: '/api/ghadis',
        token,
        body: ghadiFields(),
      });
      if (response.statusCode === 201) created = response.json<{ data: GhadiRecord }>().data;
      else expectUnavailable(response);
      return created !== undefined;
    },
    'a write succeeding again',
    RECOVERY_LIMIT_MS,
  );
  if (!created) throw new Error('unreachable: eventually() returned without a write');
  return created;
}

describe.skipIf(SKIP_POSTGRES)('a PostgreSQL database that goes away [postgres]', () => {
  let fixture: ProxiedApp | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('idle connections the server terminates are replaced: no crash, and the next request succeeds', async () => {
    fixture = await startProxiedApp();
    const { app, database, health, log, applicationName } = fixture;
    const token = await loginAdmin(app);
    await createGhadi(app, token);
    // The pool keeps the connections it used, idle: those are what the server ends below.
    expect(database.poolUse().idle).toBeGreaterThan(0);

    const { rows } = await withAdminClient((client) =>
      client.query<{ pid: number; query: string; terminated: boolean }>(
        `select pid, query, pg_terminate_backend(pid) as terminated from pg_stat_activity
         where application_name = $1 and datname = current_database()`,
        [applicationName],
      ),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.terminated)).toBe(true);
    // The change bus's LISTEN connection reconnects by itself; the pool's are what this is about.
    const pooled = rows.filter((row) => !row.query.startsWith('listen ')).length;
    expect(pooled).toBeGreaterThan(0);

    // Each ended connection's error reaches a listener (none would be an uncaught exception, which
    // fails this run), and the pool drops it.
    // Each ended connection is dropped by the pool: an idle one through its error event, one a
    // background read (the change log, woken by the write's notification) was using through that
    // read's failure. Only then is every connection the next request may get a new one.
    await eventually(
      () => health.lost + health.failures >= pooled,
      'the pool dropping every ended connection',
      2000,
    );

    const created = await createGhadi(app, token);
    expect(created.GID).toBeGreaterThan(0);
    expectStatus(await call(app, { url: '/readyz' }), 200);
    // Losing idle connections is logged once however many went, and no request failed.
    expect(log.matching(LOST)).toHaveLength(1);
    expect(log.matching(LOST)[0]?.fields.code).toBe('57P01');
    expect(health.unavailable).toBe(false);
  });

  it('cut off: writes answer 503 with Retry-After at once, cached reads still answer; back within 2 s', async () => {
    fixture = await startProxiedApp();
    const { app, proxy, health, clock, log } = fixture;
    const base = await listen(app);
    const adminToken = await loginAdmin(app);
    const ghadi = await createGhadi(app, adminToken);
    const agent = await createAgentWithToken(app, adminToken);
    await assignGhadis(app, adminToken, agent.user.User_Id, ghadi.GID);

    // Warmed: the first read builds the answer, the second comes from the fast path (no request id).
    await fetchRaw(base, '/api/ghadis');
    const warmed = await fetchRaw(base, '/api/ghadis');
    expect(warmed.status).toBe(200);
    expect(warmed.headers['x-request-id']).toBeUndefined();
    const warmedList = expectStatus<List<GhadiRecord>>(await call(app, { url: '/api/ghadis' }), 200);
    expect(warmedList.data.map((row) => row.GID)).toContain(ghadi.GID);

    proxy.cut();
    clock.advance(1000);

    const writes: Array<CallOptions & { token: string }> = [
      { method: 'POST', url: '/api/ghadis', token: adminToken, body: ghadiFields() },
      { method: 'PUT', url: `/api/ghadis/${ghadi.id}`, token: adminToken, body: ghadiFields() },
      {
        method: 'POST',
        url: '/api/agent/my-ghadi/update-result',
        token: agent.token,
        body: { ghadiId: ghadi.GID, result: '42', dateTime: today() },
      },
      { method: 'POST', url: '/api/contentblocks', token: adminToken, body: contentBlockFields() },
    ];
    for (const write of writes) {
      const { response, ms } = await timed(call(app, write));
      expectUnavailable(response);
      expect(ms, `${write.method} ${write.url}`).toBeLessThan(ANSWER_LIMIT_MS);
    }
    // Over a real socket too: the header and body pass the server's front door unchanged.
    const overSocket = await fetchRaw(base, '/api/ghadis', {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(ghadiFields()),
    });
    expect(overSocket.status).toBe(503);
    expect(overSocket.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(JSON.parse(overSocket.body.toString('utf8'))).toMatchObject({ success: false });

    expect(expectStatus(await call(app, { url: '/healthz' }), 200)).toEqual({
      success: true,
      status: 'live',
    });
    const { response: notReady, ms: readyMs } = await timed(call(app, { url: '/readyz' }));
    expect(expectStatus<Failure>(notReady, 503).message).toMatch(/^Not ready: /);
    expect(readyMs).toBeLessThan(ANSWER_LIMIT_MS);

    // What was built before the outage is still served, by the fast path and by Fastify.
    const cached = await fetchRaw(base, '/api/ghadis');
    expect(cached.status).toBe(200);
    expect(cached.headers['x-request-id']).toBeUndefined();
    expect(cached.body.equals(warmed.body)).toBe(true);
    expect(expectStatus<List<GhadiRecord>>(await call(app, { url: '/api/ghadis' }), 200)).toEqual(warmedList);

    expect(health.unavailable).toBe(true);
    clock.advance(2500);
    proxy.resume();
    const created = await writesSucceedAgain(app, adminToken);
    expectStatus(await call(app, { url: '/readyz' }), 200);
    expect(health.unavailable).toBe(false);
    // The agent's write that failed can be made now, and it was not half made before.
    expectStatus(
      await postResult(app, agent.token, { ghadiId: ghadi.GID, result: '42', dateTime: today() }),
      200,
    );
    expect(created.GID).toBeGreaterThan(ghadi.GID);

    // One outage, however many requests failed in it: logged once as it began, once as it ended,
    // with its length by the health's clock (cut 1 s after the clock's start, back 2.5 s later).
    const began = log.matching(UNAVAILABLE);
    expect(began).toHaveLength(1);
    expect(began[0]?.level).toBe('warn');
    const ended = log.matching(BACK);
    expect(ended).toHaveLength(1);
    expect(ended[0]?.level).toBe('info');
    expect(ended[0]?.fields.outageSeconds).toBe(2.5);
    expect(ended[0]?.fields.failedRequests).toBeGreaterThanOrEqual(writes.length + 1);
    expect(ended[0]?.message).toContain('2.5 s');
  });

  it('an answer a write made stale before the database went away is served as it was, not a 503', async () => {
    fixture = await startProxiedApp();
    const { app, proxy } = fixture;
    const adminToken = await loginAdmin(app);
    const first = await createGhadi(app, adminToken);
    expect(
      expectStatus<{ data: { ghadis: GhadiRecord[] } }>(
        await call(app, { url: '/api/home' }),
        200,
      ).data.ghadis.map((row) => row.GID),
    ).toContain(first.GID);
    // Read since it was built, the home answer is rebuilt by the write that drops it; nobody reads
    // that one, so the next write drops it and leaves it for its next reader, and the database goes
    // before anyone reads it again.
    const second = await createGhadi(app, adminToken);
    const third = await createGhadi(app, adminToken);
    proxy.cut();
    let before: { data: { ghadis: GhadiRecord[] } } | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const { response, ms } = await timed(call(app, { url: '/api/home' }));
      const served = expectStatus<{ data: { ghadis: GhadiRecord[] } }>(response, 200);
      const gids = served.data.ghadis.map((row) => row.GID);
      expect(gids).toContain(second.GID);
      expect(gids).not.toContain(third.GID);
      if (before) expect(served).toEqual(before);
      before = served;
      expect(ms).toBeLessThan(ANSWER_LIMIT_MS);
    }
    proxy.resume();
    await writesSucceedAgain(app, adminToken);
    const after = expectStatus<{ data: { ghadis: GhadiRecord[] } }>(
      await call(app, { url: '/api/home' }),
      200,
    );
    expect(after.data.ghadis.map((row) => row.GID)).toContain(third.GID);
  });
  it('frozen (answers nothing, connections stay open): a write answers 503 within the deadline; then recovers', async () => {
    fixture = await startProxiedApp();
    const { app, proxy, log } = fixture;
    const token = await loginAdmin(app);
    await createGhadi(app, token);

    proxy.pause();
    // Several at once: each waits on a connection of its own (idle ones, and new ones the proxy holds).
    const attempts = await Promise.all(
      [1, 2, 3].map(() =>
        timed(call(app, { method: 'POST', url: '/api/ghadis', token, body: ghadiFields() })),
      ),
    );
    for (const { response, ms } of attempts) {
      expectUnavailable(response);
      expect(ms).toBeLessThan(ANSWER_LIMIT_MS);
    }
    const { response: notReady, ms: readyMs } = await timed(call(app, { url: '/readyz' }));
    expectStatus(notReady, 503);
    expect(readyMs).toBeLessThan(ANSWER_LIMIT_MS);
    expectStatus(await call(app, { url: '/healthz' }), 200);

    proxy.resume();
    await writesSucceedAgain(app, token);
    expectStatus(await call(app, { url: '/readyz' }), 200);
    expect(log.matching(UNAVAILABLE)).toHaveLength(1);
    expect(log.matching(BACK)).toHaveLength(1);
  });

  it('a statement past the deadline (a table locked by another session) answers 503 after the deadline', async () => {
    fixture = await startProxiedApp();
    const { app, schema, log } = fixture;
    const token = await loginAdmin(app);
    await createGhadi(app, token);

    await withAdminClient(async (client) => {
      await client.query('begin');
      await client.query(`lock table ${schema}.ghadis in access exclusive mode`);
      try {
        const { response, ms } = await timed(
          call(app, { method: 'POST', url: '/api/ghadis', token, body: ghadiFields() }),
        );
        expectUnavailable(response);
        // The server cancelled it (statement_timeout), before the client-side deadline would have.
        expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
        expect(ms).toBeLessThan(DEADLINE_MS + CLIENT_MARGIN_MS);
      } finally {
        await client.query('rollback');
      }
    });
    const began = log.matching(UNAVAILABLE);
    expect(began).toHaveLength(1);
    expect(began[0]?.fields.code).toBe('57014');
    expect(String((began[0]?.fields.err as Error | undefined)?.message)).toMatch(/statement timeout/);

    await createGhadi(app, token);
    expect(log.matching(BACK)).toHaveLength(1);
  });
});

/**
 * Fills the settings table's last pages to the brim (the database may not grow: max_page_count), so
 * that any row added there needs a page it cannot have: the readiness probe's row among them.
 * Rows of smaller and smaller sizes, until not even the smallest fits. Returns how many were added.
 */
function fillSettings(sqlite: SQLite.Database): number {
  const insert = sqlite.prepare('insert into settings (key, value) values (?, ?)');
  let added = 0;
  for (const size of [2000, 400, 80, 16, 1]) {
    for (;;) {
      try {
        insert.run(`zz-filler-${added}`, 'x'.repeat(size));
        added += 1;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_FULL') throw error;
        break;
      }
    }
  }
  return added;
}

describe('a SQLite database that refuses writes [sqlite]', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** The app's own connection (the test's handle is the one the app uses). */
  const sqliteOf = (app: TestApp): SQLite.Database => {
    if (!app.database.sqlite) throw new Error('a SQLite database has its handle');
    return app.database.sqlite;
  };

  it('full: a write answers 503 naming SQLITE_FULL, /readyz 503 until there is room; nothing is lost', async () => {
    t = await createTestApp('sqlite');
    const { app } = t;
    const sqlite = sqliteOf(t);
    const log = new HealthLog();
    t.database.health.logTo(log.logger);
    const token = await loginAdmin(app);
    const before = await createGhadi(app, token);
    const block = await createContentBlock(app, token);

    const pages = sqlite.pragma('page_count', { simple: true }) as number;
    expect(sqlite.pragma(`max_page_count = ${pages}`, { simple: true })).toBe(pages);
    expect(fillSettings(sqlite)).toBeGreaterThan(0);

    // Larger than a page: each needs pages the database may not have. The update is a statement after
    // which SQLite ends the transaction itself (the rollback that follows must not hide the cause);
    // the insert (with RETURNING) leaves it open for that rollback.
    const bigContent = `<p>${'full '.repeat(4000)}</p>`;
    const grown = { Title: block.Title, Slug: block.Slug, Content: bigContent };
    const big = contentBlockFields({ Content: bigContent });
    const refusals = [
      await call(app, { method: 'PUT', url: `/api/contentblocks/${block.id}`, token, body: grown }),
      await call(app, { method: 'POST', url: '/api/contentblocks', token, body: big }),
    ];
    for (const refused of refusals) expectUnavailable(refused);
    expect(t.database.health.writesFailing).toBe('SQLITE_FULL');
    // No transaction is left open, and the cause (not a failed rollback) is what was reported.
    expect(sqlite.inTransaction).toBe(false);
    const began = log.matching(WRITES_FAIL);
    expect(began).toHaveLength(1);
    expect(began.map((entry) => entry.fields.code)).toEqual(['SQLITE_FULL']);
    expect(log.matching(UNAVAILABLE)).toHaveLength(0);
    expect(JSON.stringify(log.entries.map((entry) => [entry.message, String(entry.fields.err)]))).not.toMatch(
      /cannot rollback/i,
    );

    const notReady = expectStatus<Failure>(await call(app, { url: '/readyz' }), 503);
    expect(notReady.message).toMatch(/^Not ready: Writes fail \(SQLITE_FULL\)/);
    expectStatus(await call(app, { url: '/healthz' }), 200);
    // A small write that fits where a page has room (as a visit count or a setting does) is no sign
    // that real writes work: the site stays not ready.
    await new SettingsRepository(t.database).put('zz-filler-0', 'x');
    expect(t.database.health.writesFailing).toBe('SQLITE_FULL');
    expectStatus(await call(app, { url: '/readyz' }), 503);
    // Reads still answer.
    expect(
      expectStatus<List<GhadiRecord>>(await call(app, { url: '/api/ghadis' }), 200).data.map((g) => g.GID),
    ).toContain(before.GID);

    sqlite.pragma('max_page_count = 1073741823');
    expectStatus(await call(app, { url: '/readyz' }), 200);
    expect(t.database.health.writesFailing).toBeNull();
    expectStatus(
      await call(app, { method: 'PUT', url: `/api/contentblocks/${block.id}`, token, body: grown }),
      200,
    );
    expectStatus(await call(app, { method: 'POST', url: '/api/contentblocks', token, body: big }), 201);
    sqlite.prepare("delete from settings where key like 'zz-filler-%'").run();

    // What was written before the disk filled is all there.
    expect(
      expectStatus<List<GhadiRecord>>(await call(app, { url: '/api/ghadis' }), 200).data.map((g) => g.GID),
    ).toContain(before.GID);
    // The block before the disk filled, with the update that was refused made again since.
    const stored = expectStatus<{ data: { Content: string } }>(
      await call(app, { url: `/api/contentblocks/slug/${block.Slug}` }),
      200,
    );
    expect(stored.data.Content.length).toBeGreaterThan(bigContent.length - 100);
    expect(log.matching(WRITES_BACK)).toHaveLength(1);
  });

  it('a disk that stays full is logged once, however many writes fail while reads work, and once when writes work', async () => {
    t = await createTestApp('sqlite');
    const { app } = t;
    const sqlite = sqliteOf(t);
    const log = new HealthLog();
    t.database.health.logTo(log.logger);
    const token = await loginAdmin(app);
    const block = await createContentBlock(app, token);

    sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`);
    const grown = { Title: block.Title, Slug: block.Slug, Content: `<p>${'full '.repeat(4000)}</p>` };
    for (let attempt = 0; attempt < 3; attempt++) {
      expectUnavailable(
        await call(app, { method: 'PUT', url: `/api/contentblocks/${block.id}`, token, body: grown }),
      );
      // A read between the writes succeeds (the disk is full, not gone): the outage of writes goes on.
      expectStatus(await call(app, { url: '/api/contentblocks', token }), 200);
    }
    expect(t.database.health.writesFailing).toBe('SQLITE_FULL');
    expect(log.matching(WRITES_FAIL)).toHaveLength(1);
    expect(log.matching(WRITES_BACK)).toHaveLength(0);
    expect(log.matching(UNAVAILABLE)).toHaveLength(0);

    sqlite.pragma('max_page_count = 1073741823');
    expectStatus(
      await call(app, { method: 'PUT', url: `/api/contentblocks/${block.id}`, token, body: grown }),
      200,
    );
    expect(log.matching(WRITES_FAIL)).toHaveLength(1);
    expect(log.matching(WRITES_BACK)).toHaveLength(1);
  });

  it('read-only: a write answers 503 naming SQLITE_READONLY, /readyz 503 until writes work again', async () => {
    t = await createTestApp('sqlite');
    const { app } = t;
    const sqlite = sqliteOf(t);
    const token = await loginAdmin(app);
    const before = await createGhadi(app, token);

    sqlite.pragma('query_only = ON');
    const refused = await call(app, { method: 'POST', url: '/api/ghadis', token, body: ghadiFields() });
    expectUnavailable(refused);
    expect(t.database.health.writesFailing).toMatch(/^SQLITE_READONLY/);
    const notReady = expectStatus<Failure>(await call(app, { url: '/readyz' }), 503);
    expect(notReady.message).toMatch(/^Not ready: Writes fail \(SQLITE_READONLY/);

    sqlite.pragma('query_only = OFF');
    expectStatus(await call(app, { url: '/readyz' }), 200);
    expect(t.database.health.writesFailing).toBeNull();
    await createGhadi(app, token);
    expect(
      expectStatus<List<GhadiRecord>>(await call(app, { url: '/api/ghadis' }), 200).data.map((g) => g.GID),
    ).toContain(before.GID);
  });
});

describe('a SQLite database another process holds [sqlite]', () => {
  const dir = tempDir();

  it('a write waits for the write lock no longer than the deadline, then answers 503; then succeeds', async () => {
    const file = path.join(dir(), `busy-${randomBytes(4).toString('hex')}.db`);
    const target = { kind: 'sqlite' as const, file };
    const database = openDatabase(target, { deadlineMs: DEADLINE_MS });
    const app = await buildApp(
      { ...testConfig({ DATABASE_DEADLINE_MS: String(DEADLINE_MS) }), database: target },
      { database, logger: false, serveWebApp: false },
    );
    const other = new SQLite(file);
    try {
      const token = await loginAdmin(app);
      await createGhadi(app, token);
      other.exec('begin immediate');
      try {
        const { response, ms } = await timed(
          call(app, { method: 'POST', url: '/api/ghadis', token, body: ghadiFields() }),
        );
        expectUnavailable(response);
        expect(ms).toBeLessThan(ANSWER_LIMIT_MS);
      } finally {
        other.exec('rollback');
      }
      await createGhadi(app, token);
    } finally {
      other.close();
      await app.close();
      await database.close();
    }
  });
});
