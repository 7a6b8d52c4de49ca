import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagesOfIco } from '../../scripts/make-app-icons.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { call, createGhadi, loginAdmin, submitResult, today, unique } from '../support/factories.js';
import { fetchRaw, listen } from '../support/http.js';
import { createTestApp, DIALECTS, noteUnbuilt, type TestApp, WEB_BUILT } from '../support/test-app.js';

noteUnbuilt('public-addresses.test.ts');

/** The keyword strip's markup in a page: the names it shows. */
function tickerOf(html: string): string {
  const start = html.indexOf('aria-label="Keywords"') + 1 || html.indexOf('aria-label="कीवर्ड"') + 1;
  return html.slice(start, html.indexOf('</section>', start));
}

/** A PNG's width and height, from its header. */
function pngSize(png: Buffer): [number, number] {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/** The app's page (the built index.html): the SPA's root, no server-rendered data. */
const APP_PAGE = fs.existsSync('dist/web/index.html') ? fs.readFileSync('dist/web/index.html', 'utf8') : '';

describe.skipIf(!WEB_BUILT).each(DIALECTS)('the public site’s addresses [%s]', (dialect) => {
  let web: TestApp;
  let adminToken: string;
  let base: string;
  let ghadi: GhadiRecord;
  /** The ghadi's address as the site spells it (the spec's: its lower-cased name) and as people type it. */
  let canonical: string;
  let typed: string;
  const year = Number(today().slice(0, 4));

  beforeAll(async () => {
    web = await createTestApp(dialect, { serveWebApp: true });
    base = await listen(web.app);
    adminToken = await loginAdmin(web.app);
    ghadi = await createGhadi(web.app, adminToken, { NameEn: unique('Typed Name ') });
    await submitResult(web.app, adminToken, { ghadiId: ghadi.GID, result: '45', dateTime: today() });
    canonical = encodeURIComponent(ghadi.NameEn.toLowerCase());
    typed = ghadi.NameEn.toLowerCase().replaceAll(' ', '-');
  });
  afterAll(async () => {
    await web?.close();
  });
  const page = (url: string) => call(web.app, { url });

  describe('an address no route serves', () => {
    it('answers 404 with the site’s 404 page, header and all, in the address’s language', async () => {
      for (const [address, language] of [
        ['/nope', 'en'],
        ['/nope/deeper?x=1', 'en'],
        ['/satta-results/a/b/c', 'en'],
        ['/declarations/old', 'en'],
        ['/hi/nope', 'hi'],
        ['/hi/satta-results/a/b/c', 'hi'],
        ['/hindi', 'en'],
      ] as const) {
        const answer = await page(address);
        expect(answer.statusCode, address).toBe(404);
        expect(answer.headers['content-type'], address).toBe('text/html; charset=utf-8');
        expect(answer.headers['content-security-policy'], address).toContain("script-src 'self'");
        const html = answer.body;
        expect(html, address).toContain(`<html lang="${language}">`);
        expect(html, address).toContain('<header');
        expect(html, address).toContain(language === 'hi' ? 'पेज नहीं मिला' : 'Page not found');
        expect(html, address).toContain('<meta name="robots" content="noindex" />');
        expect(html, address).toContain('id="page-data"');
        expect(html, address).not.toContain('<div id="root"></div>');
      }
      const head = await fetchRaw(base, '/nope', { method: 'HEAD' });
      expect(head.status).toBe(404);
      expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(head.body.length).toBe(0);
    });

    it('leaves the app’s own addresses to the app: its page, with 200', async () => {
      expect(APP_PAGE).toContain('<div id="root"></div>');
      for (const address of [
        '/login',
        '/admin',
        '/admin/',
        '/admin/login',
        '/admin/dashboard',
        '/admin/no-such-screen',
        '/agent',
        '/agent/login',
        '/agent/dashboard?from=home',
      ]) {
        const answer = await page(address);
        expect(answer.statusCode, address).toBe(200);
        expect(answer.headers['content-type'], address).toBe('text/html; charset=utf-8');
        expect(answer.headers['cache-control'], address).toBe('no-cache');
        expect(answer.body, address).toBe(APP_PAGE);
      }
    });

    it('is still a JSON 404 under /api and /assets, and for other methods', async () => {
      for (const [method, address] of [
        ['GET', '/api/nope'],
        ['GET', '/assets/old-chunk-Ab12Cd34.js'],
        ['POST', '/nope'],
      ] as const) {
        const answer = await call(web.app, { method, url: address });
        expect(answer.statusCode, address).toBe(404);
        expect(answer.headers['content-type'], address).toMatch(/^application\/json/);
      }
    });
  });

  describe('the site’s icons and share image', () => {
    it('/favicon.ico is an icon of the drawing at 16, 32 and 48 px, not a page', async () => {
      const answer = await fetchRaw(base, '/favicon.ico');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)$/);
      expect([...answer.body.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
      expect(imagesOfIco(answer.body).map((image) => [image.size, ...pngSize(image.png)])).toEqual([
        [16, 16, 16],
        [32, 32, 32],
        [48, 48, 48],
      ]);
    });

    it('the touch icon and the share image are PNGs of their sizes, named by every page', async () => {
      const touch = await fetchRaw(base, '/apple-touch-icon.png');
      expect(touch.headers['content-type']).toBe('image/png');
      expect(pngSize(touch.body)).toEqual([180, 180]);
      const share = await fetchRaw(base, '/og-image.png');
      expect(share.headers['content-type']).toBe('image/png');
      expect(pngSize(share.body)).toEqual([1200, 630]);
      for (const address of ['/', `/satta-results/${canonical}`, '/hi/declarations', '/nope']) {
        const html = (await page(address)).body;
        expect(html, address).toContain('<link rel="icon" href="/favicon.ico" sizes="48x48" />');
        expect(html, address).toContain('<link rel="icon" href="/app-icon.svg" type="image/svg+xml" />');
        expect(html, address).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png" />');
        expect(html, address).toContain('<meta name="theme-color" content="#0f172a" />');
        // Without PUBLIC_URL the page names the image by its path, as it names itself.
        expect(html, address).toContain('<meta property="og:image" content="/og-image.png" />');
        expect(html, address).toContain('<meta name="twitter:card" content="summary_large_image" />');
      }
      const app = fs.readFileSync(path.resolve('dist/web/index.html'), 'utf8');
      expect(app).toContain('<link rel="icon" href="/favicon.ico" sizes="48x48" />');
      expect(app).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png" />');
    });
  });

  describe('addresses people type', () => {
    it('a hyphen for each space reaches the ghadi: 301 to the address the site links to, in both languages', async () => {
      for (const prefix of ['', '/hi']) {
        for (const [asked, moved] of [
          [`/satta-results/${typed}`, `/satta-results/${canonical}`],
          [
            `/satta-results/${typed.toUpperCase()}?month=1&year=${year}`,
            `/satta-results/${canonical}?month=1&year=${year}`,
          ],
          [`/satta-results/${typed}/${year}`, `/satta-results/${canonical}/${year}`],
        ]) {
          const answer = await page(`${prefix}${asked}`);
          expect(answer.statusCode, asked).toBe(301);
          expect(answer.headers.location, asked).toBe(`${prefix}${moved}`);
        }
        const target = await page(`${prefix}/satta-results/${canonical}`);
        expect(target.statusCode).toBe(200);
        expect(target.body).toContain(`<link rel="canonical" href="${prefix}/satta-results/${canonical}" />`);
      }
      // A hyphen where no ghadi has a name is the same 404 as any unknown name.
      expect((await page(`/satta-results/${typed}-nobody`)).statusCode).toBe(404);
      expect((await page(`/satta-results/${typed}-nobody/${year}`)).statusCode).toBe(404);
    });

    it('the API takes the hyphenated name too, with the same answer', async () => {
      for (const [spelled, asTyped] of [
        [`/api/results/${canonical}`, `/api/results/${typed}`],
        [`/api/results/${canonical}?month=1&year=${year}`, `/api/results/${typed}?month=1&year=${year}`],
        [`/api/charts/${canonical}/${year}`, `/api/charts/${typed}/${year}`],
      ] as const) {
        const expected = await page(spelled);
        const answer = await page(asTyped);
        expect(answer.statusCode, asTyped).toBe(expected.statusCode);
        expect(answer.body, asTyped).toBe(expected.body);
        // Over a socket too, where the fast path answers what is built.
        const raw = await fetchRaw(base, asTyped);
        expect(raw.status, asTyped).toBe(expected.statusCode);
        expect(raw.body.toString(), asTyped).toBe(expected.body);
      }
      expect((await page(`/api/results/${typed}`)).json<{ data: unknown[] }>().data).toHaveLength(1);
    });

    it('a ghadi whose name has a hyphen keeps its address; of two read alike, the first by OrderId wins', async () => {
      const tag = unique('').toLowerCase();
      const dashed = await createGhadi(web.app, adminToken, { NameEn: `Dash-Name ${tag}`, OrderId: 900 });
      const own = `/satta-results/${encodeURIComponent(`dash-name ${tag}`)}`;
      expect((await page(own)).statusCode).toBe(200);
      const typedDashed = await page(`/satta-results/dash-name-${tag}`);
      expect(typedDashed.statusCode).toBe(301);
      expect(typedDashed.headers.location).toBe(own);

      // "Twin Bazar" and "Twin-Bazar": each keeps its own exact address.
      const spaced = await createGhadi(web.app, adminToken, { NameEn: `Twin Bazar ${tag}`, OrderId: 902 });
      const hyphened = await createGhadi(web.app, adminToken, { NameEn: `Twin-Bazar ${tag}`, OrderId: 901 });
      const spacedPage = await page(`/satta-results/${encodeURIComponent(`twin bazar ${tag}`)}`);
      expect(spacedPage.statusCode).toBe(200);
      expect(spacedPage.body).toContain(`>${spaced.NameEn} Satta Result</h1>`);
      // Typed with hyphens for both, it is the first of them by OrderId (901).
      const typedTwin = await page(`/satta-results/twin-bazar-${tag}`);
      expect(typedTwin.statusCode).toBe(301);
      expect(typedTwin.headers.location).toBe(`/satta-results/${encodeURIComponent(`twin-bazar ${tag}`)}`);
      const twinAnswer = await page(`/api/results/twin-bazar-${tag}`);
      expect(twinAnswer.statusCode).toBe(404);
      expect(twinAnswer.json<{ message: string }>().message).toBe(`No data available for twin-bazar ${tag}`);
      expect(hyphened.GID).not.toBe(dashed.GID);
    });
  });

  describe('the keyword strip', () => {
    it('names every live ghadi on every page, one created after start included, in the page’s language', async () => {
      const later = await createGhadi(web.app, adminToken, {
        NameEn: unique('Ticker Late '),
        NameHn: unique('टिकर '),
      });
      const month = today().slice(0, 7);
      for (const address of [
        '/',
        `/satta-results/${canonical}`,
        `/satta-results/${canonical}/${year}`,
        `/chart/${month}`,
        '/declarations',
        '/nope',
      ]) {
        for (const [prefix, name, word] of [
          ['', later.NameEn, 'Result'],
          ['/hi', later.NameHn, 'रिज़ल्ट'],
        ] as const) {
          const at = prefix === '' ? address : address === '/' ? '/hi' : `${prefix}${address}`;
          const strip = tickerOf((await page(at)).body);
          expect(strip, at).toContain(`★ <!-- -->${name}<!-- --> ${word}`);
          expect(strip, at).toContain(`★ <!-- -->${prefix ? 'एनसीआर' : 'NCR'}<!-- --> ${word}`);
        }
      }
    });
  });
});
