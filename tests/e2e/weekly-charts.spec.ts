import { expect, type Page } from '@playwright/test';
import { yearChartPath } from '../../src/shared/chart-pages.js';
import { addDays } from '../../src/shared/dates.js';
import { weekdayOf, wholeValue } from '../../src/shared/matka.js';
import type { Language } from '../../src/shared/page-language.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { type WeeklyView, weeklyChartPath } from '../../src/shared/weekly-chart-pages.js';
import { mondayOf } from '../../src/shared/weekly-charts.js';
import { CHART_TEXT } from '../../src/web/features/public-charts/chart-text.js';
import { AdminApi, uniqueName } from './support/api.js';
import { exclusively } from './support/exclusive.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { GHADI_COUNT_LOCK, test } from './support/test.js';

/** Markets this test made: deleted after it, as support/test.ts deletes the ghadis of createGhadi. */
const marketsOfTheTest: number[] = [];

test.afterEach(async ({ request }) => {
  const gids = marketsOfTheTest.splice(0);
  if (gids.length === 0) return;
  const admin = await AdminApi.connect(request);
  await exclusively(GHADI_COUNT_LOCK, () => admin.removeGhadis(gids));
});

/** An open/close market running every day (so today has its cell), or a starline one. */
async function createMarket(admin: AdminApi, kind: 'open-close' | 'panna', prefix: string) {
  const NameEn = uniqueName(prefix);
  const answer = await admin.call<{ data: GhadiRecord }>('POST', '/api/ghadis', {
    NameEn,
    NameHn: `कल्याण ${NameEn.slice(prefix.length)}`,
    RTime: '9:00 PM',
    OrderId: 100,
    Kind: kind,
    ...(kind === 'open-close' ? { OpenTime: '3:00 PM' } : {}),
  });
  marketsOfTheTest.push(answer.data.GID);
  return answer.data;
}

async function openHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** A weekly chart's table, named by the page's heading. */
const weeklyTable = (page: Page, title: string) => page.getByRole('table', { name: title, exact: true });

/**
 * The cell of a date in a weekly chart of a market running every day: the row labelled with its
 * week's Monday (in the page's language), the column of its weekday. Read in one pass of the page.
 */
function dateCell(page: Page, title: string, date: string, language: Language = 'en') {
  const monday = mondayOf(date);
  const label = `${Number(monday.slice(8, 10))} ${CHART_TEXT[language].shortMonths[Number(monday.slice(5, 7)) - 1]} –`;
  const column = (weekdayOf(date) + 6) % 7;
  return page.evaluate(
    ([title, label, column]) => {
      const table = [...document.querySelectorAll('table')].find(
        (each) => document.getElementById(each.getAttribute('aria-labelledby') ?? '')?.textContent === title,
      );
      const row = [...(table?.querySelectorAll('tbody tr') ?? [])].find((tr) =>
        tr.querySelector('th')?.textContent?.startsWith(label),
      );
      const cell = row?.querySelectorAll('td')[column];
      return cell
        ? {
            text: cell.textContent,
            parts: [...cell.querySelectorAll(':scope > span')].map((part) => part.textContent),
            current: cell.getAttribute('aria-current'),
          }
        : null;
    },
    [title, label, column] as const,
  );
}

/** A weekly chart's heading: "Kalyan Jodi Chart 2026", "कल्याण पैनल चार्ट 2026". */
function titleOf(ghadi: GhadiRecord, view: WeeklyView, language: Language, year: number): string {
  const names = {
    en: { jodi: 'Jodi Chart', panel: 'Panel Chart' },
    hi: { jodi: 'जोड़ी चार्ट', panel: 'पैनल चार्ट' },
  };
  return `${language === 'hi' ? ghadi.NameHn : ghadi.NameEn} ${names[language][view]} ${year}`;
}

test.describe('weekly charts', () => {
  test('read at phone and desktop width in both languages; the table scrolls in its box, not the page', async ({
    page,
    request,
  }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const market = await createMarket(admin, 'open-close', 'Weekly Market ');
    const year = Number(today.slice(0, 4));
    const inYear = (date: string) => date.startsWith(`${year}-`);
    // The last three weeks: whole days, open halves, a correction, a holiday, and today's open half.
    const pannas = ['123', '128', '137', '145', '146', '159', '167', '178', '189', '200'];
    for (let back = 20; back >= 1; back -= 1) {
      const date = addDays(today, -back);
      if (!inYear(date) || back % 4 === 2) continue;
      const open = pannas[back % pannas.length] as string;
      const close = pannas[(back * 3) % pannas.length] as string;
      await admin.submitResult(market.GID, back % 5 === 0 ? open : wholeValue(open, close), date);
    }
    const holiday = addDays(today, -2);
    if (inYear(holiday)) await admin.call('POST', '/api/holidays', { Date: holiday, GID: market.GID });
    const corrected = addDays(today, -3);
    if (inYear(corrected)) await admin.submitResult(market.GID, '999-70-000', corrected);
    await admin.submitResult(market.GID, '236', today);

    for (const [language, prefix] of [
      ['en', ''],
      ['hi', '/hi'],
    ] as const) {
      for (const view of ['jodi', 'panel'] as const) {
        const title = titleOf(market, view, language, year);
        await page.setViewportSize({ width: 1280, height: 800 });
        await openHydrated(page, `${prefix}${weeklyChartPath(view, market.NameEn, year)}`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        // Today's cell is marked, and holds the open half declared today.
        const current = await dateCell(page, title, today, language);
        expect(current?.current).toBe('date');
        if (view === 'panel') expect(current?.parts.slice(0, 2)).toEqual(['236', '1*']);
        else expect(current?.text).toMatch(/^1\*/);
        if (inYear(holiday))
          expect((await dateCell(page, title, holiday, language))?.text).toBe(
            language === 'en' ? 'Holiday' : 'छुट्टी',
          );
        if (inYear(corrected) && view === 'jodi')
          expect((await dateCell(page, title, corrected, language))?.text).toMatch(/^70✱/);

        await page.setViewportSize({ width: 360, height: 740 });
        const box = page.getByRole('region', { name: title, exact: true });
        await expect(box).toHaveAttribute('tabindex', '0');
        await expect(weeklyTable(page, title)).toBeVisible();
        expect(await hasHorizontalPageScroll(page)).toBe(false);
        // Wider than a phone: the box scrolls sideways, with the week column kept in view.
        expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
        await captureScreens(page, `weekly-${view}-${language}`);
      }
    }

    // The year chart links to both.
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHydrated(page, yearChartPath(market.NameEn, year));
    const weekly = page.getByRole('navigation', { name: 'Weekly charts' });
    await expect(weekly.getByRole('link')).toHaveText([
      `${market.NameEn} Jodi Chart ${year}`,
      `${market.NameEn} Panel Chart ${year}`,
    ]);
    await weekly.getByRole('link', { name: `${market.NameEn} Panel Chart ${year}` }).click();
    await expect(page).toHaveURL(weeklyChartPath('panel', market.NameEn, year));
  });

  test('an open panel chart shows a declared open half, then its close step, with no request', async ({
    page,
    request,
  }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const market = await createMarket(admin, 'open-close', 'Weekly Live ');
    const year = Number(today.slice(0, 4));
    // Another day's result this year gives the year its weekly charts (tomorrow's on 1 January).
    const yesterday = addDays(today, -1);
    const other = yesterday.startsWith(`${year}-`) ? yesterday : addDays(today, 1);
    await admin.submitResult(market.GID, '123-68-459', other);
    const title = titleOf(market, 'panel', 'en', year);
    await openHydrated(page, weeklyChartPath('panel', market.NameEn, year));
    await expect(page.locator('html[data-live="open"]')).toBeAttached();
    await expect(weeklyTable(page, title)).toBeVisible();
    let reloaded = false;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    const requests: string[] = [];
    page.on('request', (sent) => {
      const url = sent.url();
      if (!url.includes('/api/events') && !url.includes('/api/visitor/'))
        requests.push(`${sent.method()} ${url}`);
    });

    await admin.submitResult(market.GID, '137', today);
    await expect
      .poll(() => dateCell(page, title, today))
      .toMatchObject({
        parts: ['137', '1*', '*** (close to come)'],
        current: 'date',
      });
    await admin.submitResult(market.GID, '246', today);
    await expect.poll(() => dateCell(page, title, today)).toMatchObject({ parts: ['137', '12', '246'] });
    expect(requests).toEqual([]);
    expect(reloaded).toBe(false);
  });

  test('a jodi ghadi has no weekly charts: the site’s 404 page', async ({ page, request }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Weekly Jodi ') });
    await admin.submitResult(ghadi.GID, '45', today);
    const year = Number(today.slice(0, 4));
    for (const path of [
      weeklyChartPath('jodi', ghadi.NameEn, year),
      `/hi${weeklyChartPath('panel', ghadi.NameEn, year)}`,
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Page not found|पेज नहीं मिला/);
    }
  });
});
