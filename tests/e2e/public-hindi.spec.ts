import { expect, type Locator, type Page } from '@playwright/test';
import { monthChartPath, shiftMonth, yearChartPath } from '../../src/shared/chart-pages.js';
import { timeInZone } from '../../src/shared/dates.js';
import { ghadiPagePath } from '../../src/shared/ghadi-page-month.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { AdminApi, uniqueName } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { test } from './support/test.js';

const HINDI_MONTHS = [
  'जनवरी',
  'फ़रवरी',
  'मार्च',
  'अप्रैल',
  'मई',
  'जून',
  'जुलाई',
  'अगस्त',
  'सितंबर',
  'अक्टूबर',
  'नवंबर',
  'दिसंबर',
];
const HINDI_SHORT_MONTHS = [
  'जन॰',
  'फ़र॰',
  'मार्च',
  'अप्रै॰',
  'मई',
  'जून',
  'जुला॰',
  'अग॰',
  'सित॰',
  'अक्टू॰',
  'नव॰',
  'दिस॰',
];
/** "2026-11" as "नवंबर 2026". */
const hindiMonthLabel = (month: string) =>
  `${HINDI_MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

/** The Hindi twin of an English address. */
const hindi = (path: string) => (path === '/' ? '/hi' : `/hi${path}`);

async function openHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** A ghadi with a Hindi name of its own (NameHn), told apart from every other test's. */
function createHindiGhadi(admin: AdminApi, prefix: string, overrides: { OrderId?: number } = {}) {
  const NameEn = uniqueName(prefix);
  return admin.createGhadi({ NameEn, NameHn: `घड़ी ${NameEn.slice(prefix.length)}`, ...overrides });
}

/**
 * The page's links to the site's own pages that do not stay under /hi: none should, except the
 * switch to English, and the sitemap and the declarations feed (one of each for both languages).
 * Read in one pass of the page's script.
 */
function linksLeavingHindi(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('body a[href^="/"]')]
      .filter((link) => link.getAttribute('data-testid') !== 'language-switch')
      .map((link) => link.getAttribute('href') ?? '')
      // Site files, not pages: one for both languages (a calendar's events carry both names).
      .filter(
        (href) => !['/sitemap.xml', '/feed.xml', '/hi'].includes(href) && !href.endsWith('/calendar.ics'),
      )
      .filter((href) => !href.startsWith('/hi/') && !href.startsWith('/hi#')),
  );
}

/** The page's own alternates, as search engines read them. */
async function expectAlternates(page: Page, english: string) {
  await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', english);
  await expect(page.locator('link[rel="alternate"][hreflang="hi"]')).toHaveAttribute('href', hindi(english));
}

/** The switch says the other language in that language, and leads to this page's twin. */
async function expectSwitch(page: Page, to: 'en' | 'hi', href: string) {
  const languageSwitch = page.getByTestId('language-switch');
  await expect(languageSwitch).toHaveText(to === 'en' ? 'English' : 'हिन्दी');
  await expect(languageSwitch).toHaveAttribute('hreflang', to);
  await expect(languageSwitch).toHaveAttribute('lang', to);
  await expect(languageSwitch).toHaveAttribute('href', href);
  return languageSwitch;
}

const yearCell = (table: Locator, month: number, day: number) =>
  table
    .locator('tbody tr')
    .nth(day - 1)
    .locator('td')
    .nth(month - 1);

test.describe('public pages in Hindi', () => {
  test('the Hindi home: lang, Hindi text and NameHn, links under /hi, and the switch to English and back', async ({
    page,
    request,
  }) => {
    const { today, timeZone } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const ghadi = await createHindiGhadi(admin, 'Hindi Home ', { OrderId: 1 });
    await admin.submitResult(ghadi.GID, '58', today);
    const { data: rows } = await admin.call<{ data: GhadiRecord[] }>('GET', '/api/ghadis');
    const declaredAt = rows.find((row) => row.GID === ghadi.GID)?.DeclaredAt ?? '';

    await openHydrated(page, '/hi');
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('आज के सट्टा रिज़ल्ट – लाइव चार्ट');
    await expect(page.getByRole('heading', { level: 2, name: 'लाइव रिज़ल्ट चार्ट' })).toBeVisible();
    await expectAlternates(page, '/');
    await expect(
      page.getByRole('navigation', { name: 'मुख्य' }).getByRole('link', { name: 'होम' }),
    ).toHaveAttribute('href', '/hi');

    // The card names the ghadi by NameHn (its English name under it), and leads to its Hindi page.
    const card = page
      .getByTestId('ghadi-chart')
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: ghadi.NameHn, exact: true }) });
    await expect(card.getByRole('heading', { level: 3 })).toHaveText(ghadi.NameHn);
    await expect(card.locator('p[lang="en"]')).toHaveText(ghadi.NameEn);
    await expect(card.getByRole('link')).toHaveAttribute('href', hindi(ghadiPagePath(ghadi.NameEn)));
    await expect(card.getByTestId('today')).toHaveText('58');
    await expect(card.getByTestId('state')).toHaveText(`घोषित ${timeInZone(declaredAt, timeZone)} बजे`);
    await expect(page.getByTestId('board-counts')).toHaveText(/^आज \d+ घोषित · \d+ इंतज़ार में( · \d+ बंद)?$/);
    await expect(page.getByTestId('last-updated')).toHaveText(
      new RegExp(`^अंतिम अपडेट \\d\\d:\\d\\d \\(${timeZone} समय\\)$`),
    );
    await expect(page.getByRole('table', { name: 'रिज़ल्ट समय सारणी' })).toBeVisible();
    expect(await linksLeavingHindi(page)).toEqual([]);

    await page.setViewportSize({ width: 360, height: 740 });
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'hindi-home');
    await page.setViewportSize({ width: 1280, height: 800 });

    await (await expectSwitch(page, 'en', '/')).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Satta Results Today – Live Chart');
    await expect(
      page.getByTestId('ghadi-chart').getByRole('link', { name: ghadi.NameEn, exact: true }),
    ).toHaveAttribute('href', ghadiPagePath(ghadi.NameEn));
    await (await expectSwitch(page, 'hi', '/hi')).click();
    await expect(page).toHaveURL(/\/hi$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  });

  test('a Hindi year chart, without JavaScript and with it: NameHn, Hindi months and marks, and links that stay in Hindi', async ({
    browser,
    page,
    request,
  }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const ghadi = await createHindiGhadi(admin, 'Hindi Year ');
    const year = Number(today.slice(0, 4));
    const last = year - 1;
    await admin.submitResult(ghadi.GID, '05', `${last}-01-05`);
    await admin.submitResult(ghadi.GID, '06', `${last}-01-06`);
    await admin.submitResult(ghadi.GID, '16', `${last}-01-06`);
    await admin.submitResult(ghadi.GID, '71', `${last}-07-01`);
    // The year before has a result too, so the chart links back to it (a year without one has no chart).
    await admin.submitResult(ghadi.GID, '72', `${last - 1}-07-01`);
    const chartPath = yearChartPath(ghadi.NameEn, last);
    const title = `${ghadi.NameHn} चार्ट ${last}`;

    // Read by the server alone.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    const response = await plain.goto(hindi(chartPath));
    expect(response?.status()).toBe(200);
    await expect(plain.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(plain.getByRole('heading', { level: 1 })).toHaveText(title);
    const plainTable = plain.getByRole('table', { name: title, exact: true });
    await expect(plainTable.locator('thead th')).toHaveText(['दिन', ...HINDI_SHORT_MONTHS]);
    await expect(yearCell(plainTable, 1, 5)).toHaveText('05');
    await expect(yearCell(plainTable, 1, 6)).toHaveText('16✱ (सुधारा गया)');
    await expect(yearCell(plainTable, 7, 1)).toHaveText('71');
    await expect(yearCell(plainTable, 1, 7)).toHaveText('–');
    await expect(yearCell(plainTable, 1, 7)).toHaveAttribute('aria-label', 'कोई परिणाम नहीं');
    await expect(yearCell(plainTable, 2, 30)).toHaveAttribute('aria-label', 'ऐसी कोई तारीख नहीं');
    await expectAlternates(plain, chartPath);
    await context.close();

    await openHydrated(page, hindi(chartPath));
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(page).toHaveTitle(new RegExp(`${ghadi.NameHn} वार्षिक चार्ट ${last}`));
    expect(await linksLeavingHindi(page)).toEqual([]);
    const table = page.getByRole('table', { name: title, exact: true });
    await expect(yearCell(table, 1, 6).getByTestId('correction-mark')).toHaveAttribute('title', 'सुधारा गया');
    const breadcrumb = page.getByRole('navigation', { name: 'नेविगेशन पथ' });
    await expect(breadcrumb.getByRole('link', { name: '← होम' })).toHaveAttribute('href', '/hi');
    await expect(breadcrumb.getByRole('link', { name: `${ghadi.NameHn} रिज़ल्ट` })).toHaveAttribute(
      'href',
      hindi(ghadiPagePath(ghadi.NameEn)),
    );
    await expect(page.getByRole('link', { name: `← पिछला वर्ष (${last - 1})` })).toHaveAttribute(
      'href',
      hindi(yearChartPath(ghadi.NameEn, last - 1)),
    );
    await expect(page.getByRole('link', { name: `अगला वर्ष (${year}) →` })).toHaveAttribute(
      'href',
      hindi(yearChartPath(ghadi.NameEn, year)),
    );
    await expect(page.getByRole('navigation', { name: 'अन्य वर्ष' }).getByRole('link')).toHaveText([
      String(last - 1),
      String(last),
      String(year),
    ]);
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'hindi-year-chart');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The switch leads to the English chart and back.
    await (await expectSwitch(page, 'en', chartPath)).click();
    await expect(page).toHaveURL(chartPath);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${ghadi.NameEn} Chart ${last}`);
    await (await expectSwitch(page, 'hi', hindi(chartPath))).click();
    await expect(page).toHaveURL(hindi(chartPath));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);

    // A month's column opens its Hindi results page, on that month.
    const january = table.locator('thead').getByRole('link', { name: 'जन॰', exact: true });
    const monthPage = `${ghadiPagePath(ghadi.NameEn)}?month=1&year=${last}`;
    await expect(january).toHaveAttribute('href', hindi(monthPage));
    await expect(january).toHaveAttribute('title', `${ghadi.NameHn} रिज़ल्ट – जनवरी ${last}`);
    await january.click();
    await expect(page).toHaveURL(hindi(monthPage));
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${ghadi.NameHn} सट्टा रिज़ल्ट`);
    await expect(page.getByLabel('महीना')).toHaveValue('1');
    await expect(page.getByLabel('साल')).toHaveValue(String(last));
    await expect(page.getByRole('table').locator('caption')).toHaveText(
      `${ghadi.NameHn} रिज़ल्ट – जनवरी ${last}`,
    );
    expect(await linksLeavingHindi(page)).toEqual([]);
    // Its twin is the same month in English.
    await (await expectSwitch(page, 'en', monthPage)).click();
    await expect(page).toHaveURL(monthPage);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${ghadi.NameEn} Satta Result`);
    await expect(page.getByLabel('Month')).toHaveValue('1');
    await expect(page.getByLabel('Year')).toHaveValue(String(last));
    await page.goBack();
    await expect(page).toHaveURL(hindi(monthPage));
    await page.getByRole('link', { name: `${ghadi.NameHn} चार्ट ${last} (सभी महीने) →` }).click();
    await expect(page).toHaveURL(hindi(chartPath));
  });

  test('the Hindi monthly chart heads its columns with NameHn and stays live; /hi/declarations; the Hindi 404', async ({
    page,
    request,
  }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const ghadi = await createHindiGhadi(admin, 'Hindi Month ');
    await admin.submitResult(ghadi.GID, '12', today);
    const month = today.slice(0, 7);
    // Last month has a result, so this month's chart links back to it.
    await admin.submitResult(ghadi.GID, '02', `${shiftMonth(month, -1)}-02`);
    const day = Number(today.slice(8, 10));
    const year = Number(month.slice(0, 4));

    await openHydrated(page, hindi(monthChartPath(month)));
    await expect(page.locator('html[data-live="open"]')).toBeAttached();
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`सट्टा चार्ट ${hindiMonthLabel(month)}`);
    await expectAlternates(page, monthChartPath(month));
    const table = page.getByRole('table', { name: `सट्टा चार्ट ${hindiMonthLabel(month)}` });
    await expect(table.locator('thead th').first()).toHaveText('दिन');
    const header = table.locator('thead').getByRole('link', { name: ghadi.NameHn, exact: true });
    await expect(header).toHaveAttribute('href', hindi(yearChartPath(ghadi.NameEn, year)));
    // No column is headed by an English name where a Hindi one exists: the starter ghadis have one.
    await expect(table.locator('thead').getByRole('link', { name: 'Gali', exact: true })).toHaveCount(0);
    await expect(table.locator('thead').getByRole('link', { name: 'गली', exact: true })).toBeVisible();
    const cell = () =>
      page.evaluate(
        ([name, day]) => {
          const headers = [...document.querySelectorAll('table.chart-table thead th')];
          const column = headers.findIndex((th) => th.textContent === name);
          const row = document.querySelectorAll('table.chart-table tbody tr')[day - 1];
          return column < 0 ? null : (row?.children[column]?.textContent ?? null);
        },
        [ghadi.NameHn, day] as const,
      );
    await expect.poll(cell).toBe('12');
    await admin.submitResult(ghadi.GID, '13', today);
    await expect.poll(cell).toBe('13✱ (सुधारा गया)');
    const previous = shiftMonth(month, -1);
    await expect(
      page.getByRole('link', { name: `← पिछला महीना (${hindiMonthLabel(previous)})` }),
    ).toHaveAttribute('href', hindi(monthChartPath(previous)));
    await expect(page.getByRole('heading', { level: 2, name: `वार्षिक चार्ट ${year}` })).toBeVisible();
    expect(await linksLeavingHindi(page)).toEqual([]);
    await captureScreens(page, 'hindi-month-chart');
    await header.click();
    await expect(page).toHaveURL(hindi(yearChartPath(ghadi.NameEn, year)));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${ghadi.NameHn} चार्ट ${year}`);

    // The declaration log, in Hindi, and its English twin.
    await openHydrated(page, '/hi/declarations');
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('घोषणा लॉग: हर रिज़ल्ट, जैसा घोषित हुआ');
    await expectAlternates(page, '/declarations');
    expect(await linksLeavingHindi(page)).toEqual([]);
    await (await expectSwitch(page, 'en', '/declarations')).click();
    await expect(page).toHaveURL(/\/declarations$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Declaration Log: every result, as it was declared',
    );

    // What has no page answers the 404 page in Hindi, with its ways on under /hi.
    for (const path of ['/hi/chart/1999-12', `/hi/satta-results/${uniqueName('unknown')}/2025`]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('पेज नहीं मिला');
      const ways = page.getByRole('navigation', { name: 'कहाँ जाएँ' });
      await expect(ways.getByRole('link', { name: 'होम पेज' })).toHaveAttribute('href', '/hi');
      await expect(ways.getByRole('link', { name: `सट्टा चार्ट ${hindiMonthLabel(month)}` })).toHaveAttribute(
        'href',
        hindi(monthChartPath(month)),
      );
    }
    await captureScreens(page, 'hindi-not-found');
  });
});
