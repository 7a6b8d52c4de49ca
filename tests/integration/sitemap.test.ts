import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createGhadi,
  expectStatus,
  type Failure,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { writePagesBuild } from '../support/pages-build.js';
import { createTestApp, DIALECTS, type TestApp, tempDir, useTestApp } from '../support/test-app.js';
import { childrenNamed, childText, parseXml } from '../support/xml.js';

const SITE = 'https://results.example';
const YEAR = Number(today().slice(0, 4));
const MONTH = today().slice(0, 7);

/** The addresses a sitemap file lists; it must be well-formed XML with the sitemap namespace. */
function locsOf(body: string): string[] {
  const root = parseXml(body);
  expect(root.name).toBe('urlset');
  expect(root.attributes.xmlns).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  return childrenNamed(root, 'url').map((url) => childText(url, 'loc') ?? '');
}

const pathOf = (name: string) => `/satta-results/${encodeURIComponent(name.toLowerCase())}`;

describe.each(DIALECTS)('the sitemap with the pages built [%s]', (dialect) => {
  const dir = tempDir();
  let t: TestApp;
  let token: string;
  let ghadi: GhadiRecord;
  let fresh: GhadiRecord;
  let gone: GhadiRecord;
  // Years and months far enough back that no other ghadi of this suite has results in them.
  const old = 2003;
  const older = 2002;

  const sitemap = async () => {
    const answer = await call(t.app, { url: '/sitemap.xml' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
    return locsOf(answer.body);
  };
  const declare = (gid: number, dateTime: string, result = '42') =>
    submitResult(t.app, token, { ghadiId: gid, result, dateTime });

  // Made here, not by useTestApp: the stand-in build is written first, into the suite's directory.
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { PUBLIC_URL: SITE, WEB_ROOT: writePagesBuild(dir()) },
      serveWebApp: true,
    });
    token = await loginAdmin(t.app);
    ghadi = await createGhadi(t.app, token, { NameEn: unique('Map') });
    fresh = await createGhadi(t.app, token, { NameEn: unique('Fresh') });
    gone = await createGhadi(t.app, token, { NameEn: unique('Gone') });
    await declare(ghadi.GID, `${old}-03-05`);
    await declare(ghadi.GID, `${old}-07-31`);
    await declare(ghadi.GID, today());
    await declare(gone.GID, `${older}-04-01`);
    await declare(gone.GID, `${old}-03-06`);
    expectStatus(await call(t.app, { method: 'DELETE', url: `/api/ghadis/${gone.GID}`, token }), 200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the stand-in pages (so that the listed pages exist)', async () => {
    for (const url of [`${pathOf(ghadi.NameEn)}/${old}`, `/hi/chart/${old}-03`, '/hi']) {
      expect((await call(t.app, { url })).statusCode, url).toBe(200);
    }
  });

  it("lists each ghadi's years with results and the current year, the months with results and the current month, in both languages", async () => {
    const locs = await sitemap();
    const english = [
      '/',
      '/declarations',
      pathOf(ghadi.NameEn),
      `${pathOf(ghadi.NameEn)}/${YEAR}`,
      `${pathOf(ghadi.NameEn)}/${old}`,
      pathOf(fresh.NameEn),
      `${pathOf(fresh.NameEn)}/${YEAR}`,
      `/chart/${MONTH}`,
      `/chart/${old}-03`,
      `/chart/${old}-07`,
    ];
    for (const page of english) {
      expect(locs).toContain(`${SITE}${page}`);
      expect(locs).toContain(`${SITE}${page === '/' ? '/hi' : `/hi${page}`}`);
    }
    // A year or month without a result of the ghadi (or of any live ghadi) is not a listed chart.
    expect(locs).not.toContain(`${SITE}${pathOf(fresh.NameEn)}/${old}`);
    expect(locs).not.toContain(`${SITE}${pathOf(ghadi.NameEn)}/${old + 1}`);
    expect(locs).not.toContain(`${SITE}/chart/${old}-04`);
    expect(new Set(locs).size).toBe(locs.length);
  });

  it('names each page’s twin in the other language', async () => {
    const body = (await call(t.app, { url: '/sitemap.xml' })).body;
    const url = childrenNamed(parseXml(body), 'url').find(
      (each) => childText(each, 'loc') === `${SITE}/hi${pathOf(ghadi.NameEn)}/${old}`,
    );
    const alternates = Object.fromEntries(
      childrenNamed(url ?? parseXml('<x/>'), 'xhtml:link').map((link) => [
        link.attributes.hreflang,
        link.attributes.href,
      ]),
    );
    expect(alternates).toEqual({
      en: `${SITE}${pathOf(ghadi.NameEn)}/${old}`,
      hi: `${SITE}/hi${pathOf(ghadi.NameEn)}/${old}`,
    });
  });

  it('leaves out deleted ghadis, their years, and months only they had results in', async () => {
    const locs = await sitemap();
    expect(locs.filter((loc) => loc.includes(encodeURIComponent(gone.NameEn.toLowerCase())))).toEqual([]);
    expect(locs).not.toContain(`${SITE}/chart/${older}-04`);
    expect(locs).not.toContain(`${SITE}/hi/chart/${older}-04`);
    // A month a live ghadi has results in stays, whoever else had some.
    expect(locs).toContain(`${SITE}/chart/${old}-03`);
  });

  it('leaves out the periods of results that are not active', async () => {
    const date = `${old - 2}-09-09`;
    await declare(ghadi.GID, date);
    expect(await sitemap()).toContain(`${SITE}/chart/${old - 2}-09`);
    await t.database.db
      .updateTable('results')
      .set({ is_active: 0 })
      .where('gid', '=', ghadi.GID)
      .where('result_date', '=', date)
      .execute();
    // Written behind the app's back: a change of what every page lists (the ghadi's place in the
    // order) drops the kept sitemap with everything else.
    expectStatus(
      await call(t.app, {
        method: 'PUT',
        url: `/api/ghadis/${ghadi.GID}`,
        token,
        body: { NameEn: ghadi.NameEn, NameHn: ghadi.NameHn, RTime: ghadi.RTime, OrderId: ghadi.OrderId + 1 },
      }),
      200,
    );
    const locs = await sitemap();
    expect(locs).not.toContain(`${SITE}/chart/${old - 2}-09`);
    expect(locs).not.toContain(`${SITE}${pathOf(ghadi.NameEn)}/${old - 2}`);
  });

  it('is kept, and a result in a new year or month makes it anew', async () => {
    const first = await call(t.app, { url: '/sitemap.xml' });
    const again = await call(t.app, { url: '/sitemap.xml' });
    expect(again.headers.etag).toBe(first.headers.etag);
    await declare(fresh.GID, `${old + 2}-11-20`);
    const after = await call(t.app, { url: '/sitemap.xml' });
    expect(after.headers.etag).not.toBe(first.headers.etag);
    const locs = locsOf(after.body);
    expect(locs).toContain(`${SITE}${pathOf(fresh.NameEn)}/${old + 2}`);
    expect(locs).toContain(`${SITE}/hi${pathOf(fresh.NameEn)}/${old + 2}`);
    expect(locs).toContain(`${SITE}/chart/${old + 2}-11`);
  });

  it('has no parts while it fits in one file: any part is a 404, a malformed one a 400', async () => {
    for (const part of ['1', '2', '999999']) {
      const answer = await call(t.app, { url: `/sitemap/${part}.xml` });
      expect(expectStatus<Failure>(answer, 404).success).toBe(false);
    }
    for (const part of ['0', '01', '1000000', 'x', '-1']) {
      expect((await call(t.app, { url: `/sitemap/${part}.xml` })).statusCode, part).toBe(400);
    }
  });
});

describe.each(DIALECTS)('the sitemap without PUBLIC_URL or pages [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let ghadi: GhadiRecord;

  beforeAll(async () => {
    const token = await loginAdmin(t.app);
    ghadi = await createGhadi(t.app, token, { NameEn: unique('Plain') });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '07', dateTime: '2004-05-06' });
  });

  it('lists the home and results pages in English under the request’s origin, and nothing the server does not serve', async () => {
    const answer = await call(t.app, { url: '/sitemap.xml', headers: { host: 'here.example' } });
    expect(answer.statusCode).toBe(200);
    const locs = locsOf(answer.body);
    expect(locs).toContain('http://here.example/');
    expect(locs).toContain(`http://here.example${pathOf(ghadi.NameEn)}`);
    expect(locs.filter((loc) => /\/hi\b|\/chart\/|\/declarations|\/\d{4}$/.test(loc))).toEqual([]);
    expect(answer.body).not.toContain('xhtml:link');
  });

  it('answers a 404 for a part, under any origin', async () => {
    const answer = await call(t.app, { url: '/sitemap/1.xml', headers: { host: 'here.example' } });
    expect(expectStatus<Failure>(answer, 404).message).toContain('part 1');
  });
});
