import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { call, createGhadi, loginAdmin, submitResult, today, unique } from '../support/factories.js';
import { decode, fetchRaw, listen } from '../support/http.js';
import { writePagesBuild } from '../support/pages-build.js';
import { sample } from '../support/prometheus-text.js';
import { createTestApp, DIALECTS, type TestApp, tempDir } from '../support/test-app.js';

const TOKEN = 'metrics-token-for-the-embed-tests';
/** What an embed may weigh in brotli with what it loads at first (its script; its style is inline). */
const EMBED_BUDGET_BYTES = 14_336;

const pathName = (ghadi: GhadiRecord) => encodeURIComponent(ghadi.NameEn.toLowerCase());
const scriptOf = (html: string) =>
  /<script src="(\/embed-live\.[0-9a-f]+\.js)" defer><\/script>/.exec(html)?.[1];

/** Embeds (/embed/{name}, /embed/board): pages other sites frame, kept and dropped as the others. */
describe.each(DIALECTS)('embeds [%s]', (dialect) => {
  const dir = tempDir();
  let t: TestApp;
  let base: string;
  let token: string;
  let g: GhadiRecord;
  let h: GhadiRecord;

  // The stand-in pages build: the site's 404 page is rendered; the embeds need no build of their own.
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { WEB_ROOT: writePagesBuild(dir()), METRICS_TOKEN: TOKEN, PUBLIC_QUERIES_PER_MINUTE: '100000' },
      serveWebApp: true,
    });
    base = await listen(t.app);
    token = await loginAdmin(t.app);
    g = await createGhadi(t.app, token, { NameEn: unique('Embed G'), NameHn: 'एम्बेड घड़ी', RTime: '5:15 PM' });
    h = await createGhadi(t.app, token, { NameEn: unique('Embed H') });
    await submitResult(t.app, token, { ghadiId: g.GID, result: '41', dateTime: today() });
  });
  afterAll(async () => {
    await t?.close();
  });

  const declare = (ghadi: GhadiRecord, result: string) =>
    submitResult(t.app, token, { ghadiId: ghadi.GID, result, dateTime: today() });
  const scrape = async () => (await call(t.app, { url: '/metrics', token: TOKEN })).body;
  const builds = (before: string, after: string, route: string, kind: 'reader' | 'rebuild') =>
    sample(after, 'public_answer_builds_total', { route, kind }) -
    sample(before, 'public_answer_builds_total', { route, kind });

  it('allows framing on the embeds alone, on both answer paths, with the rest of the policy as strict', async () => {
    for (const path of [
      `/embed/${pathName(g)}`,
      '/embed/board',
      `/hi/embed/${pathName(g)}`,
      '/hi/embed/board',
    ]) {
      for (const encoding of ['', 'br']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        await fetchRaw(base, path, { headers });
        // The second comes through the fast path: the same headers as Fastify's.
        const fast = await fetchRaw(base, path, { headers });
        const viaFastify = await t.app.inject({ url: path, headers });
        for (const answer of [fast.headers, viaFastify.headers]) {
          expect(answer['content-type'], path).toBe('text/html; charset=utf-8');
          expect(answer['x-frame-options'], path).toBeUndefined();
          expect(answer['content-security-policy'], path).toContain('frame-ancestors *');
          expect(answer['content-security-policy'], path).not.toContain("frame-ancestors 'none'");
          expect(answer['content-security-policy'], path).toContain("script-src 'self'");
          expect(answer['content-security-policy'], path).toContain("default-src 'self'");
          expect(answer['x-content-type-options'], path).toBe('nosniff');
          expect(answer['surrogate-key'], path).toMatch(/(^| )site( |$)/);
        }
        expect(fast.headers.etag, path).toBe(viaFastify.headers.etag);
      }
    }
    // Every other page still refuses to be framed: the results page, the 404 page (an embed's too).
    for (const path of [`/satta-results/${pathName(g)}`, '/embed/no-such-ghadi', '/no/such/page']) {
      const answer = await fetchRaw(base, path);
      expect(answer.headers['x-frame-options'], path).toBe('DENY');
      expect(answer.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    }
  });

  it('answers an unknown name with the site’s 404 page, and a respelled one with a redirect to its address', async () => {
    for (const [path, language] of [
      ['/embed/no-such-ghadi', 'en'],
      ['/hi/embed/no-such-ghadi', 'hi'],
    ] as const) {
      const answer = await call(t.app, { url: path });
      expect(answer.statusCode, path).toBe(404);
      expect(answer.body, path).toContain('<main>not-found</main>');
      expect(answer.body, path).toContain(`<html lang="${language}">`);
    }
    const upper = await call(t.app, { url: `/embed/${encodeURIComponent(g.NameEn.toUpperCase())}` });
    expect(upper.statusCode).toBe(301);
    expect(upper.headers.location).toBe(`/embed/${pathName(g)}`);
    const hindi = await call(t.app, { url: `/hi/embed/${encodeURIComponent(g.NameEn.toUpperCase())}` });
    expect(hindi.headers.location).toBe(`/hi/embed/${pathName(g)}`);
  });

  it('shows the latest declared value, with a link back that opens outside the frame, in both languages', async () => {
    const english = (await call(t.app, { url: `/embed/${pathName(g)}` })).body;
    expect(english).toContain('<html lang="en"');
    expect(english).toContain(`<h1>${g.NameEn}</h1>`);
    expect(english).toContain('<b data-today>41</b>');
    expect(english).toContain('Result time 5:15 PM');
    expect(english).toContain(`href="/satta-results/${pathName(g)}" target="_top"`);
    const hindi = (await call(t.app, { url: `/hi/embed/${pathName(g)}` })).body;
    expect(hindi).toContain('<html lang="hi"');
    expect(hindi).toContain('<h1>एम्बेड घड़ी</h1>');
    expect(hindi).toContain('रिज़ल्ट का समय 5:15 PM');
    expect(hindi).toContain('<b data-today>41</b>');
    expect(hindi).toContain(`href="/hi/satta-results/${pathName(g)}" target="_top"`);
    // A ghadi waiting for today's value says so in the page's language.
    expect((await call(t.app, { url: `/hi/embed/${pathName(h)}` })).body).toContain(
      '<b data-today class="wait">इंतज़ार में</b>',
    );

    const board = (await call(t.app, { url: '/embed/board' })).body;
    expect(board).toContain(`<tr data-gid="${g.GID}">`);
    expect(board).toMatch(new RegExp(`<tr data-gid="${g.GID}">.*?<td data-today>41</td>`));
    expect(board).toContain('href="/" target="_top"');
    expect((await call(t.app, { url: '/hi/embed/board' })).body).toContain('लाइव रिज़ल्ट चार्ट');
  });

  it('drops a ghadi’s embed when its result is declared (the next read shows it), and the board, but not another ghadi’s', async () => {
    const gPath = `/embed/${pathName(g)}`;
    const hPath = `/embed/${pathName(h)}`;
    for (const path of [gPath, hPath, '/embed/board']) {
      await call(t.app, { url: path });
      await call(t.app, { url: path });
    }
    const hTag = (await call(t.app, { url: hPath })).headers.etag;
    const before = await scrape();
    await declare(g, '86');
    const after = await scrape();
    // g's embed (h's is kept) and the board, rebuilt before the write answered; no reader built one.
    expect(builds(before, after, '/embed/:name', 'rebuild')).toBe(1);
    expect(builds(before, after, '/embed/board', 'rebuild')).toBe(1);
    // Read over a socket too: the fast path has the new answer, not the one it sent before.
    const fresh = await fetchRaw(base, gPath, { headers: { 'accept-encoding': 'br' } });
    const html = decode(fresh.body, fresh.headers['content-encoding']);
    expect(html).toContain('<b data-today>86</b>');
    expect(html).toContain(`data-version="${fresh.headers['x-change-id']}"`);
    expect((await call(t.app, { url: '/embed/board' })).body).toMatch(
      new RegExp(`<tr data-gid="${g.GID}">.*?<td data-today>86</td>`),
    );
    expect((await call(t.app, { url: hPath })).headers.etag).toBe(hTag);
    // Those reads found the answers rebuilt: none was built for a reader.
    const read = await scrape();
    expect(builds(after, read, '/embed/:name', 'reader')).toBe(0);
    expect(builds(after, read, '/embed/board', 'reader')).toBe(0);
  });

  it('serves its script as a file named by its hash, kept a year, and no other name', async () => {
    const html = (await call(t.app, { url: `/embed/${pathName(g)}` })).body;
    const script = scriptOf(html);
    expect(script).toBeDefined();
    const answer = await fetchRaw(base, script as string);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.body.toString()).toContain('/api/events?since=');
    expect((await call(t.app, { url: '/embed-live.0123456789abcdef.js' })).statusCode).toBe(404);
  });

  it('weighs at most 14 KB in brotli with its script, for one ghadi and for a board of 30', async () => {
    for (let index = 0; index < 28; index += 1)
      await createGhadi(t.app, token, {
        NameEn: unique(`Board Ghadi ${index} `),
        NameHn: `बोर्ड घड़ी ${index}`,
      });
    const brotli = (text: string | Buffer) => zlib.brotliCompressSync(text).length;
    for (const path of [`/embed/${pathName(g)}`, '/embed/board', '/hi/embed/board']) {
      const html = (await call(t.app, { url: path })).body;
      const script = (await call(t.app, { url: scriptOf(html) as string })).body;
      // Its style is in the page; it loads nothing else at first.
      expect(html.match(/<link /g), path).toBeNull();
      expect(html.match(/<script /g), path).toHaveLength(1);
      if (path.endsWith('board'))
        expect(html.match(/<tr data-gid=/g)?.length, path).toBeGreaterThanOrEqual(30);
      expect(brotli(html) + brotli(script), path).toBeLessThanOrEqual(EMBED_BUDGET_BYTES);
    }
  });
});
