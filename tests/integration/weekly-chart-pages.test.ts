import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { call, createGhadi, loginAdmin, type Response, submitResult, unique } from '../support/factories.js';
import { createTestApp, DIALECTS, noteUnbuilt, type TestApp, WEB_BUILT } from '../support/test-app.js';
import { addHoliday, createMarket } from '../support/weekly-markets.js';

noteUnbuilt('weekly-chart-pages.test.ts');

const ORIGIN = 'https://results.example';

/** The page's embedded data (what it hydrates with). */
function pageData(html: string): Record<string, unknown> {
  const json = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html)?.[1];
  if (!json) throw new Error('the page has no data');
  return JSON.parse(json) as Record<string, unknown>;
}

function linkHref(html: string, rel: string, hreflang?: string): string | undefined {
  const language = hreflang ? ` hreflang="${hreflang}"` : '';
  return new RegExp(`<link rel="${rel}"${language} href="([^"]*)"`).exec(html)?.[1];
}

function structuredData(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    (match) => JSON.parse(match[1] ?? '') as Record<string, unknown>,
  );
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replaceAll('&amp;', '&')
    .replaceAll('&#x27;', "'")
    .trim();

/** The markup of the table's rows, as the server rendered it (what a reader without JavaScript gets). */
function tableRows(html: string): string[][] {
  const table = /<table class="chart-table weekly-table[^"]*"[^>]*>(.*?)<\/table>/s.exec(html)?.[1] ?? '';
  return [...table.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((row) =>
    [...(row[1] ?? '').matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>|<t[hd][^>]*\/>/gs)].map((cell) => cell[1] ?? ''),
  );
}

/** The parts of a panel cell, in the order they are written: its spans without attributes (the marks' have some). */
const partsOf = (cell: string) => cell.split('<span>').slice(1).map(text);

describe.skipIf(!WEB_BUILT).each(DIALECTS)('weekly chart pages, in English and Hindi [%s]', (dialect) => {
  let web: TestApp;
  let token: string;
  let market: GhadiRecord;
  let jodi: GhadiRecord;
  let name: string;

  beforeAll(async () => {
    web = await createTestApp(dialect, {
      serveWebApp: true,
      env: { PUBLIC_URL: ORIGIN, PUBLIC_QUERIES_PER_MINUTE: '100000' },
    });
    token = await loginAdmin(web.app);
    market = await createMarket(web.app, token, {
      Kind: 'open-close',
      Days: [1, 2, 3, 4, 5, 6],
      NameEn: unique('Kalyan '),
      NameHn: 'कल्याण',
    });
    jodi = await createGhadi(web.app, token, { NameEn: unique('Plain Jodi ') });
    name = encodeURIComponent(market.NameEn.toLowerCase());
    const declare = (ghadi: GhadiRecord, dateTime: string, result: string) =>
      submitResult(web.app, token, { ghadiId: ghadi.GID, result, dateTime });
    await declare(market, '2024-11-25', '123-68-459');
    await declare(market, '2024-11-26', '128');
    await declare(market, '2024-11-27', '145-02-200');
    await declare(market, '2024-11-27', '137-12-246');
    await addHoliday(web.app, token, '2024-11-28', market.GID);
    await declare(market, '2023-06-05', '119-11-777');
    await declare(jodi, '2024-11-25', '45');
  });
  afterAll(async () => {
    await web?.close();
  });

  const page = (url: string): Promise<Response> => call(web.app, { url });

  it('a jodi chart reads without JavaScript: a row a week, a column a running weekday, in each language', async () => {
    const path = `/jodi-chart/${name}/2024`;
    const english = await page(path);
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toMatch(new RegExp(`<title>${market.NameEn} Jodi Chart 2024`));
    expect(linkHref(english.body, 'canonical')).toBe(`${ORIGIN}${path}`);
    expect(linkHref(english.body, 'alternate', 'en')).toBe(`${ORIGIN}${path}`);
    expect(linkHref(english.body, 'alternate', 'hi')).toBe(`${ORIGIN}/hi${path}`);
    expect(linkHref(english.body, 'alternate', 'x-default')).toBe(`${ORIGIN}${path}`);

    const rows = tableRows(english.body);
    expect(rows.map((row) => row.map(text))).toEqual([
      ['Week', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
      [
        '25 Nov – 1 Dec',
        '68',
        '1* (close to come)',
        '12✱ (corrected)',
        'Holiday',
        // Past dates with no result.
        '–',
        '–',
      ],
    ]);
    const data = pageData(english.body) as { page: string; view: string; chart: unknown };
    expect(data).toMatchObject({ page: 'weekly-chart', view: 'jodi', language: 'en' });
    const api = (await page(`/api/charts/${name}/2024/weeks`)).json<{ data: unknown }>();
    expect(data.chart).toEqual(api.data);

    const [breadcrumbs, dataset] = structuredData(english.body);
    expect(
      ((breadcrumbs?.itemListElement ?? []) as Array<{ item: string }>).map((item) => item.item),
    ).toEqual([
      `${ORIGIN}/`,
      `${ORIGIN}/satta-results/${name}`,
      `${ORIGIN}/satta-results/${name}/2024`,
      `${ORIGIN}${path}`,
    ]);
    expect(dataset).toMatchObject({
      '@type': 'Dataset',
      url: `${ORIGIN}${path}`,
      temporalCoverage: '2024',
      distribution: { contentUrl: `${ORIGIN}/api/charts/${name}/2024/weeks` },
    });

    const hindi = await page(`/hi${path}`);
    expect(hindi.statusCode).toBe(200);
    expect(hindi.body).toContain('<html lang="hi">');
    expect(hindi.body).toContain('<title>कल्याण जोड़ी चार्ट 2024');
    expect(hindi.body).toMatch(/<h1 [^>]*>कल्याण जोड़ी चार्ट 2024<\/h1>/);
    expect(linkHref(hindi.body, 'canonical')).toBe(`${ORIGIN}/hi${path}`);
    expect(linkHref(hindi.body, 'alternate', 'en')).toBe(`${ORIGIN}${path}`);
    expect(tableRows(hindi.body).map((row) => row.map(text))).toEqual([
      ['सप्ताह', 'सोम', 'मंगल', 'बुध', 'गुरु', 'शुक्र', 'शनि'],
      ['25 नव॰ – 1 दिस॰', '68', '1* (क्लोज़ बाकी)', '12✱ (सुधारा गया)', 'छुट्टी', '–', '–'],
    ]);
    expect(structuredData(hindi.body)[1]).toMatchObject({ inLanguage: 'hi', url: `${ORIGIN}/hi${path}` });
  });

  it('a panel chart stacks open panna, jodi and close panna in that order', async () => {
    const path = `/panel-chart/${name}/2024`;
    const english = await page(path);
    expect(english.statusCode).toBe(200);
    expect(english.body).toMatch(new RegExp(`<title>${market.NameEn} Panel Chart 2024`));
    expect(linkHref(english.body, 'alternate', 'hi')).toBe(`${ORIGIN}/hi${path}`);
    const [, week] = tableRows(english.body);
    expect(partsOf(week?.[1] ?? '')).toEqual(['123', '68', '459']);
    // An open half: its open panna and ank, the close to come.
    expect(partsOf(week?.[2] ?? '')).toEqual(['128', '1*', '*** (close to come)']);
    expect(partsOf(week?.[3] ?? '')).toEqual(['137', '12', '246✱ (corrected)']);
    const hindi = await page(`/hi${path}`);
    expect(hindi.body).toContain('<title>कल्याण पैनल चार्ट 2024');
    expect(pageData(hindi.body)).toMatchObject({ page: 'weekly-chart', view: 'panel', language: 'hi' });
  });

  it('links years that have weekly charts, the other view, and from the year chart', async () => {
    const english = (await page(`/jodi-chart/${name}/2024`)).body;
    expect(english).toContain(`href="/jodi-chart/${name}/2023" rel="prev"`);
    expect(english).toContain(`href="/panel-chart/${name}/2024"`);
    expect(english).toContain(`href="/satta-results/${name}/2024"`);
    const hindi = (await page(`/hi/panel-chart/${name}/2023`)).body;
    expect(hindi).toContain(`href="/hi/panel-chart/${name}/2024" rel="next"`);
    expect(hindi).toContain(`href="/hi/jodi-chart/${name}/2023"`);

    const yearChart = (await page(`/satta-results/${name}/2024`)).body;
    expect(yearChart).toContain(`href="/jodi-chart/${name}/2024"`);
    expect(yearChart).toContain(`href="/panel-chart/${name}/2024"`);
    const jodiYear = (await page(`/satta-results/${encodeURIComponent(jodi.NameEn.toLowerCase())}/2024`))
      .body;
    expect(jodiYear).not.toContain('-chart/');
  });

  it('a jodi ghadi, a year without results, an unknown ghadi or a malformed year is the 404 page', async () => {
    const jodiName = encodeURIComponent(jodi.NameEn.toLowerCase());
    for (const path of [
      `/jodi-chart/${jodiName}/2024`,
      `/panel-chart/${jodiName}/2024`,
      `/jodi-chart/${name}/2022`,
      `/panel-chart/${name}/2025`,
      `/jodi-chart/${unique('nobody')}/2024`,
      `/panel-chart/${name}/20x4`,
    ]) {
      for (const address of [path, `/hi${path}`]) {
        const response = await page(address);
        expect([address, response.statusCode]).toEqual([address, 404]);
        expect(response.body).toContain('<meta name="robots" content="noindex" />');
        expect(pageData(response.body)).toMatchObject({ page: 'not-found' });
        expect(response.headers.etag).toBeUndefined();
      }
    }
  });

  it('a respelled name is redirected to the address the site links to, in the same language', async () => {
    for (const prefix of ['', '/hi']) {
      const response = await page(
        `${prefix}/panel-chart/${encodeURIComponent(market.NameEn.toUpperCase())}/2024`,
      );
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe(`${prefix}/panel-chart/${name}/2024`);
    }
  });

  it('the sitemap lists both weekly charts of each year with results, in both languages, and nothing else', async () => {
    const sitemap = await page('/sitemap.xml');
    const listed = [...sitemap.body.matchAll(/<loc>https:\/\/results\.example([^<]*)<\/loc>/g)].map(
      (match) => match[1] as string,
    );
    const weekly = listed.filter((path) => /\/(jodi|panel)-chart\//.test(path));
    expect(weekly.sort()).toEqual(
      [
        `/hi/jodi-chart/${name}/2023`,
        `/hi/jodi-chart/${name}/2024`,
        `/hi/panel-chart/${name}/2023`,
        `/hi/panel-chart/${name}/2024`,
        `/jodi-chart/${name}/2023`,
        `/jodi-chart/${name}/2024`,
        `/panel-chart/${name}/2023`,
        `/panel-chart/${name}/2024`,
      ].sort(),
    );
    for (const path of weekly) expect([path, (await page(path)).statusCode]).toEqual([path, 200]);
    expect(sitemap.body).toContain(
      `<xhtml:link rel="alternate" hreflang="hi" href="${ORIGIN}/hi/jodi-chart/${name}/2024"/>`,
    );
  });

  it('a declared close step is in the next page, in both languages', async () => {
    const before = await page(`/panel-chart/${name}/2024`);
    await submitResult(web.app, token, { ghadiId: market.GID, result: '459', dateTime: '2024-11-26' });
    for (const address of [`/panel-chart/${name}/2024`, `/hi/jodi-chart/${name}/2024`]) {
      const after = await page(address);
      if (address.startsWith('/panel')) {
        expect(after.headers.etag).not.toBe(before.headers.etag);
        expect(partsOf(tableRows(after.body)[1]?.[2] ?? '')).toEqual(['128', '18', '459']);
      } else {
        expect(text(tableRows(after.body)[1]?.[2] ?? '')).toBe('18');
      }
    }
  });
});
