import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { call, createGhadi, loginAdmin, type Response, uniqueAddress } from '../support/factories.js';
import { fetchRaw, listen } from '../support/http.js';
import { sample } from '../support/prometheus-text.js';
import { addressOf, startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { POSTGRES_URL, SKIP_POSTGRES, testConfig, withAdminClient } from '../support/test-app.js';

const TOKEN = 'metrics-token-for-the-build-limit';
/** Small limits, so that a handful of requests fill them. */
const LIMITS = { maxRunning: 2, maxWaiting: 2, maxWaitMs: 300, perAddress: 2 };

/**
 * Building a public answer goes through one limit: a few at once, a short queue, then 503 at once;
 * a queued build that waits too long is refused too; cached answers never wait behind them. The
 * builds are held in flight by a database that stops answering (PostgreSQL behind a paused proxy).
 */
describe.skipIf(SKIP_POSTGRES)('the limit on building public answers [postgres]', () => {
  const schema = `test_builds_${randomBytes(5).toString('hex')}`;
  let proxy: TcpProxy;
  let database: Database;
  let app: FastifyInstance;
  let ghadi: GhadiRecord;

  beforeAll(async () => {
    await withAdminClient((client) => client.query(`create schema ${schema}`));
    proxy = await startTcpProxy(addressOf(POSTGRES_URL));
    const target = { kind: 'postgres' as const, url: proxy.through(POSTGRES_URL) };
    database = openDatabase(target, { pgSchema: schema });
    app = await buildApp(
      { ...testConfig({ PUBLIC_QUERIES_PER_MINUTE: '100000', METRICS_TOKEN: TOKEN }), database: target },
      { database, logger: false, serveWebApp: false, buildLimits: LIMITS },
    );
    ghadi = await createGhadi(app, await loginAdmin(app));
  });
  afterAll(async () => {
    proxy?.resume();
    await app?.close();
    await database?.close();
    await proxy?.close();
    await withAdminClient((client) => client.query(`drop schema ${schema} cascade`));
  });

  /** A kept answer not built yet: a month of the ghadi's results (each month is an answer of its own). */
  const cold = (month: number, address = uniqueAddress()) =>
    call(app, {
      url: `/api/results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}?month=${month}&year=2010`,
      remoteAddress: address,
    });
  /** The builds running, and the readers' builds waiting for a place (the metrics). */
  const builds = async () => {
    const text = (await call(app, { url: '/metrics', token: TOKEN })).body;
    return {
      running: sample(text, 'public_answer_builds', { state: 'running' }),
      waiting: sample(text, 'public_answer_builds', { state: 'waiting' }),
    };
  };
  const busy = (response: Response) => {
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json<{ message: string }>().message).toMatch(/busy/);
  };

  it('runs a few builds, queues a few, refuses the rest at once, and never holds up a cached answer', async () => {
    // Built before the database stops answering.
    expect((await call(app, { url: '/api/ghadis' })).statusCode).toBe(200);
    const base = await listen(app);
    proxy.pause();
    const building = [cold(1), cold(2)];
    const queued = [cold(3), cold(4)];
    // Past the queue: refused at once, while the others still wait for the database.
    // Once they hold the places and the queue:
    await expect.poll(builds).toEqual({ running: 2, waiting: 2 });
    busy(await cold(5));
    // Cached answers are answered meanwhile, by Fastify and by the fast path.
    expect((await call(app, { url: '/api/ghadis' })).statusCode).toBe(200);
    expect((await fetchRaw(base, '/api/ghadis')).status).toBe(200);
    // A queued build that waits past its limit is refused (the running ones hold their places).
    for (const response of await Promise.all(queued)) busy(response);
    proxy.resume();
    // A month without results is a 404, kept like any answer of a known ghadi.
    for (const response of await Promise.all(building)) expect(response.statusCode).toBe(404);
  });

  it('gives one address no more than its share of builds at once', async () => {
    const address = uniqueAddress();
    proxy.pause();
    const mine = [cold(6, address), cold(7, address)];
    await expect.poll(builds).toEqual({ running: 2, waiting: 0 });
    const third = await cold(8, address);
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    proxy.resume();
    for (const response of await Promise.all(mine)) expect(response.statusCode).toBe(404);
  });

  it('runs one build for an answer however many readers wait for it', async () => {
    proxy.pause();
    const readers = Array.from({ length: 6 }, () => cold(9));
    // Six readers of one answer hold one place: another answer still gets the other.
    const other = cold(10);
    await expect.poll(builds).toEqual({ running: 2, waiting: 0 });
    proxy.resume();
    const answers = await Promise.all([...readers, other]);
    for (const response of answers) expect(response.statusCode).toBe(404);
    expect(new Set(answers.slice(0, 6).map((response) => response.body)).size).toBe(1);
  });
});
