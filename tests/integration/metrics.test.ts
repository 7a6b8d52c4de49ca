import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, startAppProcess } from '../support/app-process.js';
import {
  call,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { fetchRaw, listen, openEvents } from '../support/http.js';
import { type ProcessDatabase, processDatabase } from '../support/process-database.js';
import { sample } from '../support/prometheus-text.js';
import { DIALECTS, tempDir, useTestApp } from '../support/test-app.js';

const TOKEN = 'metrics-token-for-the-tests';
/** Server processes compiling their source with tsx on a busy machine. */
const STARTUP_TIMEOUT_MS = 90_000;

describe.each(DIALECTS)('GET /metrics without METRICS_TOKEN [%s]', (dialect) => {
  const t = useTestApp(dialect);

  it('answers 404 as an unknown address does, token or not', async () => {
    const unknown = expectStatus<Failure>(await call(t.app, { url: '/no-such-address' }), 404);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
      const answer = expectStatus<Failure>(await call(t.app, { url: '/metrics', headers }), 404);
      expect(answer).toEqual({
        ...unknown,
        message: unknown.message.replace('/no-such-address', '/metrics'),
      });
    }
  });
});

describe.each(DIALECTS)('GET /metrics [%s]', (dialect) => {
  const t = useTestApp(dialect, { env: { METRICS_TOKEN: TOKEN } });
  let base = '';
  beforeAll(async () => {
    base = await listen(t.app);
  });
  afterAll(() => t.app.close());
  const scrape = async () => {
    const answer = await fetchRaw(base, '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.body.toString();
  };

  it('asks for the token: 401 without it or with another', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer not-the-metrics-token' },
      { authorization: TOKEN },
    ] as Array<Record<string, string>>) {
      const answer = await call(t.app, { url: '/metrics', headers });
      expect(expectStatus<Failure>(answer, 401).message).toBe('The metrics token is required');
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
  });

  it('counts requests by route and status, the fast path included, with their latency', async () => {
    const route = { method: 'GET', route: '/api/ghadis', status_code: '200' };
    const before = sample(await scrape(), 'http_request_duration_seconds_count', route);
    // The first builds the answer in Fastify; the next are answered from memory before it.
    for (let index = 0; index < 3; index++) expect((await fetchRaw(base, '/api/ghadis')).status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'http_request_duration_seconds_count', route)).toBe(before + 3);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(before + 3);
    await fetchRaw(base, '/no-such-address');
    const unmatched = { method: 'GET', route: '(unmatched)', status_code: '404' };
    expect(sample(await scrape(), 'http_request_duration_seconds_count', unmatched)).toBeGreaterThan(0);
  });

  it('counts public reads found built (hit) and built first (miss)', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token, { NameEn: unique('Metric') });
    const path = `/api/results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`;
    const labels = (outcome: string) => ({ route: '/api/results/:name', outcome });
    const before = await scrape();
    await fetchRaw(base, path);
    await fetchRaw(base, path);
    const after = await scrape();
    expect(sample(after, 'public_read_cache_lookups_total', labels('miss'))).toBe(
      sample(before, 'public_read_cache_lookups_total', labels('miss')) + 1,
    );
    expect(sample(after, 'public_read_cache_lookups_total', labels('hit'))).toBe(
      sample(before, 'public_read_cache_lookups_total', labels('hit')) + 1,
    );
  });

  it('counts declarations by who sent them', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token, { NameEn: unique('Declared') });
    const before = sample(await scrape(), 'result_declarations_total', { source: 'admin' });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '42', dateTime: today() });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '43', dateTime: today() });
    expect(sample(await scrape(), 'result_declarations_total', { source: 'admin' })).toBe(before + 2);
    const imported = sample(await scrape(), 'result_declarations_total', { source: 'import' });
    const file = `Date,GID,Name,Result\n${today()},${ghadi.GID},,44\n${daysFromToday(-1)},${ghadi.GID},,45\n`;
    const answer = await call(t.app, {
      method: 'POST',
      url: '/api/results/import?dryRun=false',
      token,
      body: file,
      headers: { 'content-type': 'text/csv' },
    });
    expect(answer.statusCode).toBe(200);
    expect(sample(await scrape(), 'result_declarations_total', { source: 'import' })).toBe(imported + 2);
  });

  it('shows open live streams, visitor flushes, the process (event-loop lag, CPU, heap; no GC histogram) and the database connections', async () => {
    const stream = await openEvents(base);
    try {
      expect(sample(await scrape(), 'live_streams_open')).toBe(1);
    } finally {
      stream.close();
    }
    const flushed = sample(await scrape(), 'visitor_flushes_total', { outcome: 'written' });
    await fetchRaw(base, '/api/visitor/track', { method: 'POST', headers: { 'x-session-id': unique('s') } });
    await expect
      .poll(async () => sample(await scrape(), 'visitor_flushes_total', { outcome: 'written' }))
      .toBeGreaterThan(flushed);
    const text = await scrape();
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    // Left out on purpose: observing every garbage collection costs each cached answer CPU (metrics.ts).
    expect(text).not.toContain('nodejs_gc_duration_seconds');
    expect(sample(text, 'db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    if (dialect === 'postgres') expect(text).toMatch(/^db_pool_connections\{state="idle"\} \d/m);
  });
});

describe.each(DIALECTS)('GET /metrics with WORKERS=2 [%s]', (dialect) => {
  const dir = tempDir();
  let server: AppProcess | undefined;
  let database: ProcessDatabase | undefined;
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it(
    "one scrape, whichever worker takes it, sums every worker's counts",
    async () => {
      database = await processDatabase(dialect, dir());
      server = await startAppProcess(
        {
          DATABASE_URL: database.url,
          WORKERS: '2',
          // Connections handed to the workers in turn (Linux's default, set so no other policy applies).
          NODE_CLUSTER_SCHED_POLICY: 'rr',
          METRICS_TOKEN: TOKEN,
          ADMIN_PASSWORD: 'workers-admin-password',
          WEB_ROOT: path.join(dir(), 'no-web-app'),
        },
        STARTUP_TIMEOUT_MS,
      );
      const base = server.url;
      // Both workers listen: the primary hands connections only to those that do.
      const running = server;
      await expect
        .poll(() => running.output().match(/Server listening at http:\/\/127\.0\.0\.1/g)?.length ?? 0, {
          timeout: STARTUP_TIMEOUT_MS,
        })
        .toBe(2);
      // A connection of its own each time: the primary hands new connections to the workers in turn.
      const fresh = { connection: 'close' };
      for (let index = 0; index < 6; index++)
        expect((await fetchRaw(base, '/api/ghadis', { headers: fresh })).status).toBe(200);
      const scrape = async () =>
        (
          await fetchRaw(base, '/metrics', { headers: { ...fresh, authorization: `Bearer ${TOKEN}` } })
        ).body.toString();
      const text = await scrape();
      const route = { method: 'GET', route: '/api/ghadis', status_code: '200' };
      expect(sample(text, 'http_request_duration_seconds_count', route)).toBe(6);
      // Each worker built the answer once: both are in the sum.
      expect(sample(text, 'public_read_cache_lookups_total', { route: '/api/ghadis', outcome: 'miss' })).toBe(
        2,
      );
      expect(sample(text, 'public_read_cache_lookups_total', { route: '/api/ghadis', outcome: 'hit' })).toBe(
        4,
      );
    },
    STARTUP_TIMEOUT_MS + 30_000,
  );
});
