import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeInZone } from '../../src/shared/dates.js';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createGhadi,
  daysFromToday,
  expectStatus,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import {
  createTestApp,
  DIALECTS,
  noteUnbuilt,
  SITE_TIMEZONE,
  type TestApp,
  WEB_BUILT,
} from '../support/test-app.js';
import { childrenNamed, childText, parseXml, type XmlElement } from '../support/xml.js';

noteUnbuilt('integrity-pages.test.ts');

interface LogPage {
  data: DeclarationEntry[];
  head: { seq: number; hash: string };
}

/** The entry ids of a /declarations page, in the order shown. */
const shownSeqs = (html: string) =>
  [...html.matchAll(/<tr id="seq-(\d+)"/g)].map((match) => Number(match[1]));

const ATOM = 'http://www.w3.org/2005/Atom';

describe.each(DIALECTS)('the declaration log’s page and feed [%s]', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { serveWebApp: WEB_BUILT });
    token = await loginAdmin(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });
  const get = (url: string, headers: Record<string, string> = {}) =>
    call(t.app, { url, headers: { host: 'results.example', ...headers } });
  const declare = (ghadi: GhadiRecord, result: string, date = today()) =>
    submitResult(t.app, token, { ghadiId: ghadi.GID, result, dateTime: date });
  const logApi = async () => expectStatus<LogPage>(await get('/api/declarations?limit=1000'), 200);
  const feed = async () => {
    const response = await get('/feed.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    return { response, root: parseXml(response.body) };
  };

  it('an empty log: a well-formed feed without entries, and a page that says nothing was declared', async () => {
    const { root } = await feed();
    expect(root.name).toBe('feed');
    expect(root.attributes.xmlns).toBe(ATOM);
    expect(childrenNamed(root, 'entry')).toEqual([]);
    expect(childText(root, 'updated')).toBe('1970-01-01T00:00:00.000Z');
    if (!WEB_BUILT) return;
    const page = await get('/declarations');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Nothing has been declared yet.');
    expect(page.body).toContain(`data-testid="head-hash">${'0'.repeat(64)}</dd>`);
  });

  let ghadi: GhadiRecord;
  let corrected: DeclarationEntry;

  it('the feed: the latest entries, newest first, corrections in the title, names escaped', async () => {
    ghadi = await createGhadi(t.app, token, { NameEn: unique('Q&A "Bazar" ') });
    await declare(ghadi, '45');
    await declare(ghadi, '54');
    const entries = (await logApi()).data;
    corrected = entries.at(-1) as DeclarationEntry;
    expect(corrected).toMatchObject({ Result: '54', Previous: '45' });

    const { response, root } = await feed();
    // The name's "&" and quotes are escaped: the raw text never shows them bare.
    expect(response.body).toContain('Q&amp;A &quot;Bazar&quot;');
    expect(childText(root, 'updated')).toBe(corrected.DeclaredAt);
    expect(childText(root, 'id')).toBe('http://results.example/feed.xml');
    const links = childrenNamed(root, 'link').map((link) => link.attributes);
    expect(links).toEqual([
      { rel: 'self', type: 'application/atom+xml', href: 'http://results.example/feed.xml' },
      { rel: 'alternate', type: 'text/html', href: 'http://results.example/declarations' },
    ]);
    expect(childText(childrenNamed(root, 'author')[0] as XmlElement, 'name')).toBeTruthy();

    const [newest, older] = childrenNamed(root, 'entry') as [XmlElement, XmlElement];
    expect(childText(newest, 'title')).toBe(`${ghadi.NameEn} ${today()}: 54 (corrected, was 45)`);
    expect(childText(older, 'title')).toBe(`${ghadi.NameEn} ${today()}: 45`);
    expect(childText(newest, 'id')).toBe(`http://results.example/declarations#seq-${corrected.seq}`);
    expect(childText(newest, 'updated')).toBe(corrected.DeclaredAt);
    const content = childrenNamed(newest, 'content')[0] as XmlElement;
    expect(content.attributes.type).toBe('text');
    expect(content.text).toContain(
      `corrected to 54 (it was 45) at ${timeInZone(corrected.DeclaredAt, SITE_TIMEZONE)}`,
    );
    expect(content.text).toContain(corrected.hash);
    expect(childrenNamed(newest, 'link')[0]?.attributes.href).toBe(
      `http://results.example/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`,
    );
  });

  it.skipIf(!WEB_BUILT)(
    '/declarations: entries newest first, the correction marked, the head, the feed, how to check',
    async () => {
      const response = await get('/declarations');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      const html = response.body;
      const { head } = await logApi();
      expect(shownSeqs(html)).toEqual([head.seq, head.seq - 1]);
      expect(html).toContain(`data-testid="head-seq">${head.seq}</dd>`);
      expect(html).toContain(`data-testid="head-hash">${head.hash}</dd>`);
      expect(html).toContain('<link rel="alternate" type="application/atom+xml" href="/feed.xml"');
      expect(html).toContain('<link rel="canonical" href="/declarations" />');
      const newest = html.slice(
        html.indexOf(`id="seq-${head.seq}"`),
        html.indexOf(`id="seq-${head.seq - 1}"`),
      );
      expect(newest).toContain('title="corrected, was 45"');
      expect(newest).toContain('>corrected, was 45</span>');
      expect(newest).toContain(`>${timeInZone(corrected.DeclaredAt, SITE_TIMEZONE)}</span>`);
      expect(newest).toContain('Q&amp;A &quot;Bazar&quot;');
      expect(html).toContain('JSON.stringify([seq, GID, Date, Result, Previous, DeclaredAt])');
      expect(html).toContain('npm run verify -- URL');
      // Readable without JavaScript: the data is embedded, never executed.
      expect(html).toContain('<script type="application/json" id="page-data">');
    },
  );

  it.skipIf(!WEB_BUILT)(
    'the corrected value is marked on the home page and the ghadi’s page, with its time',
    async () => {
      const home = await get('/');
      const card = home.body.slice(home.body.indexOf(`data-gid="${ghadi.GID}"`));
      expect(card.slice(0, card.indexOf('</li>'))).toMatch(/>54<\/span><sup title="corrected, was 45"/);
      const month = await get(`/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`);
      expect(month.statusCode).toBe(200);
      const day = Number(today().slice(8, 10));
      const row = month.body.slice(
        month.body.indexOf(`<th scope="row">${String(day).padStart(2, '0')}</th>`),
      );
      const cell = row.slice(0, row.indexOf('</tr>'));
      // The mark says it in full to a screen reader and in its tooltip; the row shows "was 45" in
      // short, and the time it was declared (live: on its own date).
      expect(cell).toContain('title="corrected, was 45"');
      expect(cell).toContain('<span class="sr-only"> (<!-- -->corrected, was 45<!-- -->)</span>');
      expect(cell).toMatch(/> · <!-- -->was 45<\/span>/);
      expect(cell).toContain(`>${timeInZone(corrected.DeclaredAt, SITE_TIMEZONE)}</time>`);
    },
  );

  it('past 50 entries: the feed holds the latest 50; the page 50 a page, page 2, and 404 past the end', async () => {
    const other = await createGhadi(t.app, token);
    for (let back = 1; back <= 55; back++) await declare(other, String(back), daysFromToday(-back));
    const { head } = await logApi();
    expect(head.seq).toBeGreaterThan(50);

    const { root } = await feed();
    const entries = childrenNamed(root, 'entry');
    expect(entries).toHaveLength(50);
    expect(entries.map((entry) => childText(entry, 'id'))).toEqual(
      Array.from({ length: 50 }, (_, index) => `http://results.example/declarations#seq-${head.seq - index}`),
    );

    if (!WEB_BUILT) return;
    const first = await get('/declarations');
    expect(shownSeqs(first.body)).toEqual(Array.from({ length: 50 }, (_, index) => head.seq - index));
    expect(first.body).toContain('href="/declarations?page=2" rel="next"');
    expect(first.body).not.toContain('rel="prev"');
    const second = await get('/declarations?page=2');
    expect(second.statusCode).toBe(200);
    expect(shownSeqs(second.body)).toEqual(
      Array.from({ length: head.seq - 50 }, (_, index) => head.seq - 50 - index),
    );
    expect(second.body).toContain('href="/declarations" rel="prev"');
    expect(second.body).toContain('<link rel="canonical" href="/declarations?page=2" />');

    for (const address of ['/declarations?page=3', '/declarations?page=0', '/declarations?page=two']) {
      const missing = await get(address);
      expect(missing.statusCode, address).toBe(404);
      expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(missing.body).toContain('<meta name="robots" content="noindex" />');
      expect(missing.body).toMatch(/There is no (page 3|such page) of the log/);
      expect(shownSeqs(missing.body)).toEqual([]);
    }

    // A new declaration is on the first page at once (the cached page is dropped), with a new ETag.
    await declare(other, '99');
    const after = await get('/declarations');
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(shownSeqs(after.body)[0]).toBe(head.seq + 1);
    expect((await get('/declarations', { 'if-none-match': String(after.headers.etag) })).statusCode).toBe(
      304,
    );
  });

  it.skipIf(!WEB_BUILT)('the sitemap lists the log', async () => {
    expect((await get('/sitemap.xml')).body).toContain('<loc>http://results.example/declarations</loc>');
  });
});

describe.each(DIALECTS)('the feed with PUBLIC_URL [%s]', (dialect) => {
  it('names PUBLIC_URL whatever the Host says, and is kept until a declaration', async () => {
    const own = await createTestApp(dialect, { env: { PUBLIC_URL: 'https://results.example/' } });
    try {
      const token = await loginAdmin(own.app);
      const ghadi = await createGhadi(own.app, token);
      await submitResult(own.app, token, { ghadiId: ghadi.GID, result: '12', dateTime: today() });
      const first = await call(own.app, { url: '/feed.xml', headers: { host: 'evil.example' } });
      expect(first.body).not.toContain('evil.example');
      const root = parseXml(first.body);
      expect(childText(root, 'id')).toBe('https://results.example/feed.xml');
      const again = await call(own.app, { url: '/feed.xml', headers: { host: 'other.example' } });
      expect(again.headers.etag).toBe(first.headers.etag);
      await submitResult(own.app, token, { ghadiId: ghadi.GID, result: '13', dateTime: today() });
      const changed = await call(own.app, { url: '/feed.xml' });
      expect(changed.headers.etag).not.toBe(first.headers.etag);
      expect(childText(childrenNamed(parseXml(changed.body), 'entry')[0] as XmlElement, 'title')).toBe(
        `${ghadi.NameEn} ${today()}: 13 (corrected, was 12)`,
      );
    } finally {
      await own.close();
    }
  });
});

describe('the XML reader the feed tests use', () => {
  it('refuses what is not well-formed', () => {
    for (const bad of [
      '<a><b></a></b>',
      '<a>Q&A</a>',
      '<a x=1/>',
      '<a x="1" x="2"/>',
      '<a/><b/>',
      '<a>',
      '<a>\u0001</a>',
      '<a>&nope;</a>',
    ]) {
      expect(() => parseXml(bad), bad).toThrow();
    }
    const root = parseXml('<?xml version="1.0"?>\n<a k=\'&quot;v&quot;\'><b>x &amp; y&#33;</b><c/></a>\n');
    expect(root).toMatchObject({ name: 'a', attributes: { k: '"v"' } });
    expect(root.children.map((child) => [child.name, child.text])).toEqual([
      ['b', 'x & y!'],
      ['c', ''],
    ]);
  });
});
