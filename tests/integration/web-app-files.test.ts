import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeCompressedCopies } from '../../scripts/compressed-copies.js';
import {
  FAVICON,
  ICON_DIR,
  ICON_SIZES,
  iconPngPath,
  imagesOfIco,
  renderIcon,
  renderShareImage,
  SHARE_IMAGE,
  SHARE_IMAGE_ICON,
  TOUCH_ICON,
} from '../../scripts/make-app-icons.js';
import { loadConfig } from '../../src/server/config.js';
import { AGENT_READS_CACHE, SERVED_FROM_CACHE, SERVED_FROM_HEADER } from '../../src/shared/offline-cache.js';
import { call } from '../support/factories.js';
import { listen } from '../support/http.js';
import {
  createTestApp,
  DIALECTS,
  noteUnbuilt,
  type TestApp,
  tempDir,
  WEB_BUILT,
} from '../support/test-app.js';

noteUnbuilt('web-app-files.test.ts');

const IMMUTABLE = 'public, max-age=31536000, immutable';
const TEMPLATE_MARK = '<!--page-body-->';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A GET (or HEAD) whose path goes out exactly as written: a URL would resolve `/./` and `/../` and
 * the server would never see them.
 */
function get(base: string, rawPath: string, headers: Record<string, string> = {}, method = 'GET') {
  const { hostname, port } = new URL(base);
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request({ host: hostname, port, path: rawPath, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

const varyOf = (answer: Answer) =>
  String(answer.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);

/** Script text that compresses well but not to nothing, past the 1 KB threshold. */
function script(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, line) => `export const ${name}${line} = ${line * 7919};\n`).join(
    '',
  );
}

/** A build's files, as Vite writes them, with the copies the build's plugin writes beside them. */
function writeBuild(root: string) {
  fs.mkdirSync(path.join(root, 'assets'));
  fs.mkdirSync(path.join(root, '.vite'));
  const files: Record<string, string> = {
    'index.html': '<!doctype html><html><body><div id="root"></div></body></html>',
    'public.html': `<!doctype html><html><body>${TEMPLATE_MARK}${'<p>padding</p>'.repeat(100)}</body></html>`,
    '.vite/manifest.json': JSON.stringify({ 'public.html': { file: 'assets/app-Ab12Cd34.js' } }).repeat(40),
    'assets/app-Ab12Cd34.js': `${script('big', 400)}//# sourceMappingURL=app-Ab12Cd34.js.map\n`,
    'assets/app-Ab12Cd34.js.map': JSON.stringify({
      version: 3,
      sources: ['src/web/app.tsx'],
      mappings: 'A'.repeat(4000),
    }),
    'assets/tiny-Ab12Cd34.js': script('tiny', 5),
    'assets/style-Ab12Cd34.css': '.row{display:flex}\n'.repeat(200),
  };
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(root, file), text);
  return files;
}

describe('the build’s compressed copies (scripts/compressed-copies.ts)', () => {
  const root = tempDir();

  it('are written for larger files the server sends, and decode to their file', async () => {
    const files = writeBuild(root());
    await writeCompressedCopies(root());
    const twinned = ['assets/app-Ab12Cd34.js', 'assets/app-Ab12Cd34.js.map', 'assets/style-Ab12Cd34.css'];
    for (const file of twinned) {
      const br = fs.readFileSync(path.join(root(), `${file}.br`));
      const gz = fs.readFileSync(path.join(root(), `${file}.gz`));
      expect(zlib.brotliDecompressSync(br).toString()).toBe(files[file]);
      expect(zlib.gunzipSync(gz).toString()).toBe(files[file]);
      expect(br.length).toBeLessThan(Buffer.byteLength(files[file] ?? ''));
    }
    // Too small to gain, never sent (the template, Vite's manifest), or a copy itself.
    for (const file of ['assets/tiny-Ab12Cd34.js', 'index.html', 'public.html', '.vite/manifest.json']) {
      expect(fs.existsSync(path.join(root(), `${file}.br`)), file).toBe(false);
      expect(fs.existsSync(path.join(root(), `${file}.gz`)), file).toBe(false);
    }
    expect(fs.existsSync(path.join(root(), 'assets/app-Ab12Cd34.js.br.br'))).toBe(false);
  });
});

describe.each(DIALECTS)('the web app’s files [%s]', (dialect) => {
  const root = tempDir();
  let files: Record<string, string>;
  let web: TestApp;
  let withMaps: TestApp;
  let base: string;
  let mapsBase: string;

  beforeAll(async () => {
    files = writeBuild(root());
    await writeCompressedCopies(root());
    web = await createTestApp(dialect, { env: { WEB_ROOT: root() }, serveWebApp: true });
    base = await listen(web.app);
    withMaps = await createTestApp(dialect, {
      env: { WEB_ROOT: root(), SERVE_SOURCE_MAPS: 'true' },
      serveWebApp: true,
    });
    mapsBase = await listen(withMaps.app);
  });
  afterAll(async () => {
    await web?.close();
    await withMaps?.close();
  });

  const twinOf = (file: string, suffix: '.br' | '.gz') =>
    fs.readFileSync(path.join(root(), `${file}${suffix}`));

  it('sends the build’s brotli or gzip copy as it is, with the file’s type and caching', async () => {
    const file = 'assets/app-Ab12Cd34.js';
    for (const [acceptEncoding, encoding, suffix] of [
      ['gzip, deflate, br', 'br', '.br'],
      ['br;q=0, gzip', 'gzip', '.gz'],
      ['gzip', 'gzip', '.gz'],
    ] as const) {
      const answer = await get(base, `/${file}`, { 'accept-encoding': acceptEncoding });
      expect(answer.status, acceptEncoding).toBe(200);
      expect(answer.headers['content-encoding'], acceptEncoding).toBe(encoding);
      // The copy's own bytes: compressed by the build, not again for this request.
      expect(answer.body.equals(twinOf(file, suffix)), acceptEncoding).toBe(true);
      expect(answer.headers['content-length'], acceptEncoding).toBe(String(twinOf(file, suffix).length));
      expect(answer.headers['content-type'], acceptEncoding).toMatch(/^(application|text)\/javascript/);
      expect(answer.headers['cache-control'], acceptEncoding).toBe(IMMUTABLE);
      expect(varyOf(answer), acceptEncoding).toContain('accept-encoding');
    }
    const css = await get(base, '/assets/style-Ab12Cd34.css', { 'accept-encoding': 'br' });
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(zlib.brotliDecompressSync(css.body).toString()).toBe(files['assets/style-Ab12Cd34.css']);
  });

  it('sends the plain file to a client that accepts no encoding, and a small file as it is', async () => {
    const noEncoding: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of noEncoding) {
      const label = JSON.stringify(headers);
      const plain = await get(base, '/assets/app-Ab12Cd34.js', headers);
      expect(plain.status, label).toBe(200);
      expect(plain.headers['content-encoding'], label).toBeUndefined();
      expect(plain.body.toString(), label).toBe(files['assets/app-Ab12Cd34.js']);
      expect(plain.headers['content-type'], label).toMatch(/^(application|text)\/javascript/);
      expect(plain.headers['cache-control'], label).toBe(IMMUTABLE);
      expect(varyOf(plain), label).toContain('accept-encoding');
    }
    const tiny = await get(base, '/assets/tiny-Ab12Cd34.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.status).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe(files['assets/tiny-Ab12Cd34.js']);
    const head = await get(base, '/assets/app-Ab12Cd34.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body.length).toBe(0);
  });

  it('answers 404 for the page template and Vite’s manifest in every spelling, and for the copies', async () => {
    for (const spelling of [
      '/public.html',
      '//public.html',
      '/./public.html',
      '/%2Fpublic.html',
      '/%2fpublic.html',
      '/assets/../public.html',
      '/assets/%2E%2E/public.html',
      '/assets/..%2Fpublic.html',
      '/PUBLIC.html',
      '/public.html?download=1',
      '/.vite/manifest.json',
      '//.vite/manifest.json',
      '/./.vite/manifest.json',
      '/%2E%76ite/manifest.json',
      '/assets/../.vite//manifest.json',
      '/assets/app-Ab12Cd34.js.br',
      '/assets/app-Ab12Cd34.js.gz',
    ]) {
      for (const acceptEncoding of ['br', '']) {
        const answer = await get(base, spelling, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});
        const label = `${spelling} (${acceptEncoding || 'no encoding'})`;
        expect(answer.status, label).toBe(404);
        expect(answer.headers['content-type'], label).toMatch(/^application\/json/);
        expect(answer.body.toString(), label).not.toContain(TEMPLATE_MARK);
        expect(answer.body.toString(), label).not.toContain('public.html":');
      }
    }
  });

  it('still serves the app’s own files, however the path is spelled, and its page for other addresses', async () => {
    for (const spelling of [
      '/assets/app-Ab12Cd34.js',
      '//assets/app-Ab12Cd34.js',
      '/assets/./app-Ab12Cd34.js',
    ]) {
      const answer = await get(base, spelling);
      expect(answer.status, spelling).toBe(200);
      expect(answer.body.toString(), spelling).toBe(files['assets/app-Ab12Cd34.js']);
    }
    const index = await get(base, '/index.html');
    expect(index.status).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    const page = await get(base, '/admin/login');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body.toString()).toContain('<div id="root">');
  });

  it('keeps source maps private unless SERVE_SOURCE_MAPS=true', async () => {
    const map = '/assets/app-Ab12Cd34.js.map';
    const hidden = await get(base, map, { 'accept-encoding': 'br' });
    expect(hidden.status).toBe(404);
    expect(hidden.body.toString()).not.toContain('src/web/app.tsx');
    expect((await get(base, '//assets/./app-Ab12Cd34.js.map')).status).toBe(404);
    expect(web.config.serveSourceMaps).toBe(false);

    const shown = await get(mapsBase, map, { 'accept-encoding': 'br' });
    expect(shown.status).toBe(200);
    expect(shown.headers['content-encoding']).toBe('br');
    expect(shown.body.equals(twinOf(map.slice(1), '.br'))).toBe(true);
    expect(zlib.brotliDecompressSync(shown.body).toString()).toBe(files['assets/app-Ab12Cd34.js.map']);
    expect(shown.headers['cache-control']).toBe(IMMUTABLE);
    // The setting opens the maps only: the template and the manifest stay closed.
    expect((await get(mapsBase, '//public.html')).status).toBe(404);
    expect((await get(mapsBase, '/.vite/manifest.json')).status).toBe(404);
  });
});

describe('SERVE_SOURCE_MAPS', () => {
  it('is off by default, on for true, and refuses anything but true or false', () => {
    expect(loadConfig({}).serveSourceMaps).toBe(false);
    expect(loadConfig({ SERVE_SOURCE_MAPS: 'false' }).serveSourceMaps).toBe(false);
    expect(loadConfig({ SERVE_SOURCE_MAPS: ' true ' }).serveSourceMaps).toBe(true);
    expect(() => loadConfig({ SERVE_SOURCE_MAPS: 'yes' })).toThrow(
      /SERVE_SOURCE_MAPS: must be true or false/,
    );
  });
});

describe.skipIf(!WEB_BUILT).each(DIALECTS)('the built web app’s files [%s]', (dialect) => {
  let web: TestApp;
  let base: string;
  beforeAll(async () => {
    web = await createTestApp(dialect, { serveWebApp: true });
    base = await listen(web.app);
  });
  afterAll(async () => {
    await web?.close();
  });

  it('sends the public page’s script as the build compressed it, and none of its source maps', async () => {
    const root = path.resolve('dist/web');
    const manifest = JSON.parse(fs.readFileSync(path.join(root, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    const file = manifest['public.html']?.file ?? '';
    expect(file).toMatch(/^assets\/.+\.js$/);
    const answer = await get(base, `/${file}`, { 'accept-encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.body.equals(fs.readFileSync(path.join(root, `${file}.br`)))).toBe(true);
    expect((await get(base, `/${file}.map`)).status).toBe(404);
    expect((await get(base, '//.vite/manifest.json')).status).toBe(404);
  });
});

describe.skipIf(!WEB_BUILT)('the built service worker (decision 0011)', () => {
  const root = path.resolve('dist/web');
  const worker = () => fs.readFileSync(path.join(root, 'sw.js'), 'utf8');

  it('precaches the app’s page, scripts, icons and manifest, never the public pages’ template', () => {
    const precached = [...worker().matchAll(/\{url:"([^"]+)",revision:/g)].map((match) => match[1]);
    expect(precached).toEqual(
      expect.arrayContaining(['index.html', 'ghadi.webmanifest', 'app-icon-192.png']),
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(root, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    expect(precached).toContain(manifest['index.html']?.file);
    expect(precached).not.toContain('public.html');
    expect(precached.filter((url) => /\.(map|br|gz)$/.test(url ?? ''))).toEqual([]);
    // The dashboard's plots load their library when shown: no phone downloads it up front.
    expect(manifest['features/admin-dashboard/stats-charts.tsx']?.file).toMatch(/^assets\/stats-charts-/);
    expect(precached).not.toContain(manifest['features/admin-dashboard/stats-charts.tsx']?.file);
    // So does the content blocks' visual editor.
    expect(manifest['features/content-blocks/block-editor.tsx']?.file).toMatch(/^assets\/block-editor-/);
    expect(precached).not.toContain(manifest['features/content-blocks/block-editor.tsx']?.file);
  });

  it('answers only the signed-in areas’ navigations itself, and caches only the agent’s reads of the API', () => {
    const source = worker();
    // The only navigation route, and "/" (the public home page) is never mapped to index.html.
    expect(source.match(/NavigationRoute/g)).toHaveLength(1);
    // Built from src/shared/spa-paths.ts: the admin and agent areas and /login, nothing public.
    const allowlist = /allowlist:\[([^\]]*)\]/.exec(source)?.[1] ?? '';
    const patterns = allowlist.split(',').map((text) => new RegExp(text.slice(1, -1)));
    const answered = (path: string) => patterns.some((pattern) => pattern.test(path));
    expect(patterns).toHaveLength(3);
    for (const path of ['/admin', '/admin/results', '/agent/dashboard', '/login'])
      expect(answered(path)).toBe(true);
    for (const path of ['/', '/hi', '/satta-results/gali', '/chart/2026-11', '/administrator', '/login/x'])
      expect(answered(path)).toBe(false);
    expect(source).toContain('{directoryIndex:null}');
    const routes = [...source.matchAll(/registerRoute\((\/[^,]+\/),/g)].map(
      (match) => new RegExp(match[1]?.slice(1, -1) ?? ''),
    );
    expect(routes).toHaveLength(1);
    const [agentReads] = routes as [RegExp];
    for (const cached of [
      '/api/site',
      '/api/agent/my-ghadi',
      '/api/agent/my-ghadi/results?ghadiId=1&page=1',
    ]) {
      expect(agentReads.test(`http://site${cached}`), cached).toBe(true);
    }
    for (const never of [
      '/api/agent/my-ghadi/update-result',
      '/api/results',
      '/api/home',
      '/api/users',
      '/api/declarations',
      '/api/live',
      '/api/sitemap',
    ]) {
      expect(agentReads.test(`http://site${never}`), never).toBe(false);
    }
    expect(source).toContain(`cacheName:"${AGENT_READS_CACHE}"`);
    // The marker the page reads, written into the worker literally (vite.config.ts).
    expect(source).toContain(`"${SERVED_FROM_HEADER}","${SERVED_FROM_CACHE}"`);
  });
});

/** The mean difference per channel between two RGBA images of one size: rounding only, or a changed drawing. */
async function meanDifference(committed: Sharp, fresh: Sharp): Promise<number> {
  const [a, b] = await Promise.all([
    committed.ensureAlpha().raw().toBuffer(),
    fresh.ensureAlpha().raw().toBuffer(),
  ]);
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference += Math.abs((a[index] ?? 0) - (b[index] ?? 0));
  return difference / a.length;
}

const REMAKE = 'run npx tsx scripts/make-app-icons.ts';

describe('the site’s favicon, touch icon and share image (scripts/make-app-icons.ts)', () => {
  it('the favicon holds the drawing at 16, 32 and 48 px', async () => {
    const images = imagesOfIco(fs.readFileSync(FAVICON.file));
    expect(images.map((image) => image.size)).toEqual([...FAVICON.sizes]);
    for (const { size, png } of images) {
      const { width, height } = await sharp(png).metadata();
      expect([width, height], `favicon.ico ${size}`).toEqual([size, size]);
      expect(
        await meanDifference(sharp(png), renderIcon(size)),
        `favicon.ico ${size}: ${REMAKE}`,
      ).toBeLessThan(2);
    }
  });

  it('the touch icon is the drawing at 180 px', async () => {
    const { width, height } = await sharp(TOUCH_ICON.file).metadata();
    expect([width, height]).toEqual([TOUCH_ICON.size, TOUCH_ICON.size]);
    expect(
      await meanDifference(sharp(TOUCH_ICON.file), renderIcon(TOUCH_ICON.size)),
      `apple-touch-icon.png: ${REMAKE}`,
    ).toBeLessThan(2);
  });

  it('the share image is 1200 × 630 with the drawing in it (its type depends on the fonts at hand)', async () => {
    const { width, height, format } = await sharp(SHARE_IMAGE.file).metadata();
    expect([format, width, height]).toEqual(['png', SHARE_IMAGE.width, SHARE_IMAGE.height]);
    const { left, top, size } = SHARE_IMAGE_ICON;
    const square = { left, top, width: size, height: size };
    const committed = sharp(SHARE_IMAGE.file).extract(square);
    const fresh = sharp(await renderShareImage().png().toBuffer()).extract(square);
    expect(await meanDifference(committed, fresh), `og-image.png: ${REMAKE}`).toBeLessThan(2);
  });
});

describe('the app’s icons (scripts/make-app-icons.ts)', () => {
  it('are the drawing, at each size the manifest names', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ICON_DIR, 'ghadi.webmanifest'), 'utf8')) as {
      icons: Array<{ src: string; sizes: string; type: string }>;
    };
    for (const size of ICON_SIZES) {
      expect(manifest.icons).toContainEqual(
        expect.objectContaining({
          src: `/app-icon-${size}.png`,
          sizes: `${size}x${size}`,
          type: 'image/png',
        }),
      );
      const committed = sharp(iconPngPath(size)).ensureAlpha().raw();
      const { data, info } = await committed.toBuffer({ resolveWithObject: true });
      expect([info.width, info.height], `app-icon-${size}.png`).toEqual([size, size]);
      const fresh = await renderIcon(size).ensureAlpha().raw().toBuffer();
      // A palette PNG differs from a fresh render by rounding only; a changed drawing by far more.
      let difference = 0;
      for (let index = 0; index < data.length; index += 1)
        difference += Math.abs((data[index] ?? 0) - (fresh[index] ?? 0));
      expect(
        difference / data.length,
        `app-icon-${size}.png: run npx tsx scripts/make-app-icons.ts`,
      ).toBeLessThan(2);
    }
  });
});

describe.each(DIALECTS)('the API reference’s files [%s]', (dialect) => {
  let docs: TestApp;
  beforeAll(async () => {
    docs = await createTestApp(dialect);
  });
  afterAll(async () => {
    await docs?.close();
    vi.restoreAllMocks();
  });

  const staticDir = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')),
    'static',
  );
  const BUNDLE = '/api/docs/static/swagger-ui-bundle.js';

  it('compresses the bundle once per encoding and sends the kept bytes afterwards', async () => {
    const bundle = fs.readFileSync(path.join(staticDir, 'swagger-ui-bundle.js'));
    const brotli = vi.spyOn(zlib, 'brotliCompress');
    const gzip = vi.spyOn(zlib, 'gzip');
    const ofBundle = (spy: typeof brotli | typeof gzip) =>
      spy.mock.calls.filter(([input]) => Buffer.isBuffer(input) && input.length === bundle.length).length;

    const first = await call(docs.app, { url: BUNDLE, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(first.headers['content-length']).toBe(String(first.rawPayload.length));
    expect(String(first.headers.vary)).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(first.rawPayload).equals(bundle)).toBe(true);
    expect(ofBundle(brotli)).toBe(1);

    const second = await call(docs.app, { url: `${BUNDLE}?v=2`, headers: { 'accept-encoding': 'br' } });
    expect(second.headers['content-encoding']).toBe('br');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(ofBundle(brotli)).toBe(1);

    for (let index = 0; index < 2; index++) {
      const gzipped = await call(docs.app, { url: BUNDLE, headers: { 'accept-encoding': 'gzip' } });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gzipped.rawPayload).equals(bundle)).toBe(true);
    }
    expect(ofBundle(gzip)).toBe(1);
  });

  it('sends the plain file without Accept-Encoding, and small files as they are', async () => {
    const plain = await call(docs.app, { url: BUNDLE });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(fs.readFileSync(path.join(staticDir, 'swagger-ui-bundle.js')))).toBe(true);
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);

    const css = await call(docs.app, {
      url: '/api/docs/static/index.css',
      headers: { 'accept-encoding': 'br' },
    });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toBe(fs.readFileSync(path.join(staticDir, 'index.css'), 'utf8'));

    const page = await call(docs.app, { url: '/api/docs', headers: { 'accept-encoding': 'br' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});
