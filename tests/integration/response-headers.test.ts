import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createContentBlock,
  createGhadi,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { fetchRaw, listen } from '../support/http.js';
import {
  createTestApp,
  DIALECTS,
  noteUnbuilt,
  type TestApp,
  tempDir,
  WEB_BUILT,
} from '../support/test-app.js';

noteUnbuilt('response-headers.test.ts');

const FRONT = 'https://front.example';
const SITE = 'https://results.example';

const CORS_HEADERS = [
  'vary',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'strict-transport-security',
] as const;
const corsPart = (headers: Record<string, unknown>) =>
  Object.fromEntries(CORS_HEADERS.map((name) => [name, headers[name]]));

/** Headers that legitimately differ between two answers of the same thing. */
function comparable(headers: Record<string, unknown>) {
  const { date, connection, 'keep-alive': _keepAlive, 'x-request-id': _id, ...rest } = headers;
  return rest;
}

/** What every answer carries under an https PUBLIC_URL, and every HTML answer on top. */
const SECURITY = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=31536000',
};
const HTML_POLICY = expect.stringMatching(/script-src 'self'.*frame-ancestors 'none'/);

describe.each(DIALECTS)('response headers with CORS_ORIGINS and an https PUBLIC_URL [%s]', (dialect) => {
  let web: TestApp;
  let base: string;
  let adminToken: string;
  let name: string;
  let slug: string;

  beforeAll(async () => {
    web = await createTestApp(dialect, {
      env: { CORS_ORIGINS: FRONT, PUBLIC_URL: SITE },
      serveWebApp: WEB_BUILT,
    });
    base = await listen(web.app);
    adminToken = await loginAdmin(web.app);
    const ghadi = await createGhadi(web.app, adminToken);
    await submitResult(web.app, adminToken, { ghadiId: ghadi.GID, result: '31', dateTime: today() });
    name = encodeURIComponent(ghadi.NameEn.toLowerCase());
    slug = unique('cors-');
    await createContentBlock(web.app, adminToken, { Slug: slug, Content: '<p>cors</p>' });
  });
  afterAll(async () => {
    await web?.close();
  });

  it('a public answer is the same for every Origin (CORS for all, no Vary: Origin) on both answer paths', async () => {
    for (const path of ['/api/ghadis', `/api/results/${name}`, '/api/home', '/api/results']) {
      for (const origin of [undefined, FRONT, SITE, 'https://elsewhere.example']) {
        const headers: Record<string, string> = { 'accept-encoding': 'br', ...(origin ? { origin } : {}) };
        await fetchRaw(base, path, { headers });
        const raw = await fetchRaw(base, path, { headers });
        const viaFastify = await web.app.inject({ url: path, headers });
        const label = `${path} from ${origin ?? 'no origin'}`;
        // A shared cache keeps one copy for everyone: nothing in it may depend on who asked.
        expect(corsPart(raw.headers), label).toEqual(corsPart(viaFastify.headers));
        // Small answers have no compressed variants, and so no Vary at all.
        expect(['accept-encoding', undefined], label).toContain(raw.headers.vary);
        expect(raw.headers['strict-transport-security'], label).toBe('max-age=31536000');
        expect(raw.headers['access-control-allow-origin'], label).toBe('*');
        expect(raw.headers['access-control-allow-credentials'], label).toBeUndefined();
        expect(raw.headers['x-request-id'], label).toBeUndefined();
        expect(viaFastify.headers['x-request-id'], label).toBeUndefined();
      }
    }
    for (const origin of [FRONT, SITE]) {
      const track = { method: 'POST', headers: { 'x-session-id': unique('cors'), origin } } as const;
      const raw = await fetchRaw(base, '/api/visitor/track', track);
      const viaFastify = await web.app.inject({ url: '/api/visitor/track', ...track });
      expect(raw.headers['x-request-id']).toBeUndefined();
      expect(corsPart(raw.headers)).toEqual(corsPart(viaFastify.headers));
    }
  });

  it('the fast path and Fastify send the same headers, header by header, with and without an allowed Origin', async () => {
    const [year, month] = today().split('-').map(Number) as [number, number];
    const paths = [
      '/api/ghadis',
      '/api/home',
      '/api/site',
      '/api/results',
      `/api/results/${name}`,
      `/api/results/${name}?month=${month}&year=${year}`,
      `/api/contentblocks/slug/${slug}`,
      '/sitemap.xml',
      '/robots.txt',
      ...(WEB_BUILT ? ['/', `/satta-results/${name}`] : []),
    ];
    for (const path of paths) {
      for (const origin of [undefined, FRONT, SITE]) {
        for (const encoding of ['', 'br']) {
          const headers: Record<string, string> = {
            ...(encoding ? { 'accept-encoding': encoding } : {}),
            ...(origin ? { origin } : {}),
          };
          const label = `${path} from ${origin ?? 'no origin'} (${encoding || 'identity'})`;
          // The first request builds the answer; the second comes through the fast path.
          await fetchRaw(base, path, { headers });
          const fast = await fetchRaw(base, path, { headers });
          const viaFastify = await web.app.inject({ url: path, headers });
          expect(fast.status, label).toBe(viaFastify.statusCode);
          expect(comparable(fast.headers), label).toEqual(comparable(viaFastify.headers));
          expect(fast.headers, label).toMatchObject(SECURITY);
          expect(fast.headers['surrogate-key'], label).toMatch(/(^| )site( |$)/);
          expect(String(fast.headers.vary ?? '').split(', '), label).not.toContain('origin');
          expect(fast.headers['access-control-allow-origin'], label).toBe('*');
          const html = String(fast.headers['content-type']).startsWith('text/html');
          expect(fast.headers['content-security-policy'], label).toEqual(html ? HTML_POLICY : undefined);
        }
      }
    }
    if (WEB_BUILT) {
      // Made for its one request (never cached): Fastify sends it, as a page like the others.
      const unknown = await fetchRaw(base, '/satta-results/no-such-ghadi', { headers: { origin: FRONT } });
      expect(unknown.status).toBe(404);
      expect(unknown.headers).toMatchObject({ ...SECURITY, 'content-security-policy': HTML_POLICY });
      expect(unknown.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('answers an allowed front end’s preflight for every method the API uses, and no one else’s', async () => {
    const preflight = (origin: string) =>
      call(web.app, {
        method: 'OPTIONS',
        url: '/api/ghadis/1',
        headers: {
          origin,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const allowed = await preflight(FRONT);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers).toMatchObject({
      'access-control-allow-origin': FRONT,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-max-age': '600',
    });
    const refused = await preflight('https://elsewhere.example');
    expect(refused.statusCode).toBe(204);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect((await call(web.app, { method: 'OPTIONS', url: '/api/ghadis' })).statusCode).toBe(404);
  });

  it('an allowed front end’s authenticated calls carry the CORS headers', async () => {
    const answer = await call(web.app, { url: '/api/users', token: adminToken, headers: { origin: FRONT } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(FRONT);
    expect(String(answer.headers.vary)).toContain('origin');
  });
});

describe.each(DIALECTS)('response headers without CORS_ORIGINS nor https [%s]', (dialect) => {
  it('send no Vary: Origin, no CORS headers and no HSTS', async () => {
    const web = await createTestApp(dialect, { env: { PUBLIC_URL: 'http://results.example' } });
    try {
      const answer = await call(web.app, { url: '/api/ghadis', headers: { origin: FRONT } });
      expect(answer.headers['strict-transport-security']).toBeUndefined();
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(String(answer.headers.vary ?? '')).not.toContain('origin');
    } finally {
      await web.close();
    }
  });
});

describe.each(DIALECTS)('the web app’s files and HTML answers [%s]', (dialect) => {
  const webRoot = tempDir();
  const ASSET = '/assets/app-Ab12Cd34.js';
  let web: TestApp;
  let base: string;

  beforeAll(async () => {
    fs.mkdirSync(path.join(webRoot(), 'assets'));
    fs.writeFileSync(
      path.join(webRoot(), 'index.html'),
      `<!doctype html><html><body><div id="root"></div><script type="module" src="${ASSET}"></script></body></html>`,
    );
    fs.writeFileSync(path.join(webRoot(), ASSET), 'console.log("app");');
    fs.writeFileSync(path.join(webRoot(), 'sw.js'), 'define(["./workbox-Ab12Cd34"], () => {});');
    fs.writeFileSync(path.join(webRoot(), 'workbox-Ab12Cd34.js'), 'define([], () => {});');
    fs.writeFileSync(path.join(webRoot(), 'ghadi.webmanifest'), '{"name":"Ghadi Results"}');
    web = await createTestApp(dialect, {
      env: { CORS_ORIGINS: FRONT, PUBLIC_URL: SITE, WEB_ROOT: webRoot() },
      serveWebApp: true,
    });
    base = await listen(web.app);
  });
  afterAll(async () => {
    await web?.close();
  });

  it('every HTML answer carries the page policy and every security header, /index.html included', async () => {
    for (const path of [
      '/index.html',
      '/index.html?from=bookmark',
      '/admin/login',
      '/admin/',
      '/no-such-page',
    ]) {
      for (const method of ['GET', 'HEAD']) {
        for (const origin of [undefined, FRONT]) {
          const headers: Record<string, string> = origin ? { origin } : {};
          const answer = await fetchRaw(base, path, { method, headers });
          const label = `${method} ${path} from ${origin ?? 'no origin'}`;
          // An address the app has no route for is its page all the same (it says so), as a 404.
          expect(answer.status, label).toBe(path === '/no-such-page' ? 404 : 200);
          expect(answer.headers['content-type'], label).toBe('text/html; charset=utf-8');
          expect(answer.headers, label).toMatchObject({
            ...SECURITY,
            'content-security-policy': HTML_POLICY,
          });
          // Revalidated on every use: a new build's page must reach the next visit.
          expect(answer.headers['cache-control'], label).toBe('no-cache');
          expect(String(answer.headers.vary).split(', '), label).toContain('origin');
          expect(answer.headers['access-control-allow-origin'], label).toBe(origin);
        }
      }
    }
  });

  it('the page policy lets in this site’s service worker and manifest, and no one else’s', async () => {
    const answer = await fetchRaw(base, '/agent/dashboard');
    const directives = new Map(
      String(answer.headers['content-security-policy'])
        .split(/\s*;\s*/)
        .map((directive) => {
          const [name = '', ...sources] = directive.split(/\s+/);
          return [name, sources] as const;
        }),
    );
    expect(directives.get('worker-src')).toEqual(["'self'"]);
    expect(directives.get('manifest-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
  });

  it('the service worker, its Workbox file and the manifest are revalidated on every use, with their types', async () => {
    for (const file of ['/sw.js', '/workbox-Ab12Cd34.js']) {
      const script = await fetchRaw(base, file);
      expect(script.status, file).toBe(200);
      expect(script.headers['content-type'], file).toMatch(/^(application|text)\/javascript/);
      // A new build's worker must be found at the browser's next update check, not a year later.
      expect(script.headers['cache-control'], file).toBe('no-cache');
      expect(script.headers, file).toMatchObject(SECURITY);
    }
    const manifest = await fetchRaw(base, '/ghadi.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toBe('application/manifest+json');
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });

  it('hashed assets are cached for a year, and a missing one is a 404, not the app’s page', async () => {
    const asset = await fetchRaw(base, ASSET);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(asset.headers).toMatchObject(SECURITY);
    const missing = await fetchRaw(base, '/assets/app-gone0000.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
  });
});
