import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createGhadi,
  loginAdmin,
  type Response,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { createTestApp, DIALECTS, noteUnbuilt, type TestApp, WEB_BUILT } from '../support/test-app.js';

noteUnbuilt('chart-pages.test.ts');

/** The page's embedded data (what it hydrates with). */
function pageData(html: string): Record<string, unknown> {
  const json = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html)?.[1];
  if (!json) throw new Error('the page has no data');
  return JSON.parse(json) as Record<string, unknown>;
}

/** Every JSON-LD item in the page's head. */
function structuredData(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    (match) => JSON.parse(match[1] ?? '') as Record<string, unknown>,
  );
}

function linkHref(html: string, rel: string, hreflang?: string): string | undefined {
  const language = hreflang ? ` hreflang="${hreflang}"` : '';
  return new RegExp(`<link rel="${rel}"${language} href="([^"]*)"`).exec(html)?.[1];
}

describe.skipIf(!WEB_BUILT).each(DIALECTS)('chart pages, in English and Hindi [%s]', (dialect) => {
  let web: TestApp;
  let token: string;
  let ghadi: GhadiRecord;
  let name: string;
  const year = Number(today().slice(0, 4));
  const lastYear = year - 1;
  const thisMonth = today().slice(0, 7);

  beforeAll(async () => {
    web = await createTestApp(dialect, {
      serveWebApp: true,
      // Every 404 page is made per request, which a client may ask for only so often.
      env: { PUBLIC_URL: 'https://results.example', PUBLIC_QUERIES_PER_MINUTE: '100000' },
    });
    token = await loginAdmin(web.app);
    ghadi = await createGhadi(web.app, token, {
      NameEn: unique('Chart Page '),
      NameHn: 'चार्ट घड़ी',
      OrderId: 0,
    });
    name = ghadi.NameEn.toLowerCase();
    // A full past year through the CSV import (one request), then a correction of one day.
    const lines = ['Date,GID,Result'];
    for (let date = `${lastYear}-01-01`; date <= `${lastYear}-12-31`; date = addDays(date, 1))
      lines.push(`${date},${ghadi.GID},${String((Number(date.slice(8, 10)) * 7) % 100).padStart(2, '0')}`);
    const imported = await call(web.app, {
      method: 'POST',
      url: '/api/results/import?dryRun=false',
      token,
      headers: { 'content-type': 'text/csv' },
      body: `${lines.join('\n')}\n`,
    });
    expect(imported.statusCode).toBe(200);
    await submitResult(web.app, token, { ghadiId: ghadi.GID, result: '42', dateTime: `${thisMonth}-01` });
    await submitResult(web.app, token, { ghadiId: ghadi.GID, result: '24', dateTime: `${thisMonth}-01` });
  });
  afterAll(async () => {
    await web?.close();
  });

  const page = (url: string, headers: Record<string, string> = {}): Promise<Response> =>
    call(web.app, { url, headers });

  it('a year chart is server-rendered in each language with its values, twins, canonical and JSON-LD', async () => {
    const path = `/satta-results/${encodeURIComponent(name)}/${lastYear}`;
    const english = await page(path);
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toMatch(new RegExp(`<title>${ghadi.NameEn} Yearly Chart ${lastYear}`));
    expect(linkHref(english.body, 'canonical')).toBe(`https://results.example${path}`);
    expect(linkHref(english.body, 'alternate', 'en')).toBe(`https://results.example${path}`);
    expect(linkHref(english.body, 'alternate', 'hi')).toBe(`https://results.example/hi${path}`);
    expect(linkHref(english.body, 'alternate', 'x-default')).toBe(`https://results.example${path}`);

    const data = pageData(english.body) as { chart: { months: unknown[][]; years: number[] } };
    const api = (await page(`/api/charts/${encodeURIComponent(name)}/${lastYear}`)).json<{ data: unknown }>();
    expect(data.chart).toEqual(api.data);
    expect(data.chart.months[1]?.[27]).toEqual({ Result: '96', Corrected: false });
    // 28 × 7 = 196: the value shows in the markup, not only in the data.
    expect(english.body.slice(0, english.body.indexOf('id="page-data"'))).toContain('>96<');

    const [breadcrumbs, dataset] = structuredData(english.body);
    expect(breadcrumbs).toMatchObject({ '@type': 'BreadcrumbList' });
    expect((breadcrumbs?.itemListElement as unknown[] | undefined)?.at(-1)).toMatchObject({
      item: `https://results.example${path}`,
    });
    expect(dataset).toMatchObject({
      '@type': 'Dataset',
      url: `https://results.example${path}`,
      temporalCoverage: String(lastYear),
      distribution: {
        contentUrl: `https://results.example/api/charts/${encodeURIComponent(name)}/${lastYear}`,
      },
    });

    const hindi = await page(`/hi${path}`);
    expect(hindi.statusCode).toBe(200);
    expect(hindi.body).toContain('<html lang="hi">');
    expect(hindi.body).toMatch(new RegExp(`<title>चार्ट घड़ी वार्षिक चार्ट ${lastYear}`));
    expect(linkHref(hindi.body, 'canonical')).toBe(`https://results.example/hi${path}`);
    expect(linkHref(hindi.body, 'alternate', 'en')).toBe(`https://results.example${path}`);
    expect(structuredData(hindi.body)[1]).toMatchObject({
      inLanguage: 'hi',
      url: `https://results.example/hi${path}`,
    });
    expect(pageData(hindi.body)).toMatchObject({ page: 'year-chart', language: 'hi' });
  });

  it('a year chart with a full year of results stays within 25 KB, brotli-compressed', async () => {
    const response = await page(`/satta-results/${encodeURIComponent(name)}/${lastYear}`, {
      'accept-encoding': 'br',
    });
    expect(response.headers['content-encoding']).toBe('br');
    const data = pageData(brotliDecompressSync(response.rawPayload).toString()) as {
      chart: { months: unknown[][] };
    };
    expect(data.chart.months.flat().filter(Boolean)).toHaveLength(365 + (lastYear % 4 === 0 ? 1 : 0));
    expect(response.rawPayload.length).toBeLessThanOrEqual(25 * 1024);
  });

  it('a month chart has every ghadi’s column, its twins and a Dataset', async () => {
    const english = await page(`/chart/${thisMonth}`);
    expect(english.statusCode).toBe(200);
    expect(english.body).toMatch(/<title>Satta Chart [A-Z][a-z]+ \d{4}/);
    const data = pageData(english.body) as { chart: { ghadis: Array<{ GID: number }>; days: unknown[][] } };
    const api = (await page(`/api/charts/month/${thisMonth}`)).json<{ data: unknown }>();
    expect(data.chart).toEqual(api.data);
    const column = data.chart.ghadis.findIndex((entry) => entry.GID === ghadi.GID);
    expect(column).toBeGreaterThanOrEqual(0);
    expect(data.chart.days[0]?.[column]).toEqual({ Result: '24', Corrected: true });
    expect(linkHref(english.body, 'alternate', 'hi')).toBe(`https://results.example/hi/chart/${thisMonth}`);
    expect(structuredData(english.body).map((item) => item['@type'])).toEqual(['BreadcrumbList', 'Dataset']);

    const hindi = await page(`/hi/chart/${thisMonth}`);
    expect(hindi.statusCode).toBe(200);
    expect(hindi.body).toContain('<html lang="hi">');
    expect(hindi.body).toContain('चार्ट घड़ी');
  });

  it('every other public page has its Hindi twin, and each names the other', async () => {
    for (const path of ['/', `/satta-results/${encodeURIComponent(name)}`, '/declarations']) {
      const hindiPath = path === '/' ? '/hi' : `/hi${path}`;
      const english = await page(path);
      const hindi = await page(hindiPath);
      expect([english.statusCode, hindi.statusCode]).toEqual([200, 200]);
      expect(english.body).toContain('<html lang="en">');
      expect(hindi.body).toContain('<html lang="hi">');
      expect(linkHref(english.body, 'alternate', 'hi')).toBe(`https://results.example${hindiPath}`);
      expect(linkHref(hindi.body, 'alternate', 'en')).toBe(`https://results.example${path}`);
      expect(linkHref(hindi.body, 'canonical')).toBe(`https://results.example${hindiPath}`);
      // The visible switch: each page links to its twin.
      expect(english.body).toContain(`href="${hindiPath}"`);
      expect(hindi.body).toContain(`href="${path}"`);
    }
  });

  it('an unknown ghadi, a year or month without a chart, or a malformed one, answers the 404 page', async () => {
    const missing = [
      `/satta-results/${unique('nobody')}/${lastYear}`,
      `/satta-results/${encodeURIComponent(name)}/1999`,
      `/satta-results/${encodeURIComponent(name)}/${year + 1}`,
      `/satta-results/${encodeURIComponent(name)}/20x5`,
      `/satta-results/${encodeURIComponent(name)}/02025`,
      '/chart/1999-12',
      `/chart/${addDays(`${thisMonth}-28`, 7).slice(0, 7)}`,
      '/chart/2025-13',
      '/chart/november',
    ];
    for (const path of missing) {
      for (const address of [path, `/hi${path}`]) {
        const response = await page(address);
        expect([address, response.statusCode]).toEqual([address, 404]);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.body).toContain('<meta name="robots" content="noindex" />');
        expect(pageData(response.body)).toMatchObject({
          page: 'not-found',
          language: address.startsWith('/hi') ? 'hi' : 'en',
        });
      }
    }
  });

  it('a year without the ghadi’s results, or a month without any, is a 404 (but the current ones), never kept', async () => {
    const empty = [
      `/satta-results/${encodeURIComponent(name)}/${lastYear - 1}`,
      `/satta-results/${encodeURIComponent(name)}/2000`,
      `/chart/${lastYear - 1}-06`,
      '/chart/2000-01',
    ];
    for (const path of empty) {
      for (const address of [path, `/hi${path}`]) {
        const response = await page(address);
        expect([address, response.statusCode]).toEqual([address, 404]);
        expect(pageData(response.body)).toMatchObject({ page: 'not-found' });
        // A 404 made for its request (no ETag: nothing kept), which a result in that period would end.
        expect(response.headers.etag).toBeUndefined();
        expect(String(response.headers['surrogate-key']).split(' ')).toContain('periods');
      }
    }
    // The years and months with results, and the current ones, have their pages; their links between
    // periods lead only to pages that exist.
    for (const path of [
      `/satta-results/${encodeURIComponent(name)}/${lastYear}`,
      `/satta-results/${encodeURIComponent(name)}/${year}`,
      `/chart/${lastYear}-06`,
      `/chart/${thisMonth}`,
    ])
      expect([path, (await page(path)).statusCode]).toEqual([path, 200]);
    const lastYearPage = await page(`/chart/${lastYear}-01`);
    expect(pageData(lastYearPage.body)).toMatchObject({ previousMonth: null, nextMonth: `${lastYear}-02` });
  });

  it('the sitemap lists exactly the chart pages that answer 200', async () => {
    const sitemap = await page('/sitemap.xml');
    const listed = [...sitemap.body.matchAll(/<loc>https:\/\/results\.example([^<]*)<\/loc>/g)].map(
      (match) => match[1] as string,
    );
    const own = encodeURIComponent(name);
    const charts = listed.filter(
      (path) => path.includes(`/satta-results/${own}/`) || path.includes('/chart/'),
    );
    for (const path of charts) expect([path, (await page(path)).statusCode]).toEqual([path, 200]);
    // Every year of this ghadi's since 2000, and every month of the last two years: listed if and
    // only if it answers 200.
    const years = Array.from({ length: year - 1999 }, (_, index) => 2000 + index);
    const months = [lastYear, year]
      .flatMap((each) =>
        Array.from({ length: 12 }, (_, index) => `${each}-${String(index + 1).padStart(2, '0')}`),
      )
      .filter((month) => month <= thisMonth);
    for (const path of [
      ...years.map((each) => `/satta-results/${own}/${each}`),
      ...months.map((month) => `/chart/${month}`),
    ]) {
      const status = (await page(path)).statusCode;
      expect([path, listed.includes(path)]).toEqual([path, status === 200]);
    }
  });

  it('a respelled name is redirected to the address the site links to, in the same language', async () => {
    const respelled = encodeURIComponent(ghadi.NameEn.toUpperCase());
    const folded = encodeURIComponent(name);
    for (const prefix of ['', '/hi']) {
      const response = await page(`${prefix}/satta-results/${respelled}/${lastYear}`);
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe(`${prefix}/satta-results/${folded}/${lastYear}`);
    }
  });

  it('a declared result is in the next year chart and month chart, in both languages', async () => {
    const date = today();
    const path = `/satta-results/${encodeURIComponent(name)}/${year}`;
    const before = await page(path);
    await submitResult(web.app, token, { ghadiId: ghadi.GID, result: '63', dateTime: date });
    for (const address of [path, `/hi${path}`]) {
      const after = await page(address);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const chart = (pageData(after.body) as { chart: { months: unknown[][] } }).chart;
      expect(chart.months[Number(date.slice(5, 7)) - 1]?.[Number(date.slice(8, 10)) - 1]).toEqual({
        Result: '63',
        Corrected: false,
      });
    }
    const month = pageData((await page(`/hi/chart/${date.slice(0, 7)}`)).body) as {
      chart: { ghadis: Array<{ GID: number }>; days: unknown[][] };
    };
    const column = month.chart.ghadis.findIndex((entry) => entry.GID === ghadi.GID);
    expect(month.chart.days[Number(date.slice(8, 10)) - 1]?.[column]).toEqual({
      Result: '63',
      Corrected: false,
    });
  });
});
