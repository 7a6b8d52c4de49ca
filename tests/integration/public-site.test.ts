import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/server/app.js';
import type { Database } from '../../src/server/db/database.js';
import { ChangeLog } from '../../src/server/modules/changes/change-log.js';
import { ChangeLogRepository } from '../../src/server/modules/changes/change-log-repository.js';
import { ContentBlocksRepository } from '../../src/server/modules/content-blocks/content-blocks-repository.js';
import { ContentBlocksService } from '../../src/server/modules/content-blocks/content-blocks-service.js';
import { GhadisRepository } from '../../src/server/modules/ghadis/ghadis-repository.js';
import { GhadisService } from '../../src/server/modules/ghadis/ghadis-service.js';
import { ResultsRepository } from '../../src/server/modules/results/results-repository.js';
import { ResultsService } from '../../src/server/modules/results/results-service.js';
import { UsermapsRepository } from '../../src/server/modules/usermaps/usermaps-repository.js';
import { itemAnswer, listAnswer } from '../../src/shared/schemas/common.js';
import { contentBlockRecord } from '../../src/shared/schemas/content-blocks.js';
import { type GhadiRecord, ghadiRecord } from '../../src/shared/schemas/ghadis.js';
import { publicResultRecord, type ResultRecord, resultListAnswer } from '../../src/shared/schemas/results.js';
import {
  call,
  createContentBlock,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  type List,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { createTestApp, DIALECTS, SITE_TIMEZONE, useTestApp } from '../support/test-app.js';

/** The server-side rendering needs the built bundle (npm run build; `npm test` builds first). */
const BUILT =
  fs.existsSync(path.resolve('dist/web/public.html')) &&
  fs.existsSync(path.resolve('dist/ssr/entry-server.js'));
if (!BUILT) {
  process.stderr.write(
    '\n  public-site.test.ts: dist/ssr is not built, so the server-rendered page tests are skipped ' +
      '(run npm run build first; npm test does).\n\n',
  );
}

/** The services the API's live handlers call, on the same database, bypassing every cache. */
function liveServices(database: Database, log: FastifyBaseLogger) {
  const changes = new ChangeLog(database, new ChangeLogRepository(database), log);
  const ghadis = new GhadisService(new GhadisRepository(database), SITE_TIMEZONE, changes);
  const results = new ResultsService(
    new ResultsRepository(database),
    ghadis,
    new UsermapsRepository(database),
    SITE_TIMEZONE,
    changes,
  );
  const blocks = new ContentBlocksService(new ContentBlocksRepository(database), changes);
  /** What a live handler sends: the answer through the route's response schema. */
  const json = <T extends z.ZodType>(schema: T, value: z.input<T>) =>
    JSON.stringify(z.encode(schema, value as z.output<T>));
  return {
    ghadis: async () => json(listAnswer(ghadiRecord), { success: true, data: await ghadis.list() }),
    results: async (month?: string) =>
      json(resultListAnswer, { success: true, ...(await results.list({ month }, false)) }),
    ghadiResults: async (name: string, month?: number, year?: number) => {
      const ghadi = await ghadis.findByName(name);
      if (!ghadi) throw new Error(`no ghadi named ${name}`);
      return json(listAnswer(publicResultRecord), {
        success: true,
        data: await results.listForGhadi(ghadi.gid, month, year),
      });
    },
    content: async (slug: string) =>
      json(itemAnswer(contentBlockRecord), { success: true, data: await blocks.findActiveBySlug(slug) }),
  };
}

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

/** Reads a server-sent event stream until `until` matches what arrived, or the time runs out. */
function readEvents(
  url: string,
  until: (text: string) => boolean,
  timeoutMs: number,
): { opened: Promise<http.IncomingMessage>; done: Promise<string> } {
  let text = '';
  let resolveOpened: (response: http.IncomingMessage) => void = () => {};
  const opened = new Promise<http.IncomingMessage>((resolve) => {
    resolveOpened = resolve;
  });
  const done = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`No matching event within ${timeoutMs} ms; got: ${JSON.stringify(text)}`));
    }, timeoutMs);
    const request = http.get(url, (response) => {
      resolveOpened(response);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        if (until(text)) {
          clearTimeout(timer);
          request.destroy();
          resolve(text);
        }
      });
      response.on('end', () => {
        clearTimeout(timer);
        resolve(text);
      });
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  return { opened, done };
}

describe.each(DIALECTS)('public site [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;
  let live: ReturnType<typeof liveServices>;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
    live = liveServices(t.database, t.app.log);
  });

  const get = (url: string, headers: Record<string, string> = {}) => call(t.app, { url, headers });
  const declare = (ghadi: GhadiRecord, result: string, date = today()) =>
    submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result, dateTime: date });

  describe('cached API reads', () => {
    it('equal the live answers, and a write replaces them (new ETag, new value)', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const month = today().slice(0, 7);
      const name = ghadi.NameEn.toLowerCase();
      const urls = {
        ghadis: '/api/ghadis',
        results: `/api/results?month=${month}`,
        all: '/api/results',
        ghadi: `/api/results/${encodeURIComponent(name)}`,
      };

      await declare(ghadi, '11', daysFromToday(-1));
      const before = await get(urls.ghadis);
      expect(before.body).toBe(await live.ghadis());
      expect((await get(urls.results)).body).toBe(await live.results(month));
      expect((await get(urls.all)).body).toBe(await live.results());
      expect((await get(urls.ghadi)).body).toBe(await live.ghadiResults(name));
      // A second read is the same bytes with the same ETag.
      const again = await get(urls.ghadis);
      expect(again.body).toBe(before.body);
      expect(again.headers.etag).toBe(before.headers.etag);

      await declare(ghadi, '22');
      const after = await get(urls.ghadis);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.body).toBe(await live.ghadis());
      const record = after.json<List<GhadiRecord>>().data.find((g) => g.GID === ghadi.GID);
      expect(record).toMatchObject({ TodayResult: '22', YesterdayResult: '11' });
      expect((await get(urls.ghadi)).body).toBe(await live.ghadiResults(name));
      expect((await get(urls.results)).body).toBe(await live.results(month));
    });

    it('answer the month and year query of GET /api/results/{name} like the live route, 404 included', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const name = ghadi.NameEn.toLowerCase();
      await declare(ghadi, '33', `${today().slice(0, 7)}-01`);
      const [year, month] = today().split('-').map(Number) as [number, number];
      const url = `/api/results/${encodeURIComponent(name)}?month=${month}&year=${year}`;
      expect((await get(url)).body).toBe(await live.ghadiResults(name, month, year));

      const empty = await get(`/api/results/${encodeURIComponent(name)}?month=${month}&year=${year - 3}`);
      expect(empty.statusCode).toBe(404);
      expect(empty.json<Failure>()).toEqual({ success: false, message: `No data available for ${name}` });

      const unknown = await get('/api/results/no-such-ghadi');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<Failure>().message).toBe('No data available for no-such-ghadi');

      // Validation stays the route's own.
      expect((await get(`/api/results/${encodeURIComponent(name)}?month=13`)).statusCode).toBe(400);
    });

    it('content blocks: cached, 404 until created, replaced when saved', async () => {
      const slug = unique('promo-');
      const missing = await get(`/api/contentblocks/slug/${slug}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json<Failure>()).toEqual({ success: false, message: 'Content block not found' });

      const block = await createContentBlock(t.app, adminToken, { Slug: slug, Content: '<p>first</p>' });
      const first = await get(`/api/contentblocks/slug/${slug}`);
      expect(first.statusCode).toBe(200);
      expect(first.body).toBe(await live.content(slug));

      await call(t.app, {
        method: 'PUT',
        url: `/api/contentblocks/${block._id}`,
        token: adminToken,
        body: { Title: block.Title, Slug: slug, Content: '<p>second</p>', isActive: true },
      });
      const second = await get(`/api/contentblocks/slug/${slug}`);
      expect(second.headers.etag).not.toBe(first.headers.etag);
      expect(second.body).toBe(await live.content(slug));
      expect(second.body).toContain('second');
    });

    it('an admin token still gets the live admin answer of GET /api/results', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      await declare(ghadi, '44');
      const answer = expectStatus<List<ResultRecord>>(
        await call(t.app, { url: '/api/results', token: adminToken }),
        200,
      );
      expect(answer.data.find((row) => row.GID === ghadi.GID)).toMatchObject({
        Result: '44',
        CreatedById: 1,
      });
      const anonymous = await get('/api/results');
      expect(anonymous.body).not.toContain('CreatedById');
    });

    it('send a strong ETag per encoding, Cache-Control, Vary, and 304 to If-None-Match', async () => {
      const plain = await get('/api/ghadis');
      expect(plain.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      const etag = String(plain.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);

      for (const encoding of ['gzip', 'br']) {
        const encoded = await get('/api/ghadis', { 'accept-encoding': encoding });
        expect(encoded.headers['content-encoding']).toBe(encoding);
        expect(encoded.headers.vary).toBe('accept-encoding');
        expect(encoded.headers.etag).not.toBe(etag);
        expect(decode(encoded.rawPayload, encoding)).toBe(plain.body);
        const notModified = await get('/api/ghadis', {
          'accept-encoding': encoding,
          'if-none-match': String(encoded.headers.etag),
        });
        expect(notModified.statusCode).toBe(304);
        expect(notModified.body).toBe('');
      }
      expect((await get('/api/ghadis', { 'if-none-match': etag })).statusCode).toBe(304);
      expect((await get('/api/ghadis', { 'if-none-match': '"other"' })).statusCode).toBe(200);
      expect(
        (await get('/api/ghadis', { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding'],
      ).toBe('gzip');
      const head = await call(t.app, { method: 'HEAD', url: '/api/ghadis' });
      expect(head.statusCode).toBe(200);
      expect(head.headers.etag).toBe(etag);
    });
  });

  describe("the site's new day", () => {
    it('moves today’s results to yesterday at SITE_TIMEZONE midnight without any write', async () => {
      const own = await createTestApp(dialect);
      try {
        const token = await loginAdmin(own.app);
        const ghadi = await createGhadi(own.app, token);
        await submitResult(own.app, token, { ghadiId: ghadi.GID, result: '66', dateTime: today() });
        const read = async () =>
          expectStatus<List<GhadiRecord>>(await call(own.app, { url: '/api/ghadis' }), 200).data.find(
            (g) => g.GID === ghadi.GID,
          );
        expect(await read()).toMatchObject({ TodayResult: '66', YesterdayResult: '' });
        // Only Date is faked: the database drivers keep their real timers.
        vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 60 * 60 * 1000 });
        expect(await read()).toMatchObject({ TodayResult: '', YesterdayResult: '66' });
      } finally {
        vi.useRealTimers();
        await own.close();
      }
    });
  });

  describe('sitemap and robots', () => {
    it('/sitemap.xml lists the home page and every ghadi page; /robots.txt points to it', async () => {
      const ghadi = await createGhadi(t.app, adminToken, { NameEn: unique('Site Map ') });
      const sitemap = await get('/sitemap.xml', { host: 'results.example' });
      expect(sitemap.statusCode).toBe(200);
      expect(sitemap.headers['content-type']).toContain('application/xml');
      expect(sitemap.body).toContain('<loc>http://results.example/</loc>');
      expect(sitemap.body).toContain(
        `<loc>http://results.example/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}</loc>`,
      );
      for (const starter of ['ncr', 'delhi%20bazar', 'disawer']) {
        expect(sitemap.body).toContain(`/satta-results/${starter}</loc>`);
      }

      const robots = await get('/robots.txt', { host: 'results.example' });
      expect(robots.statusCode).toBe(200);
      expect(robots.body).toContain('User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /agent\n');
      expect(robots.body).toContain('Sitemap: http://results.example/sitemap.xml');
    });
  });

  describe('live events', () => {
    it('GET /api/events streams a change within 2 s of a result write, and app.close() ends the stream', async () => {
      const own = await createTestApp(dialect);
      let closed = false;
      try {
        const token = await loginAdmin(own.app);
        const ghadi = await createGhadi(own.app, token);
        const address = (await own.app.listen({ port: 0, host: '127.0.0.1' })) || '';
        const port = (own.app.server.address() as AddressInfo).port;
        expect(address).toContain(String(port));
        const stream = readEvents(
          `http://127.0.0.1:${port}/api/events`,
          (text) => text.includes('"kind":"result"'),
          2000,
        );
        const response = await stream.opened;
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        expect(response.headers['content-encoding']).toBeUndefined();
        await submitResult(own.app, token, { ghadiId: ghadi.GID, result: '55', dateTime: today() });
        const text = await stream.done;
        expect(text).toContain(`data: {"kind":"result","gid":${ghadi.GID},"date":"${today()}"}\n\n`);

        // A stream left open must not keep the server from closing.
        const lingering = readEvents(`http://127.0.0.1:${port}/api/events`, () => false, 5000);
        await lingering.opened;
        const started = Date.now();
        await own.close();
        closed = true;
        await lingering.done;
        expect(Date.now() - started).toBeLessThan(3000);
      } finally {
        if (!closed) await own.close();
      }
    });
  });
});

describe.skipIf(!BUILT).each(DIALECTS)('server-rendered public pages [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;
  // The shared test app serves the API only; this one on the same database serves the pages too.
  // Writes go through it as well, since each app's caches hear only its own change feed.
  let web: FastifyInstance;
  beforeAll(async () => {
    web = await buildApp(t.config, { database: t.database, logger: false });
    adminToken = await loginAdmin(web);
  });
  afterAll(async () => {
    await web?.close();
  });
  const page = (url: string, headers: Record<string, string> = {}) =>
    call(web, { url, headers: { host: 'results.example', ...headers } });
  const declare = (ghadi: GhadiRecord, result: string, date = today()) =>
    submitResult(web, adminToken, { ghadiId: ghadi.GID, result, dateTime: date });

  it('/ arrives as complete HTML with every ghadi and today’s results, then hydrates', async () => {
    const ghadi = await createGhadi(web, adminToken, { OrderId: 0 });
    await declare(ghadi, '77');
    const response = await page('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    const html = response.body;
    const chart = html.slice(html.indexOf('data-testid="ghadi-chart"'));
    expect(chart).toContain(`>${ghadi.NameEn}</a>`);
    expect(chart).toContain('>77</span>');
    for (const name of ['NCR', 'Delhi Bazar', 'Disawer']) expect(html).toContain(`>${name}</a>`);
    expect(html).toContain(`href="/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}"`);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain('<meta name="description"');
    expect(html).toContain('<link rel="canonical" href="http://results.example/" />');
    expect(html).toContain('10<!-- --> for <!-- -->1050');
    expect(html).toContain('Section not found.');
    expect(html).toContain('<script type="application/json" id="page-data">');
    // The only scripts are the module files and the (never executed) data.
    expect(html.match(/<script(?![^>]*(type="module"[^>]*src=|type="application\/json"))/g)).toBeNull();
  });

  it('a declared result and a new blog section show in the next page, with a new ETag', async () => {
    const first = await page('/');
    const ghadi = await createGhadi(web, adminToken);
    await createContentBlock(web, adminToken, { Slug: 'blog-section', Content: '<p>Fresh blog post</p>' });
    const second = await page('/');
    expect(second.headers.etag).not.toBe(first.headers.etag);
    expect(second.body).toContain(`>${ghadi.NameEn}</a>`);
    expect(second.body).toContain('<p>Fresh blog post</p>');
    expect((await page('/', { 'if-none-match': String(second.headers.etag) })).statusCode).toBe(304);
  });

  it('/satta-results/{name} holds the month’s rows, the month in its title and a canonical link', async () => {
    const ghadi = await createGhadi(web, adminToken, { NameEn: unique('Moon Light ') });
    const name = ghadi.NameEn.toLowerCase();
    const month = today().slice(0, 7);
    await declare(ghadi, '61', `${month}-01`);
    const path = `/satta-results/${encodeURIComponent(name)}`;
    const response = await page(path);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const [year, monthNumber] = today().split('-').map(Number) as [number, number];
    const monthName = new Date(Date.UTC(year, monthNumber - 1, 1)).toLocaleString('en', {
      month: 'long',
      timeZone: 'UTC',
    });
    expect(html).toContain(`<title>${ghadi.NameEn} Satta Result ${monthName} ${year}`);
    expect(html).toMatch(
      new RegExp(`<meta name="description" content="${ghadi.NameEn}[^"]*${monthName} ${year}`),
    );
    expect(html).toContain(`<link rel="canonical" href="http://results.example${path}" />`);
    expect(html).toContain('<th scope="row">01</th><td>61</td>');
    expect(html.match(/<th scope="row">\d\d<\/th>/g)).toHaveLength(31);
    expect(html).toContain('<caption');

    // An earlier month by query: server-rendered too, with no data.
    const earlier = await page(`${path}?month=${monthNumber}&year=${year - 1}`);
    expect(earlier.statusCode).toBe(200);
    expect(earlier.body).toContain(`No data available for ${name}`);
    expect(earlier.body).toContain(
      `href="http://results.example${path}?month=${monthNumber}&amp;year=${year - 1}"`,
    );
  });

  it('an unknown ghadi answers 404 with the no-data page', async () => {
    const response = await page('/satta-results/no-such-ghadi');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('No data available for no-such-ghadi');
    expect(response.body).toContain('<meta name="robots" content="noindex" />');
    expect(response.body).toContain('Back to Chart');
  });

  it('keeps pages for a few origins only; pages for more are built for their request alone', async () => {
    for (let index = 0; index < 10; index++) {
      const answer = await call(web, {
        url: '/',
        headers: { host: `mirror${index}.example`, 'accept-encoding': 'br' },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toBe('');
    }
    const late = await call(web, { url: '/', headers: { host: 'late.example', 'accept-encoding': 'br' } });
    expect(late.statusCode).toBe(200);
    // Not kept, so not compressed either: it is sent once.
    expect(late.headers['content-encoding']).toBeUndefined();
    expect(late.body).toContain('<link rel="canonical" href="http://late.example/" />');
  });

  it('does not serve the page template as a file', async () => {
    expect((await call(web, { url: '/public.html' })).body).not.toContain('<!--page-body-->');
  });
});

describe.each(DIALECTS)('the front door [%s]', (dialect) => {
  // A server of its own that listens: the front door sits in front of Fastify in Node's HTTP server,
  // so app.inject (which enters Fastify directly) never meets it.
  const t = useTestApp(dialect);
  let web: FastifyInstance;
  let base: string;
  let host: string;
  let adminToken: string;
  let ghadi: GhadiRecord;

  beforeAll(async () => {
    web = await buildApp(t.config, { database: t.database, logger: false });
    await web.listen({ port: 0, host: '127.0.0.1' });
    host = `127.0.0.1:${(web.server.address() as AddressInfo).port}`;
    base = `http://${host}`;
    adminToken = await loginAdmin(web);
    ghadi = await createGhadi(web, adminToken, { NameEn: unique('Front Door ') });
    await submitResult(web, adminToken, { ghadiId: ghadi.GID, result: '21', dateTime: today() });
    await createContentBlock(web, adminToken, { Slug: unique('door-'), Content: '<p>door</p>' });
  });
  afterAll(async () => {
    await web?.close();
  });

  interface Raw {
    status: number;
    headers: http.IncomingHttpHeaders;
    body: Buffer;
  }
  const fetchRaw = (path: string, options: { method?: string; headers?: Record<string, string> } = {}) =>
    new Promise<Raw>((resolve, reject) => {
      const request = http.request(
        `${base}${path}`,
        { method: options.method ?? 'GET', headers: options.headers },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      request.on('error', reject);
      request.end();
    });
  const comparable = (headers: Record<string, unknown>) => {
    const { date, connection, 'keep-alive': _keepAlive, 'x-request-id': _id, ...rest } = headers;
    return rest;
  };

  it('answers the hot public reads with exactly the bytes and headers Fastify sends', async () => {
    const name = encodeURIComponent(ghadi.NameEn.toLowerCase());
    const [year, month] = today().split('-').map(Number) as [number, number];
    const paths = [
      '/api/ghadis',
      '/api/results',
      `/api/results?month=${today().slice(0, 7)}`,
      `/api/results/${name}`,
      `/api/results/${name}?month=${month}&year=${year}`,
      ...(BUILT
        ? ['/', `/satta-results/${name}`, `/satta-results/${name}?month=${month}&year=${year - 1}`]
        : []),
      '/sitemap.xml',
      '/robots.txt',
    ];
    for (const path of paths) {
      for (const encoding of ['', 'gzip', 'br']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        const first = await fetchRaw(path, { headers });
        const viaFastify = await web.inject({ url: path, headers: { ...headers, host } });
        const second = await fetchRaw(path, { headers });
        // The answer is cached by the first request, so the second comes through the front door,
        // which logs nothing and so adds no request id of its own.
        expect(second.headers['x-request-id'], path).toBeUndefined();
        expect(viaFastify.headers['x-request-id'], path).toBeDefined();
        expect(second.status, path).toBe(viaFastify.statusCode);
        expect(second.body.equals(viaFastify.rawPayload), path).toBe(true);
        expect(comparable(second.headers), path).toEqual(comparable(viaFastify.headers));
        expect(first.body.equals(second.body), path).toBe(true);
        const notModified = await fetchRaw(path, {
          headers: { ...headers, 'if-none-match': String(second.headers.etag) },
        });
        expect(notModified.status, path).toBe(304);
        expect(notModified.headers['x-request-id'], path).toBeUndefined();
      }
    }
  });

  it('echoes a caller’s request id, and leaves to Fastify what it is not sure of', async () => {
    await fetchRaw('/api/ghadis');
    expect(
      (await fetchRaw('/api/ghadis', { headers: { 'x-request-id': 'proxy-123' } })).headers['x-request-id'],
    ).toBe('proxy-123');

    // An admin's token on GET /api/results: the live admin answer.
    const admin = await fetchRaw('/api/results', { headers: { authorization: `Bearer ${adminToken}` } });
    expect(admin.headers['x-request-id']).toBeDefined();
    expect(admin.body.toString()).toContain('CreatedById');
    // Cross-origin callers, unknown names, bad queries, admin-only neighbours: all through Fastify.
    for (const [path, status] of [
      ['/api/results/no-such-ghadi', 404],
      ['/api/results/count', 401],
      ['/api/results?month=2026-13', 400],
      [`/api/results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}?month=13&year=2026`, 400],
    ] as const) {
      const answer = await fetchRaw(path);
      expect(answer.status, path).toBe(status);
      expect(answer.headers['x-request-id'], path).toBeDefined();
    }
    const crossOrigin = await fetchRaw('/api/ghadis', { headers: { origin: 'https://elsewhere.example' } });
    expect(crossOrigin.headers['x-request-id']).toBeDefined();
  });

  it('tracks a visit like the route, and leaves invalid ones to the route', async () => {
    const before = expectStatus<{ totalUsers: number }>(await call(web, { url: '/api/visitor/stats' }), 200);
    const tracked = await fetchRaw('/api/visitor/track', {
      method: 'POST',
      headers: { 'x-session-id': ` ${unique('door')} ` },
    });
    expect(tracked.status).toBe(200);
    expect(tracked.headers['x-request-id']).toBeUndefined();
    expect(tracked.body.toString()).toBe('{"success":true}');
    expect(tracked.headers['cache-control']).toBe('no-store');
    expect(tracked.headers['content-type']).toBe('application/json; charset=utf-8');
    const after = expectStatus<{ totalUsers: number }>(await call(web, { url: '/api/visitor/stats' }), 200);
    expect(after.totalUsers).toBe(before.totalUsers + 1);

    const invalid: Array<Record<string, string>> = [
      {},
      { 'x-session-id': 'has space' },
      { 'x-session-id': 'x'.repeat(129) },
    ];
    for (const headers of invalid) {
      const refused = await fetchRaw('/api/visitor/track', { method: 'POST', headers });
      expect(refused.status).toBe(400);
      expect(refused.headers['x-request-id']).toBeDefined();
    }
  });

  it.skipIf(!BUILT)('serves proxied page requests once Fastify has worked out their origin', async () => {
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'results.example' };
    const first = await fetchRaw('/', { headers });
    const second = await fetchRaw('/', { headers });
    expect(first.headers['x-request-id']).toBeDefined();
    expect(second.headers['x-request-id']).toBeUndefined();
    expect(second.body.equals(first.body)).toBe(true);
  });
});
