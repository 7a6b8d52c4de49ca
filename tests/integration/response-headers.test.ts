import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createGhadi, loginAdmin, submitResult, today, unique } from '../support/factories.js';
import { fetchRaw, listen } from '../support/http.js';
import { createTestApp, DIALECTS, type TestApp } from '../support/test-app.js';

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

describe.each(DIALECTS)('response headers with CORS_ORIGINS and an https PUBLIC_URL [%s]', (dialect) => {
  let web: TestApp;
  let base: string;
  let adminToken: string;
  let name: string;

  beforeAll(async () => {
    web = await createTestApp(dialect, { env: { CORS_ORIGINS: FRONT, PUBLIC_URL: SITE } });
    base = await listen(web.app);
    adminToken = await loginAdmin(web.app);
    const ghadi = await createGhadi(web.app, adminToken);
    await submitResult(web.app, adminToken, { ghadiId: ghadi.GID, result: '31', dateTime: today() });
    name = encodeURIComponent(ghadi.NameEn.toLowerCase());
  });
  afterAll(async () => {
    await web?.close();
  });

  it('Vary: Origin, the CORS headers and HSTS are the same on both answer paths, for any Origin', async () => {
    for (const path of ['/api/ghadis', `/api/results/${name}`, '/api/home', '/api/results']) {
      for (const origin of [undefined, FRONT, SITE, 'https://elsewhere.example']) {
        const headers: Record<string, string> = { 'accept-encoding': 'br', ...(origin ? { origin } : {}) };
        await fetchRaw(base, path, { headers });
        const raw = await fetchRaw(base, path, { headers });
        const viaFastify = await web.app.inject({ url: path, headers });
        const label = `${path} from ${origin ?? 'no origin'}`;
        expect(corsPart(raw.headers), label).toEqual(corsPart(viaFastify.headers));
        expect(String(raw.headers.vary).split(', '), label).toContain('origin');
        expect(raw.headers['strict-transport-security'], label).toBe('max-age=31536000');
        expect(raw.headers['access-control-allow-origin'], label).toBe(origin === FRONT ? FRONT : undefined);
        // An allowed front end's reads take the fast path too; an unknown origin's go to Fastify.
        expect(raw.headers['x-request-id'] === undefined, label).toBe(origin !== 'https://elsewhere.example');
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
