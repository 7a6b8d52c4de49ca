import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createContentBlock,
  createGhadi,
  expectStatus,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { decode, fetchRaw, listen, type RawOptions } from '../support/http.js';
import { createTestApp, DIALECTS, noteUnbuilt, type TestApp, WEB_BUILT } from '../support/test-app.js';

noteUnbuilt('fast-path.test.ts');

/** Headers that legitimately differ between two answers of the same thing. */
function comparable(headers: Record<string, unknown>) {
  const { date, connection, 'keep-alive': _keepAlive, 'x-request-id': _id, ...rest } = headers;
  return rest;
}

/**
 * The fast path sits in front of Fastify in Node's HTTP server, so these tests listen on a real port
 * (app.inject enters Fastify directly and never meets it). An answer from the fast path carries no
 * request id of its own (it logs nothing); one from Fastify always does.
 */
describe.each(DIALECTS)('the fast path [%s]', (dialect) => {
  let web: TestApp;
  let base: string;
  let host: string;
  let adminToken: string;
  let ghadi: GhadiRecord;
  let slug: string;
  const get = (path: string, options: RawOptions = {}) => fetchRaw(base, path, options);

  beforeAll(async () => {
    web = await createTestApp(dialect, { serveWebApp: WEB_BUILT });
    base = await listen(web.app);
    host = base.slice('http://'.length);
    adminToken = await loginAdmin(web.app);
    ghadi = await createGhadi(web.app, adminToken, { NameEn: unique('Front Door ') });
    await submitResult(web.app, adminToken, { ghadiId: ghadi.GID, result: '21', dateTime: today() });
    slug = unique('door-');
    await createContentBlock(web.app, adminToken, { Slug: slug, Content: '<p>door</p>' });
  });
  afterAll(async () => {
    await web?.close();
  });

  it('answers every read of the table with exactly the bytes and headers Fastify sends', async () => {
    const name = encodeURIComponent(ghadi.NameEn.toLowerCase());
    const [year, month] = today().split('-').map(Number) as [number, number];
    const paths = [
      '/api/ghadis',
      '/api/results',
      `/api/results?month=${today().slice(0, 7)}`,
      `/api/results/${name}`,
      `/api/results/${name}?month=${month}&year=${year}`,
      `/api/contentblocks/slug/${slug}`,
      '/api/home',
      '/api/site',
      ...(WEB_BUILT
        ? [
            '/',
            '/?utm_source=search',
            `/satta-results/${name}`,
            `/satta-results/${name}?month=${month}&year=${year - 1}`,
          ]
        : []),
    ];
    for (const path of paths) {
      for (const encoding of ['', 'gzip', 'br']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        const first = await get(path, { headers });
        const viaFastify = await web.app.inject({ url: path, headers: { ...headers, host } });
        const second = await get(path, { headers });
        // The first request built the answer; the second comes through the fast path.
        expect(second.headers['x-request-id'], path).toBeUndefined();
        expect(viaFastify.headers['x-request-id'], path).toBeDefined();
        expect(second.status, path).toBe(viaFastify.statusCode);
        expect(second.body.equals(viaFastify.rawPayload), path).toBe(true);
        expect(comparable(second.headers), path).toEqual(comparable(viaFastify.headers));
        expect(first.body.equals(second.body), path).toBe(true);
        const notModified = await get(path, {
          headers: { ...headers, 'if-none-match': String(second.headers.etag) },
        });
        expect(notModified.status, path).toBe(304);
        expect(notModified.headers['x-request-id'], path).toBeUndefined();
      }
    }
  });

  it('echoes a caller’s request id, and leaves to Fastify what it is not sure of', async () => {
    await get('/api/ghadis');
    expect(
      (await get('/api/ghadis', { headers: { 'x-request-id': 'proxy-123' } })).headers['x-request-id'],
    ).toBe('proxy-123');
    // An admin's token on GET /api/results: the live admin answer.
    const admin = await get('/api/results', { headers: { authorization: `Bearer ${adminToken}` } });
    expect(admin.headers['x-request-id']).toBeDefined();
    expect(admin.body.toString()).toContain('CreatedById');
    // Unknown names, bad queries, searches, the admin-only neighbour and another origin: all through Fastify.
    for (const [path, status] of [
      ['/api/results/no-such-ghadi', 404],
      ['/api/results/count', 401],
      ['/api/results?month=2026-13', 400],
      ['/api/results?q=21', 200],
      [`/api/results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}?month=13&year=2026`, 400],
      [`/api/results/${'x'.repeat(101)}`, 404],
    ] as const) {
      const answer = await get(path);
      expect(answer.status, path).toBe(status);
      expect(answer.headers['x-request-id'], path).toBeDefined();
    }
    const crossOrigin = await get('/api/ghadis', { headers: { origin: 'https://elsewhere.example' } });
    expect(crossOrigin.headers['x-request-id']).toBeDefined();
    // The same origin, as a browser names it, stays on the fast path.
    const sameOrigin = await get('/api/ghadis', { headers: { origin: base } });
    expect(sameOrigin.headers['x-request-id']).toBeUndefined();
  });

  it('reads headers in any letter case, and a name given twice as Node joins it', async () => {
    await get('/api/ghadis');
    const viaFastify = async (headers: Record<string, string>) =>
      web.app.inject({ url: '/api/ghadis', headers: { ...headers, host } });
    // Header names as a client spells them.
    const shouted = await get('/api/ghadis', { headers: { 'ACCEPT-ENCODING': 'gzip', ORIGIN: base } });
    expect(shouted.headers['x-request-id']).toBeUndefined();
    expect(shouted.headers['content-encoding']).toBe('gzip');
    expect(shouted.headers.etag).toBe((await viaFastify({ 'accept-encoding': 'gzip' })).headers.etag);
    // Two Accept-Encoding lines read as one list, as Node (and so Fastify) reads them.
    const twice = await get('/api/ghadis', { headers: { 'accept-encoding': ['identity', 'br'] } });
    expect(twice.headers['x-request-id']).toBeUndefined();
    expect(twice.headers['content-encoding']).toBe('br');
    expect(twice.headers.etag).toBe((await viaFastify({ 'accept-encoding': 'identity, br' })).headers.etag);
    // Two origins, one of them another site's: not this site's request, so Fastify's.
    const twoOrigins = await get('/api/ghadis', { headers: { origin: [base, 'https://elsewhere.example'] } });
    expect(twoOrigins.headers['x-request-id']).toBeDefined();
  });

  it('sends the new answer after a change, not what it sent for the same request before', async () => {
    const read = () => get('/api/ghadis', { headers: { 'accept-encoding': 'br' } });
    await read();
    const before = await read();
    expect(before.headers['x-request-id']).toBeUndefined();
    const other = await createGhadi(web.app, adminToken, { NameEn: unique('Changed After ') });
    await read(); // rebuilt through Fastify
    const after = await read();
    expect(after.headers['x-request-id']).toBeUndefined();
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(decode(after.body, 'br')).toContain(other.NameEn);
  });

  it('keeps answering from the fast path after more made-up addresses than it remembers', async () => {
    await get('/api/ghadis');
    for (let index = 0; index < 1100; index++) {
      const answer = await get(`/api/ghadis?visit=${index}`);
      expect(answer.status).toBe(200);
    }
    const after = await get('/api/ghadis');
    expect(after.status).toBe(200);
    expect(after.headers['x-request-id']).toBeUndefined();
    expect(after.body.toString()).toContain(ghadi.NameEn);
    // A line too long to remember is still answered, resolved each time.
    const long = await get(`/api/ghadis?pad=${'x'.repeat(3000)}`);
    expect(long.headers['x-request-id']).toBeUndefined();
    expect(long.body.equals(after.body)).toBe(true);
  });

  it('tracks a browser’s visit (with its Origin header) like the route, and leaves invalid ones to it', async () => {
    const statsOf = async () =>
      expectStatus<{ totalUsers: number }>(await call(web.app, { url: '/api/visitor/stats' }), 200)
        .totalUsers;
    const before = await statsOf();
    const tracked = await get('/api/visitor/track', {
      method: 'POST',
      headers: { 'x-session-id': ` ${unique('door')} `, origin: base },
    });
    expect(tracked.status).toBe(200);
    expect(tracked.headers['x-request-id']).toBeUndefined();
    expect(tracked.body.toString()).toBe('{"success":true}');
    expect(tracked.headers['cache-control']).toBe('no-store');
    expect(tracked.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(await statsOf()).toBe(before + 1);

    const crossOrigin = await get('/api/visitor/track', {
      method: 'POST',
      headers: { 'x-session-id': unique('door'), origin: 'https://elsewhere.example' },
    });
    expect(crossOrigin.status).toBe(200);
    expect(crossOrigin.headers['x-request-id']).toBeDefined();

    const invalid: Array<Record<string, string>> = [
      {},
      { 'x-session-id': 'has space' },
      { 'x-session-id': 'x'.repeat(129) },
    ];
    for (const headers of invalid) {
      const refused = await get('/api/visitor/track', { method: 'POST', headers });
      expect(refused.status).toBe(400);
      expect(refused.headers['x-request-id']).toBeDefined();
    }
  });
});

describe.each(DIALECTS)('the fast path with PUBLIC_URL [%s]', (dialect) => {
  it('takes a browser’s visit when its Origin is PUBLIC_URL, and no other', async () => {
    const web = await createTestApp(dialect, { env: { PUBLIC_URL: 'https://results.example' } });
    try {
      const base = await listen(web.app);
      const track = (origin: string) =>
        fetchRaw(base, '/api/visitor/track', {
          method: 'POST',
          headers: { 'x-session-id': unique('v'), origin },
        });
      expect((await track('https://results.example')).headers['x-request-id']).toBeUndefined();
      expect((await track(base)).headers['x-request-id']).toBeDefined();
    } finally {
      await web.close();
    }
  });
});
