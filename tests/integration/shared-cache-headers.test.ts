import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNER_SLUG, BLOG_SLUG } from '../../src/shared/home-content-blocks.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
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
  useTestApp,
  WEB_BUILT,
} from '../support/test-app.js';

noteUnbuilt('shared-cache-headers.test.ts');

const PAST = 2005;
// Browsers are never told stale-while-revalidate (Chrome would show the copy from before a
// declaration); the caches in front read it from CDN-Cache-Control.
const OPEN = {
  browsers: 'public, max-age=0, s-maxage=1, stale-if-error=86400',
  caches: 'public, max-age=1, stale-while-revalidate=86400, stale-if-error=86400',
};
const CLOSED = {
  browsers: 'public, max-age=0, s-maxage=86400, stale-if-error=86400',
  caches: 'public, max-age=86400, stale-while-revalidate=86400, stale-if-error=86400',
};

/**
 * What a shared cache in front of the site (a CDN, Varnish) is told: how long it may keep each public
 * answer, what the answer shows (its keys, to purge by), and nothing that varies by the visitor.
 */
describe.each(DIALECTS)('answers a shared cache can hold [%s]', (dialect) => {
  const t = useTestApp(dialect, {
    env: { PUBLIC_URL: 'https://results.example', PUBLIC_QUERIES_PER_MINUTE: '100000' },
    serveWebApp: WEB_BUILT,
  });
  let token: string;
  let ghadi: GhadiRecord;
  let slug: string;
  const year = today().slice(0, 4);
  const month = today().slice(0, 7);

  beforeAll(async () => {
    token = await loginAdmin(t.app);
    ghadi = await createGhadi(t.app, token, { NameEn: unique('Keyed') });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '45', dateTime: `${PAST}-07-08` });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '54', dateTime: today() });
    slug = unique('keyed-');
    await createContentBlock(t.app, token, { Slug: slug });
  });

  it('every public answer says how long a shared cache may keep it and what it shows', async () => {
    const name = encodeURIComponent(ghadi.NameEn.toLowerCase());
    const g = ghadi.GID;
    const cases: Array<readonly [path: string, control: typeof OPEN, keys: readonly string[]]> = [
      ['/api/ghadis', OPEN, ['home', 'today', `day-${today()}`]],
      [
        '/api/home',
        OPEN,
        ['home', 'today', `month-${month}`, `content-${BLOG_SLUG}`, `content-${BANNER_SLUG}`],
      ],
      ['/api/site', OPEN, ['today']],
      ['/api/results', OPEN, ['log']],
      [`/api/results?month=${month}`, OPEN, [`month-${month}`, 'today']],
      [`/api/results?month=${PAST}-07`, CLOSED, [`month-${PAST}-07`]],
      [`/api/results/${name}`, OPEN, [`ghadi-${g}`, `results-${g}`]],
      [`/api/results/${name}?month=7&year=${PAST}`, CLOSED, [`ghadi-${g}`, `month-${g}-${PAST}-07`]],
      [`/api/contentblocks/slug/${slug}`, OPEN, [`content-${slug}`]],
      ['/api/declarations/head', OPEN, ['log']],
      ['/api/declarations', OPEN, ['log']],
      [`/api/charts/${name}/${year}`, OPEN, [`year-${g}-${year}`, 'periods', 'today']],
      [`/api/charts/${name}/${PAST}`, CLOSED, [`year-${g}-${PAST}`, 'periods']],
      [`/api/charts/month/${month}`, OPEN, [`month-${month}`, 'periods', 'today']],
      [`/api/charts/month/${PAST}-07`, CLOSED, [`month-${PAST}-07`, 'periods']],
      ['/sitemap.xml', OPEN, ['periods', 'today']],
      ['/robots.txt', CLOSED, []],
      ...(WEB_BUILT
        ? ([
            ['/', OPEN, ['home', 'today', `month-${month}`]],
            ['/hi', OPEN, ['home', 'today']],
            [`/satta-results/${name}`, OPEN, [`ghadi-${g}`, `month-${g}-${month}`, 'today']],
            [`/hi/satta-results/${name}/${PAST}`, CLOSED, [`year-${g}-${PAST}`, 'periods']],
            [`/chart/${PAST}-07`, CLOSED, [`month-${PAST}-07`, 'periods']],
            ['/declarations', OPEN, ['log', 'today']],
            ['/feed.xml', OPEN, ['log', 'today']],
          ] as const)
        : []),
    ];
    for (const [path, control, keys] of cases) {
      for (const encoding of ['br', 'gzip', '']) {
        const answer = await call(t.app, {
          url: path,
          headers: encoding ? { 'accept-encoding': encoding } : {},
        });
        const label = `${path} (${encoding || 'identity'})`;
        expect(answer.statusCode, label).toBe(200);
        expect(answer.headers['cache-control'], label).toBe(control.browsers);
        expect(answer.headers['cdn-cache-control'], label).toBe(control.caches);
        const named = String(answer.headers['surrogate-key']).split(' ');
        expect(named, label).toEqual(expect.arrayContaining(['site', ...keys]));
        expect(answer.headers['cache-tag'], label).toBe(named.join(','));
        expect(Number(answer.headers['x-change-id']), label).toBeGreaterThan(0);
        // Nothing that varies by the visitor but the encoding.
        expect(['accept-encoding', undefined], label).toContain(answer.headers.vary);
        expect(answer.headers['set-cookie'], label).toBeUndefined();
        expect(answer.headers['x-request-id'], label).toBeUndefined();
      }
    }
  });

  it('without PUBLIC_URL, the site files name the request’s own address: for no shared cache', async () => {
    const own = await createTestApp(dialect);
    try {
      for (const path of ['/sitemap.xml', '/robots.txt', '/feed.xml']) {
        const answer = await call(own.app, { url: path, headers: { host: 'one.example' } });
        if (answer.statusCode === 404) continue;
        expect(answer.headers['cache-control'], path).toBe('private, max-age=0');
        expect(answer.headers['surrogate-key'], path).toBeUndefined();
        expect(answer.body, path).toContain('one.example');
      }
    } finally {
      await own.close();
    }
  });

  it('authenticated answers stay private and unnamed; the live stream is no shared answer', async () => {
    const admin = await call(t.app, { url: '/api/results', token });
    expect(admin.statusCode).toBe(200);
    expect(admin.headers['cache-control']).toBe('private, no-store');
    expect(admin.headers['surrogate-key']).toBeUndefined();
    const users = await call(t.app, { url: '/api/users', token });
    expect(users.headers['cache-control']).toBe('private, no-store');
    expect(users.headers['surrogate-key']).toBeUndefined();

    const base = await listen(t.app);
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${base}/api/events`, resolve).on('error', reject);
    });
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['surrogate-key']).toBeUndefined();
    expect(String(stream.headers['cache-control'])).not.toMatch(/s-maxage|public/);
    stream.destroy();
  });
});

/** A stand-in for the shared cache: it records each purge, or answers none at all (`hang`). */
async function purgeStandIn(hang = false) {
  const purges: Array<{ method: string; keys: string; change: number }> = [];
  const server = http.createServer((request, response) => {
    purges.push({
      method: request.method ?? '',
      keys: String(request.headers['xkey-purge']),
      change: Number(request.headers['x-change-id']),
    });
    if (!hang) response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    purges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(DIALECTS)('purges sent to PURGE_URL [%s]', (dialect) => {
  let standIn: Awaited<ReturnType<typeof purgeStandIn>>;
  let web: TestApp;
  let token: string;

  beforeAll(async () => {
    standIn = await purgeStandIn();
    web = await createTestApp(dialect, {
      env: { PURGE_URL: standIn.url, METRICS_TOKEN: 'metrics-token-for-purges' },
    });
    token = await loginAdmin(web.app);
  });
  afterAll(async () => {
    await web?.close();
    await standIn?.close();
  });

  it('one purge per change, naming the keys it dropped and its change id, from the process that made it', async () => {
    const ghadi = await createGhadi(web.app, token, { NameEn: unique('Purged') });
    await expect.poll(() => standIn.purges.length).toBe(1);
    expect(standIn.purges[0]).toMatchObject({ method: 'PURGE', keys: 'site' });
    const date = today();
    await submitResult(web.app, token, { ghadiId: ghadi.GID, result: '61', dateTime: date });
    await expect.poll(() => standIn.purges.length).toBe(2);
    const purge = standIn.purges[1];
    expect(purge?.keys.split(' ').sort()).toEqual(
      [
        `day-${date}`,
        `month-${date.slice(0, 7)}`,
        `month-${ghadi.GID}-${date.slice(0, 7)}`,
        `year-${ghadi.GID}-${date.slice(0, 4)}`,
        `results-${ghadi.GID}`,
        'home',
        'log',
        // The ghadi's first result of the year: its charts' list of years gains this one.
        'periods',
      ].sort(),
    );
    expect(purge?.change).toBeGreaterThan(standIn.purges[0]?.change ?? 0);
    // The same value again changes nothing anyone sees: nothing to purge.
    await submitResult(web.app, token, { ghadiId: ghadi.GID, result: '61', dateTime: date });
    const metrics = await call(web.app, { url: '/metrics', token: 'metrics-token-for-purges' });
    expect(metrics.body).toMatch(/public_cache_purges_total\{outcome="sent"\} 2/);
    expect(standIn.purges).toHaveLength(2);
  });

  it('never makes a writer wait for a cache that does not answer', async () => {
    const silent = await purgeStandIn(true);
    const other = await createTestApp(dialect, { env: { PURGE_URL: silent.url } });
    try {
      const admin = await loginAdmin(other.app);
      // Each write answers though the cache holds its purge without a word.
      const first = await createGhadi(other.app, admin, { NameEn: unique('Unheard') });
      await submitResult(other.app, admin, { ghadiId: first.GID, result: '10', dateTime: today() });
      await expect.poll(() => silent.purges.length).toBe(1);
      const raw = await fetchRaw(await listen(other.app), '/api/ghadis');
      expect(raw.status).toBe(200);
    } finally {
      await other.close();
      await silent.close();
    }
  });
});
