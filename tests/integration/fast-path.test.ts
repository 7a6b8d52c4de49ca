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
 * (app.inject enters Fastify directly and never meets it). A public answer is the same whichever
 * path sends it, so the tests tell the paths apart by what reaches Fastify (a hook of their own).
 */
describe.each(DIALECTS)('the fast path [%s]', (dialect) => {
  let web: TestApp;
  let base: string;
  let host: string;
  let adminToken: string;
  let ghadi: GhadiRecord;
  let slug: string;
  /** Request lines that reached Fastify, over the socket (app.inject's are left out). */
  const reached: string[] = [];
  const get = (path: string, options: RawOptions = {}) => fetchRaw(base, path, options);
  /** The answer, and whether Fastify answered it (else the fast path did). */
  const through = async (path: string, options: RawOptions = {}) => {
    const before = reached.length;
    const answer = await get(path, options);
    return { answer, fastify: reached.length > before };
  };

  beforeAll(async () => {
    web = await createTestApp(dialect, { serveWebApp: WEB_BUILT });
    web.app.addHook('onResponse', (request, _reply, done) => {
      if (request.headers['user-agent'] !== 'lightMyRequest') reached.push(request.url);
      done();
    });
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
            `/satta-results/${name}?month=${month}&year=${year}`,
          ]
        : []),
    ];
    for (const path of paths) {
      for (const encoding of ['', 'gzip', 'br']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        const first = await get(path, { headers });
        const viaFastify = await web.app.inject({ url: path, headers: { ...headers, host } });
        const { answer: second, fastify } = await through(path, { headers });
        // The first request built the answer; the second comes through the fast path.
        expect(fastify, path).toBe(false);
        // The same answer for everyone: no request id on either path.
        expect(second.headers['x-request-id'], path).toBeUndefined();
        expect(viaFastify.headers['x-request-id'], path).toBeUndefined();
        expect(second.status, path).toBe(viaFastify.statusCode);
        expect(second.body.equals(viaFastify.rawPayload), path).toBe(true);
        expect(comparable(second.headers), path).toEqual(comparable(viaFastify.headers));
        expect(first.body.equals(second.body), path).toBe(true);
        const notModified = await through(path, {
          headers: { ...headers, 'if-none-match': String(second.headers.etag) },
        });
        expect(notModified.answer.status, path).toBe(304);
        expect(notModified.fastify, path).toBe(false);
      }
    }
  });

  it('sends a shared answer whatever the caller (no request id, any origin), and leaves to Fastify what it is not sure of', async () => {
    await get('/api/ghadis');
    const proxied = await through('/api/ghadis', { headers: { 'x-request-id': 'proxy-123' } });
    expect(proxied.fastify).toBe(false);
    expect(proxied.answer.headers['x-request-id']).toBeUndefined();
    // An admin's token on GET /api/results: the live admin answer, theirs alone.
    const admin = await through('/api/results', { headers: { authorization: `Bearer ${adminToken}` } });
    expect(admin.fastify).toBe(true);
    expect(admin.answer.headers['x-request-id']).toBeDefined();
    expect(admin.answer.headers['cache-control']).toBe('private, no-store');
    expect(admin.answer.body.toString()).toContain('CreatedById');
    // Unknown names, bad queries, searches, the admin-only neighbour and another origin: all through Fastify.
    for (const [path, status] of [
      ['/api/results/no-such-ghadi', 404],
      ['/api/results/count', 401],
      ['/api/results?month=2026-13', 400],
      ['/api/results?q=21', 200],
      [`/api/results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}?month=13&year=2026`, 400],
      [`/api/results/${'x'.repeat(101)}`, 404],
      // A month of a year without results: made per request, never kept.
      ...(WEB_BUILT
        ? ([
            [`/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}?month=1&year=2001`, 200],
          ] as const)
        : []),
    ] as const) {
      const { answer, fastify } = await through(path);
      expect(answer.status, path).toBe(status);
      expect(fastify, path).toBe(true);
    }
    // Another site's page reading the public API gets the same answer as this site's pages.
    for (const origin of ['https://elsewhere.example', base]) {
      const { answer, fastify } = await through('/api/ghadis', { headers: { origin } });
      expect(fastify, origin).toBe(false);
      expect(answer.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('reads headers in any letter case, and a name given twice as Node joins it', async () => {
    await get('/api/ghadis');
    const viaFastify = async (headers: Record<string, string>) =>
      web.app.inject({ url: '/api/ghadis', headers: { ...headers, host } });
    // Header names as a client spells them (gzip is made when first asked, through Fastify).
    await get('/api/ghadis', { headers: { 'accept-encoding': 'gzip' } });
    const shouted = await through('/api/ghadis', { headers: { 'ACCEPT-ENCODING': 'gzip', ORIGIN: base } });
    expect(shouted.fastify).toBe(false);
    expect(shouted.answer.headers['content-encoding']).toBe('gzip');
    expect(shouted.answer.headers.etag).toBe((await viaFastify({ 'accept-encoding': 'gzip' })).headers.etag);
    // Two Accept-Encoding lines read as one list, as Node (and so Fastify) reads them.
    const twice = await through('/api/ghadis', { headers: { 'accept-encoding': ['identity', 'br'] } });
    expect(twice.fastify).toBe(false);
    expect(twice.answer.headers['content-encoding']).toBe('br');
    expect(twice.answer.headers.etag).toBe(
      (await viaFastify({ 'accept-encoding': 'identity, br' })).headers.etag,
    );
  });

  it('sends the new answer after a change, not what it sent for the same request before', async () => {
    const read = () => through('/api/ghadis', { headers: { 'accept-encoding': 'br' } });
    await read();
    const before = await read();
    expect(before.fastify).toBe(false);
    const other = await createGhadi(web.app, adminToken, { NameEn: unique('Changed After ') });
    // Rebuilt before the write answered (it was read since it was built): the fast path sends it.
    const after = await read();
    expect(after.fastify).toBe(false);
    expect(after.answer.headers.etag).not.toBe(before.answer.headers.etag);
    expect(decode(after.answer.body, 'br')).toContain(other.NameEn);
  });

  it('keeps answering from the fast path after more made-up addresses than it remembers', async () => {
    await get('/api/ghadis');
    for (let index = 0; index < 1100; index++) {
      const answer = await get(`/api/ghadis?visit=${index}`);
      expect(answer.status).toBe(200);
    }
    const { answer: after, fastify } = await through('/api/ghadis');
    expect(after.status).toBe(200);
    expect(fastify).toBe(false);
    expect(after.body.toString()).toContain(ghadi.NameEn);
    // A line too long to remember is still answered, resolved each time.
    const long = await through(`/api/ghadis?pad=${'x'.repeat(3000)}`);
    expect(long.fastify).toBe(false);
    expect(long.answer.body.equals(after.body)).toBe(true);
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
