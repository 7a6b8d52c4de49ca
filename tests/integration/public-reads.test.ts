import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { PasswordHasher } from '../../src/server/lib/passwords.js';
import { activityModule } from '../../src/server/modules/activity/activity-module.js';
import { assignmentsModule } from '../../src/server/modules/assignments/assignments-module.js';
import { changesModule } from '../../src/server/modules/changes/changes-module.js';
import { contentBlocksModule } from '../../src/server/modules/content-blocks/content-blocks-module.js';
import { declarationsModule } from '../../src/server/modules/declarations/declarations-module.js';
import { ghadisModule } from '../../src/server/modules/ghadis/ghadis-module.js';
import type { ModuleContext } from '../../src/server/modules/module-context.js';
import { resultsModule } from '../../src/server/modules/results/results-module.js';
import { statsModule } from '../../src/server/modules/stats/stats-module.js';
import { usersModule } from '../../src/server/modules/users/users-module.js';
import type { HomePageData } from '../../src/shared/public-page-data.js';
import { itemAnswer, listAnswer } from '../../src/shared/schemas/common.js';
import { contentBlockRecord } from '../../src/shared/schemas/content-blocks.js';
import { type GhadiRecord, ghadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  MAX_PUBLIC_LIMIT,
  type PublicResultRecord,
  publicResultRecord,
  type ResultRecord,
  resultListAnswer,
} from '../../src/shared/schemas/results.js';
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
import { decode } from '../support/http.js';
import { createTestApp, DIALECTS, type TestApp, useTestApp } from '../support/test-app.js';

/**
 * The services the API's live handlers call, on the same database, bypassing every cache: made by the
 * same module factories as the app's, so they are the app's services, not a copy of its wiring.
 */
async function liveServices(t: TestApp) {
  const { database, config } = t;
  const { changes } = await changesModule(database, t.app.log);
  const activity = activityModule(database, {
    timeZone: config.siteTimezone,
    retentionDays: config.activityRetentionDays,
    now: Date.now,
    log: t.app.log,
  });
  const context: ModuleContext = {
    database,
    config,
    log: t.app.log,
    now: Date.now,
    changes,
    activity: activity.recorder,
  };
  const users = usersModule(context, new PasswordHasher(config.passwordMemoryCost));
  const ghadis = ghadisModule(context).service;
  const results = resultsModule(context, {
    ghadis,
    assignments: assignmentsModule(context, users.repository).repository,
    declarations: declarationsModule(database, statsModule(context).daily).log,
  }).service;
  const blocks = contentBlocksModule(context).service;
  /** What a live handler sends: the answer through the route's response schema. */
  const json = <T extends z.ZodType>(schema: T, value: z.input<T>) =>
    JSON.stringify(z.encode(schema, value as z.output<T>));
  return {
    ghadis: async () => json(listAnswer(ghadiRecord), { success: true, data: await ghadis.list() }),
    results: async (month?: string) =>
      json(resultListAnswer, {
        success: true,
        ...(month
          ? { data: await results.publicMonth(month) }
          : await results.page({}, false, MAX_PUBLIC_LIMIT)),
      }),
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

describe.each(DIALECTS)('public reads [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;
  let live: Awaited<ReturnType<typeof liveServices>>;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
    live = await liveServices(t);
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
      expect(plain.headers['cache-control']).toBe('public, max-age=0, s-maxage=1, stale-if-error=86400');
      expect(plain.headers['cdn-cache-control']).toBe(
        'public, max-age=1, stale-while-revalidate=86400, stale-if-error=86400',
      );
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
        // The first read after midnight may get yesterday's board while the new one is built (it was
        // read, so the server rebuilds it at once), marked for no shared cache to keep; then the new day.
        const first = await call(own.app, { url: '/api/ghadis' });
        if (first.headers['surrogate-key'] === undefined)
          expect(first.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=0,/);
        await expect.poll(read, { interval: 20, timeout: 5000 }).toMatchObject({
          TodayResult: '',
          YesterdayResult: '66',
        });
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

  describe('GET /api/home', () => {
    it('answers everything the home page shows, at the version of the latest change', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      await declare(ghadi, '81');
      await createContentBlock(t.app, adminToken, { Slug: 'home-banner', Content: '<p>Banner</p>' });
      const home = expectStatus<{ data: HomePageData }>(await get('/api/home'), 200).data;
      const month = new Date().toISOString().slice(0, 7);
      expect(home.page).toBe('home');
      expect(home.today).toBe(today());
      expect(home.recordMonth).toBe(month);
      expect(home.ghadis).toEqual(expectStatus<List<GhadiRecord>>(await get('/api/ghadis'), 200).data);
      const monthResults = expectStatus<List<PublicResultRecord>>(
        await get(`/api/results?month=${month}`),
        200,
      );
      expect(home.record).toEqual(monthResults.data.filter((result) => result.Name));
      expect(home.bannerHtml).toBe('<p>Banner</p>');
      const latest = await t.database.db
        .selectFrom('change_log')
        .select((eb) => eb.fn.max('change_id').as('latest'))
        .executeTakeFirstOrThrow();
      expect(home.version).toBe(Number(latest.latest));
      expect(home.record.find((row) => row.GID === ghadi.GID)?.Result).toBe('81');
    });
  });

  describe('names', () => {
    it('GET /api/results/count stays the admin count, and no ghadi may be named "count"', async () => {
      expect((await get('/api/results/count')).statusCode).toBe(401);
      for (const NameEn of ['count', 'COUNT', ' Count ']) {
        const refused = await call(t.app, {
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: { NameEn, NameHn: 'x', RTime: '1 PM', OrderId: 1 },
        });
        expect(refused.statusCode, NameEn).toBe(400);
        expect(refused.json<Failure>().message).toBe('NameEn: This name is reserved');
      }
    });

    it('finds a ghadi by its lower-cased name in any script, the same way on both databases', async () => {
      const tag = unique('').slice(-6);
      // The last is 47 characters, over 400 once percent-encoded in the path.
      for (const NameEn of [
        `Éclair ${tag}`,
        `गली खास ${tag}`,
        `ÇAĞRI İstanbul ${tag}`,
        `${'गली खास '.repeat(5)}${tag}`,
      ]) {
        const ghadi = await createGhadi(t.app, adminToken, { NameEn });
        await declare(ghadi, '64');
        const lower = NameEn.normalize('NFC').toLowerCase();
        for (const name of [lower, NameEn]) {
          const answer = await get(`/api/results/${encodeURIComponent(name)}`);
          expect(answer.statusCode, name).toBe(200);
          expect(answer.json<List<PublicResultRecord>>().data[0]).toMatchObject({
            GID: ghadi.GID,
            Result: '64',
          });
        }
        // The decomposed spelling of the same name is the same ghadi.
        expect((await get(`/api/results/${encodeURIComponent(lower.normalize('NFD'))}`)).statusCode).toBe(
          200,
        );
        // Names equal once folded are one name.
        const twin = await call(t.app, {
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: { NameEn: NameEn.toUpperCase(), NameHn: 'x', RTime: '1 PM', OrderId: 1 },
        });
        expect(twin.statusCode, NameEn.toUpperCase()).toBe(409);
      }
    });
  });
});

describe.each(DIALECTS)('site files with PUBLIC_URL [%s]', (dialect) => {
  it('name PUBLIC_URL whatever the Host header says, and are kept', async () => {
    const own = await createTestApp(dialect, { env: { PUBLIC_URL: 'https://results.example/' } });
    try {
      const sitemap = await call(own.app, { url: '/sitemap.xml', headers: { host: 'evil.example' } });
      expect(sitemap.body).toContain('<loc>https://results.example/</loc>');
      expect(sitemap.body).toContain('<loc>https://results.example/satta-results/ncr</loc>');
      expect(sitemap.body).not.toContain('evil.example');
      const again = await call(own.app, { url: '/sitemap.xml', headers: { host: 'other.example' } });
      expect(again.headers.etag).toBe(sitemap.headers.etag);
      const robots = await call(own.app, { url: '/robots.txt', headers: { host: 'evil.example' } });
      expect(robots.body).toContain('Sitemap: https://results.example/sitemap.xml');
    } finally {
      await own.close();
    }
  });
});
