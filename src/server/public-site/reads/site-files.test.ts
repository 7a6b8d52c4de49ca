import { describe, expect, it } from 'vitest';
import { childrenNamed, childText, parseXml, type XmlElement } from '../../../../tests/support/xml.js';
import { SITEMAP_LIMITS, type SitemapContents, sitemapFile, sitemapPartPath } from './site-files.js';

const ORIGIN = 'https://results.example';
const TODAY = '2025-06-15';

function contents(overrides: Partial<SitemapContents> = {}): SitemapContents {
  return {
    ghadis: [
      { GID: 1, NameEn: 'Gali' },
      { GID: 2, NameEn: 'Disawer' },
      { GID: 3, NameEn: 'New One' },
    ],
    periods: {
      // 1999 has no chart; GID 3 has no result yet.
      years: new Map([
        [1, [1999, 2023, 2024]],
        [2, [2025]],
      ]),
      months: ['1999-12', '2023-02', '2024-11', '2025-06'],
    },
    withPages: true,
    today: TODAY,
    ...overrides,
  };
}

/** The parsed file, which must be well-formed XML. */
function parsed(file: string | null): XmlElement {
  if (file === null) throw new Error('No such file');
  return parseXml(file);
}

/** Each <url>'s address, and its alternates by language. */
function urlsOf(file: string | null) {
  const root = parsed(file);
  expect(root.name).toBe('urlset');
  return childrenNamed(root, 'url').map((url) => ({
    loc: childText(url, 'loc') ?? '',
    changefreq: childText(url, 'changefreq'),
    alternates: Object.fromEntries(
      childrenNamed(url, 'xhtml:link').map((link) => [link.attributes.hreflang, link.attributes.href]),
    ),
  }));
}

const locsOf = (file: string | null) => urlsOf(file).map((url) => url.loc);

describe('sitemapFile', () => {
  it('lists the pages, the charts of every year and month with results and the current ones, in both languages', () => {
    const locs = locsOf(sitemapFile(ORIGIN, contents(), null));
    const english = [
      '/',
      '/declarations',
      '/satta-results/gali',
      '/satta-results/disawer',
      '/satta-results/new%20one',
      '/satta-results/gali/2025',
      '/satta-results/gali/2024',
      '/satta-results/gali/2023',
      '/satta-results/disawer/2025',
      '/satta-results/new%20one/2025',
      '/chart/2025-06',
      '/chart/2024-11',
      '/chart/2023-02',
    ];
    const hindi = (path: string) => (path === '/' ? '/hi' : `/hi${path}`);
    expect(locs).toEqual(english.flatMap((path) => [`${ORIGIN}${path}`, `${ORIGIN}${hindi(path)}`]));
  });

  it('adds the current year and month even before their first result', () => {
    const locs = locsOf(sitemapFile(ORIGIN, contents({ periods: { years: new Map(), months: [] } }), null));
    expect(locs).toContain(`${ORIGIN}/satta-results/gali/2025`);
    expect(locs).toContain(`${ORIGIN}/hi/satta-results/gali/2025`);
    expect(locs).toContain(`${ORIGIN}/chart/2025-06`);
    expect(locs).toContain(`${ORIGIN}/hi/chart/2025-06`);
    expect(locs.filter((loc) => loc.includes('/chart/'))).toHaveLength(2);
  });

  it('names the pages in both languages as alternates of each, and marks only what shows today as daily', () => {
    const urls = urlsOf(sitemapFile(ORIGIN, contents(), null));
    const alternates = (path: string) => ({
      en: `${ORIGIN}${path}`,
      hi: `${ORIGIN}${path === '/' ? '/hi' : `/hi${path}`}`,
    });
    for (const url of urls) {
      const path = url.loc.startsWith(`${ORIGIN}/hi`)
        ? url.loc.slice(`${ORIGIN}/hi`.length) || '/'
        : url.loc.slice(ORIGIN.length);
      expect(url.alternates).toEqual(alternates(path));
    }
    const daily = (loc: string) => urls.find((url) => url.loc === `${ORIGIN}${loc}`)?.changefreq;
    expect(daily('/')).toBe('daily');
    expect(daily('/hi/satta-results/gali')).toBe('daily');
    expect(daily('/satta-results/gali/2025')).toBe('daily');
    expect(daily('/chart/2025-06')).toBe('daily');
    expect(daily('/satta-results/gali/2024')).toBeUndefined();
    expect(daily('/hi/chart/2023-02')).toBeUndefined();
  });

  it('lists only the home and results pages in English when the server renders no pages', () => {
    const file = sitemapFile(ORIGIN, contents({ withPages: false }), null);
    expect(urlsOf(file)).toEqual(
      ['/', '/satta-results/gali', '/satta-results/disawer', '/satta-results/new%20one'].map((path) => ({
        loc: `${ORIGIN}${path}`,
        changefreq: 'daily',
        alternates: {},
      })),
    );
  });

  it('has no parts while every address fits in one file', () => {
    expect(sitemapFile(ORIGIN, contents(), 1)).toBeNull();
  });

  it('becomes an index of parts past the address limit, each part within it', () => {
    const all = locsOf(sitemapFile(ORIGIN, contents(), null));
    const limits = { ...SITEMAP_LIMITS, urls: 5 };
    const index = parsed(sitemapFile(ORIGIN, contents(), null, limits));
    expect(index.name).toBe('sitemapindex');
    expect(index.attributes.xmlns).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const parts = childrenNamed(index, 'sitemap').map((sitemap) => childText(sitemap, 'loc'));
    expect(parts).toHaveLength(Math.ceil(all.length / 5));
    expect(parts).toEqual(parts.map((_, at) => `${ORIGIN}${sitemapPartPath(at + 1)}`));

    const partLocs = parts.map((_, at) => locsOf(sitemapFile(ORIGIN, contents(), at + 1, limits)));
    for (const locs of partLocs) expect(locs.length).toBeLessThanOrEqual(5);
    expect(partLocs.flat()).toEqual(all);
    expect(sitemapFile(ORIGIN, contents(), parts.length + 1, limits)).toBeNull();
  });

  it('cuts parts by size too, never splitting an address', () => {
    const lone = sitemapFile(ORIGIN, contents(), null) ?? '';
    const limits = { urls: SITEMAP_LIMITS.urls, bytes: 1024 };
    const index = parsed(sitemapFile(ORIGIN, contents(), null, limits));
    const count = childrenNamed(index, 'sitemap').length;
    expect(count).toBeGreaterThanOrEqual(Math.ceil(Buffer.byteLength(lone) / 1024));
    const locs: string[] = [];
    for (let part = 1; part <= count; part++) {
      const file = sitemapFile(ORIGIN, contents(), part, limits) ?? '';
      expect(Buffer.byteLength(file)).toBeLessThanOrEqual(1024);
      locs.push(...locsOf(file));
    }
    expect(locs).toEqual(locsOf(lone));
  });

  it('keeps a realistic site in one file, and splits a site past 50 000 addresses at the protocol limit', () => {
    const ghadisOf = (count: number) =>
      Array.from({ length: count }, (_, at) => ({ GID: at + 1, NameEn: `G${at}` }));
    const years = Array.from({ length: 26 }, (_, at) => 2000 + at);
    const months = years.flatMap((year) =>
      Array.from({ length: 12 }, (_, at) => `${year}-${String(at + 1).padStart(2, '0')}`),
    );
    const siteOf = (count: number): SitemapContents =>
      contents({
        ghadis: ghadisOf(count),
        periods: { years: new Map(ghadisOf(count).map((ghadi) => [ghadi.GID, years])), months },
      });

    // 30 ghadis × 26 years, 306 months up to June 2025, their pages, in two languages.
    const realistic = sitemapFile(ORIGIN, siteOf(30), null) ?? '';
    expect(locsOf(realistic)).toHaveLength(2 * (2 + 30 + 30 * 26 + 306));
    expect(Buffer.byteLength(realistic)).toBeLessThan(SITEMAP_LIMITS.bytes);

    // 1 000 ghadis: 2 × (2 + 1 000 + 26 000 + 306) = 54 616 addresses.
    const large = siteOf(1000);
    const index = parsed(sitemapFile(ORIGIN, large, null));
    expect(childrenNamed(index, 'sitemap')).toHaveLength(2);
    expect(locsOf(sitemapFile(ORIGIN, large, 1))).toHaveLength(SITEMAP_LIMITS.urls);
    expect(locsOf(sitemapFile(ORIGIN, large, 2))).toHaveLength(54_616 - SITEMAP_LIMITS.urls);
    expect(sitemapFile(ORIGIN, large, 3)).toBeNull();
  });

  it('escapes the origin', () => {
    const file = sitemapFile('https://a.example/?x=1&y=<2>', contents({ withPages: false }), null);
    expect(locsOf(file)[0]).toBe('https://a.example/?x=1&y=<2>/');
  });
});
