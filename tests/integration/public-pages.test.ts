import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { createTestApp, DIALECTS, noteUnbuilt, type TestApp, WEB_BUILT } from '../support/test-app.js';

noteUnbuilt('public-pages.test.ts');

function monthName(month: number, year: number): string {
  return new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
}

describe.skipIf(!WEB_BUILT).each(DIALECTS)('server-rendered public pages [%s]', (dialect) => {
  let web: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    web = await createTestApp(dialect, { serveWebApp: true });
    adminToken = await loginAdmin(web.app);
  });
  afterAll(async () => {
    await web?.close();
  });
  const page = (url: string, headers: Record<string, string> = {}) =>
    call(web.app, { url, headers: { host: 'results.example', ...headers } });
  const declare = (ghadi: GhadiRecord, result: string, date = today()) =>
    submitResult(web.app, adminToken, { ghadiId: ghadi.GID, result, dateTime: date });

  it('/ arrives as complete HTML with every ghadi and today’s results, and the data to hydrate with', async () => {
    const ghadi = await createGhadi(web.app, adminToken, { OrderId: 0 });
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
    // Without PUBLIC_URL the page names itself by its path, whatever Host the request carried.
    expect(html).toContain('<link rel="canonical" href="/" />');
    expect(html).not.toContain('results.example');
    expect(html).not.toContain('og:url');
    expect(html).toContain('10<!-- --> for <!-- -->1050');
    expect(html).toContain('Section not found.');
    // The embedded data is GET /api/home's, and the page's language.
    const embedded = /<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    const home = (await call(web.app, { url: '/api/home' })).json<{ data: object }>().data;
    expect(JSON.parse(embedded)).toEqual({ ...home, language: 'en' });
    // The only scripts are the module files and the (never executed) data.
    expect(html.match(/<script(?![^>]*(type="module"[^>]*src=|type="application\/json"))/g)).toBeNull();
  });

  it('a declared result and a new blog section show in the next page, with a new ETag', async () => {
    const first = await page('/');
    const ghadi = await createGhadi(web.app, adminToken);
    await createContentBlock(web.app, adminToken, {
      Slug: 'blog-section',
      Content: '<p>Fresh blog post</p>',
    });
    const second = await page('/');
    expect(second.headers.etag).not.toBe(first.headers.etag);
    expect(second.body).toContain(`>${ghadi.NameEn}</a>`);
    expect(second.body).toContain('<p>Fresh blog post</p>');
    expect((await page('/', { 'if-none-match': String(second.headers.etag) })).statusCode).toBe(304);
  });

  it('/satta-results/{name} holds the month’s rows, the month in its title and a canonical link', async () => {
    const ghadi = await createGhadi(web.app, adminToken, { NameEn: unique('Moon Light ') });
    const name = ghadi.NameEn.toLowerCase();
    const month = today().slice(0, 7);
    // Back-filled on the 1st (unless that is today), and today's declared live.
    const day = today().slice(8, 10);
    if (day !== '01') await declare(ghadi, '61', `${month}-01`);
    await declare(ghadi, '62');
    const path = `/satta-results/${encodeURIComponent(name)}`;
    const response = await page(path);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const [year, monthNumber] = today().split('-').map(Number) as [number, number];
    const label = `${monthName(monthNumber, year)} ${year}`;
    expect(html).toContain(`<title>${ghadi.NameEn} Satta Result ${label}`);
    expect(html).toMatch(new RegExp(`<meta name="description" content="${ghadi.NameEn}[^"]*${label}`));
    expect(html).toContain(`<link rel="canonical" href="${path}" />`);
    // A value declared live says when, in the site's time zone; one added days after its date does not.
    expect(html).toMatch(
      new RegExp(
        `<th scope="row">${day}</th><td class="v"><button type="button" class="rc" data-date="${today()}" aria-haspopup="dialog">62</button></td><td><time dateTime="[^"]+">\\d\\d:\\d\\d</time>`,
      ),
    );
    if (Number(day) > 2) {
      expect(html).toContain(
        `<th scope="row">01</th><td class="v"><button type="button" class="rc" data-date="${today().slice(0, 8)}01" aria-haspopup="dialog">61</button></td><td></td>`,
      );
      expect(html).toContain('A value without a time was added later');
    }
    expect(html.match(/<th scope="row">\d\d<\/th>/g)).toHaveLength(31);
    expect(html).toContain('<caption');

    // An earlier month by query: server-rendered too, with no data.
    const earlier = await page(`${path}?month=${monthNumber}&year=${year - 1}`);
    expect(earlier.statusCode).toBe(200);
    expect(earlier.body).toContain(`No data available for ${name}`);
    expect(earlier.body).toContain(`href="${path}?month=${monthNumber}&amp;year=${year - 1}"`);
    // A query the selectors cannot produce (repeated, out of range) shows the current month.
    const odd = await page(`${path}?month=1&month=2&year=1999`);
    expect(odd.statusCode).toBe(200);
    expect(odd.body).toContain(
      `<th scope="row">${day}</th><td class="v"><button type="button" class="rc" data-date="${today()}" aria-haspopup="dialog">62</button></td>`,
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

  it('serves the same cached, compressed page to any Host: made-up hosts cannot lock it out', async () => {
    const before = await page('/', { 'accept-encoding': 'br' });
    expect(before.headers['content-encoding']).toBe('br');
    for (let index = 0; index < 20; index++) {
      const answer = await call(web.app, {
        url: '/',
        headers: { host: `mirror${index}.example`, 'accept-encoding': 'br' },
      });
      expect(answer.statusCode).toBe(200);
    }
    const after = await call(web.app, {
      url: '/',
      headers: { host: 'localhost:3000', 'accept-encoding': 'br' },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers['content-encoding']).toBe('br');
    expect(after.headers.etag).toBe(before.headers.etag);
    expect(after.rawPayload.equals(before.rawPayload)).toBe(true);
  });

  it('does not serve the page template as a file', async () => {
    expect((await call(web.app, { url: '/public.html' })).body).not.toContain('<!--page-body-->');
  });
});

describe.skipIf(!WEB_BUILT).each(DIALECTS)('public pages with PUBLIC_URL [%s]', (dialect) => {
  it('name PUBLIC_URL in canonical links and Open Graph tags, whatever the Host', async () => {
    const web = await createTestApp(dialect, {
      serveWebApp: true,
      env: { PUBLIC_URL: 'https://results.example' },
    });
    try {
      const home = await call(web.app, { url: '/', headers: { host: 'evil.example' } });
      expect(home.body).toContain('<link rel="canonical" href="https://results.example/" />');
      expect(home.body).toContain('<meta property="og:url" content="https://results.example/" />');
      expect(home.body).toContain(
        '<meta property="og:image" content="https://results.example/og-image.png" />',
      );
      expect(home.body).toContain('<meta property="og:image:width" content="1200" />');
      expect(home.body).toContain('<meta name="twitter:card" content="summary_large_image" />');
      expect(home.body).not.toContain('evil.example');
      const ncr = await call(web.app, { url: '/satta-results/ncr', headers: { host: 'other.example' } });
      expect(ncr.body).toContain('<link rel="canonical" href="https://results.example/satta-results/ncr" />');
    } finally {
      await web.close();
    }
  });
});
