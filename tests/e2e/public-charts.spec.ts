import { expect, type Locator, type Page } from '@playwright/test';
import { daysInMonth, monthChartPath, shiftMonth, yearChartPath } from '../../src/shared/chart-pages.js';
import { addDays } from '../../src/shared/dates.js';
import { ghadiPagePath } from '../../src/shared/ghadi-page-month.js';
import { AdminApi, uniqueName } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { test } from './support/test.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const SHORT_MONTHS = MONTHS.map((month) => month.slice(0, 3));
/** "2026-11" as "November 2026". */
const monthLabel = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

async function openHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** The page has hydrated and its event stream is open: results declared from here on arrive live. */
async function openLive(page: Page, path: string) {
  await openHydrated(page, path);
  await expect(page.locator('html[data-live="open"]')).toBeAttached();
}

/** Requests the page makes from now on, except its event stream and the visitor counter. */
function recordRequests(page: Page): string[] {
  const requests: string[] = [];
  page.on('request', (sent) => {
    const url = sent.url();
    if (!url.includes('/api/events') && !url.includes('/api/visitor/')) {
      requests.push(`${sent.method()} ${url}`);
    }
  });
  return requests;
}

/** A year chart's table, named by the page's heading ("Gali Chart 2025"). */
const yearTable = (page: Page, name: string, year: number) =>
  page.getByRole('table', { name: `${name} Chart ${year}`, exact: true });

/** The cell of a date in a year chart: row `day`, column `month` (1-12). */
const yearCell = (table: Locator, month: number, day: number) =>
  table
    .locator('tbody tr')
    .nth(day - 1)
    .locator('td')
    .nth(month - 1);

const isLeap = (year: number) => daysInMonth(year, 2) === 29;

/**
 * A cell of the monthly chart, found by its ghadi's column header and its day, read in one pass of
 * the page's script: other tests add and remove ghadis meanwhile, and with them the chart's columns.
 */
function monthCell(page: Page, name: string, day: number) {
  return page.evaluate(
    ([name, day]) => {
      const table = document.querySelector('table.chart-table');
      if (!table) return null;
      const column = [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent === name);
      const cell = column < 0 ? null : table.querySelectorAll('tbody tr')[day - 1]?.children[column];
      if (!cell) return null;
      return {
        text: cell.textContent,
        label: cell.getAttribute('aria-label'),
        className: cell.className,
      };
    },
    [name, day] as const,
  );
}

/** The column (0 for Day) of a ghadi in the monthly chart, read in one pass. */
function monthColumn(page: Page, name: string) {
  return page.evaluate(
    (name) =>
      [...document.querySelectorAll('table.chart-table thead th')].findIndex((th) => th.textContent === name),
    name,
  );
}

test.describe('public year chart', () => {
  test('reads completely without JavaScript: values, no-result marks, days a month lacks, a correction, today', async ({
    browser,
    request,
  }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Year Chart ') });
    const year = Number(today.slice(0, 4));
    const last = year - 1;
    // Last year: every date is past, so each one without a result carries the no-result mark.
    const seeded = new Map<string, string>();
    for (let day = 1; day <= 12; day += 1) {
      seeded.set(`${last}-01-${String(day).padStart(2, '0')}`, String((day * 7) % 100).padStart(2, '0'));
    }
    seeded.set(`${last}-03-15`, '15');
    seeded.set(`${last}-12-31`, '99');
    for (const [date, value] of seeded) await admin.submitResult(ghadi.GID, value, date);
    // A correction of the 1st of January.
    await admin.submitResult(ghadi.GID, '08', `${last}-01-01`);
    seeded.set(`${last}-01-01`, '08');
    await admin.submitResult(ghadi.GID, '42', today);

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(yearChartPath(ghadi.NameEn, last));
    expect(response?.status()).toBe(200);
    await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${ghadi.NameEn} Chart ${last}`);
    await expect(page).toHaveTitle(new RegExp(`${ghadi.NameEn}.*${last}`));

    const table = yearTable(page, ghadi.NameEn, last);
    await expect(table.locator('thead th')).toHaveText(['Day', ...SHORT_MONTHS]);
    await expect(table.locator('tbody tr')).toHaveCount(31);
    await expect(table.locator('tbody th')).toHaveText(
      Array.from({ length: 31 }, (_, index) => String(index + 1).padStart(2, '0')),
    );
    await expect(yearCell(table, 3, 15)).toHaveText('15');
    await expect(yearCell(table, 12, 31)).toHaveText('99');
    await expect(yearCell(table, 1, 12)).toHaveText(seeded.get(`${last}-01-12`) ?? '');
    // The corrected value keeps its mark; the chart has no earlier value to name.
    await expect(yearCell(table, 1, 1)).toHaveText('08✱ (corrected)');
    await expect(yearCell(table, 1, 1).getByTestId('correction-mark')).toHaveAttribute('title', 'corrected');
    await expect(table.getByTestId('correction-mark')).toHaveCount(1);

    // A past date with no result: a dash, named for screen readers.
    const missing = yearCell(table, 3, 16);
    await expect(missing).toHaveText('–');
    await expect(missing).toHaveAttribute('aria-label', 'No result');
    const daysInYear = isLeap(last) ? 366 : 365;
    await expect(table.locator('td.n')).toHaveCount(daysInYear - seeded.size);

    // Days a month lacks: hatched, empty, and not counted as missing results.
    const noSuchDay = yearCell(table, 2, 30);
    await expect(noSuchDay).toHaveClass('x');
    await expect(noSuchDay).toHaveAttribute('aria-label', 'No such day');
    await expect(noSuchDay).toHaveText('');
    expect(await noSuchDay.evaluate((cell) => getComputedStyle(cell).backgroundImage)).toContain(
      'repeating-linear-gradient',
    );
    await expect(yearCell(table, 2, 29)).toHaveClass(isLeap(last) ? 'n' : 'x');
    for (const month of [4, 6, 9, 11]) await expect(yearCell(table, month, 31)).toHaveClass('x');
    await expect(table.locator('td.x')).toHaveCount(isLeap(last) ? 6 : 7);
    // Last year has no today.
    await expect(table.locator('[aria-current]')).toHaveCount(0);
    // The legend says what the marks mean (a tooltip cannot be read on a phone).
    await expect(page.locator('ul.chart-legend li')).toHaveText([
      '– No result',
      '✱ corrected after it was first declared',
      'No such day',
    ]);

    // This year: today's cell is highlighted; a date still to come is blank, not "no result".
    await page.goto(yearChartPath(ghadi.NameEn, year));
    const current = yearTable(page, ghadi.NameEn, year);
    const [month, day] = [Number(today.slice(5, 7)), Number(today.slice(8, 10))];
    const todayCell = yearCell(current, month, day);
    await expect(todayCell).toHaveText('42');
    await expect(todayCell).toHaveAttribute('aria-current', 'date');
    await expect(current.locator('[aria-current]')).toHaveCount(1);
    expect(await todayCell.evaluate((cell) => getComputedStyle(cell).backgroundColor)).toBe(
      'rgb(253, 230, 138)',
    );
    const tomorrow = addDays(today, 1);
    if (tomorrow.startsWith(String(year))) {
      const later = yearCell(current, Number(tomorrow.slice(5, 7)), Number(tomorrow.slice(8, 10)));
      await expect(later).toHaveText('');
      await expect(later).not.toHaveClass('n');
    }
    const yesterday = addDays(today, -1);
    if (yesterday.startsWith(String(year))) {
      await expect(
        yearCell(current, Number(yesterday.slice(5, 7)), Number(yesterday.slice(8, 10))),
      ).toHaveText('–');
    }
    await context.close();
  });

  test('month headers open that month’s results page, for a year older than five years too; year links', async ({
    page,
    request,
  }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Old Years ') });
    await admin.submitResult(ghadi.GID, '61', '2015-06-10');
    const year = Number(today.slice(0, 4));
    const month = Number(today.slice(5, 7));

    // The results page of an old month links to its year chart.
    await openHydrated(page, `${ghadiPagePath(ghadi.NameEn)}?month=6&year=2015`);
    await page.getByRole('link', { name: `${ghadi.NameEn} chart 2015 (all months) →` }).click();
    await expect(page).toHaveURL(yearChartPath(ghadi.NameEn, 2015));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${ghadi.NameEn} Chart 2015`);
    const table = yearTable(page, ghadi.NameEn, 2015);
    await expect(yearCell(table, 6, 10)).toHaveText('61');
    await expect(yearCell(table, 6, 11)).toHaveText('–');

    // Other years: every year with a result, and this year; the one shown is marked.
    const others = page.getByRole('navigation', { name: 'Other years' });
    await expect(others.getByRole('link')).toHaveText(['2015', String(year)]);
    await expect(others.getByRole('link', { name: '2015' })).toHaveAttribute('aria-current', 'page');
    await expect(others.getByRole('link', { name: String(year) })).not.toHaveAttribute('aria-current');
    await expect(others.getByRole('link', { name: String(year) })).toHaveAttribute(
      'href',
      yearChartPath(ghadi.NameEn, year),
    );

    // Previous and next lead to the nearest years with a chart: none before 2015, this year after it
    // (the years between have no results, so no chart: they answer 404).
    const years = page.getByRole('navigation', { name: 'Years', exact: true });
    await expect(years.getByRole('link', { name: /Previous year/ })).toHaveCount(0);
    const next = years.getByRole('link', { name: `Next year (${year}) →` });
    await expect(next).toHaveAttribute('href', yearChartPath(ghadi.NameEn, year));
    await expect(next).toHaveAttribute('rel', 'next');

    // Every month of a past year links to its results page, which shows that month.
    const headerLinks = table.locator('thead').getByRole('link');
    await expect(headerLinks).toHaveText(SHORT_MONTHS);
    const june = table.locator('thead').getByRole('link', { name: 'Jun', exact: true });
    await expect(june).toHaveAttribute('href', `${ghadiPagePath(ghadi.NameEn)}?month=6&year=2015`);
    await expect(june).toHaveAttribute('title', `${ghadi.NameEn} results – June 2015`);
    await june.click();
    await expect(page).toHaveURL(`${ghadiPagePath(ghadi.NameEn)}?month=6&year=2015`);
    await expect(page.getByLabel('Month')).toHaveValue('6');
    await expect(page.getByLabel('Year')).toHaveValue('2015');
    const results = page.getByRole('table', { name: /results – / });
    await expect(results.locator('caption')).toHaveText(`${ghadi.NameEn} results – June 2015`);
    // Declared years after its date: the value, and no time (it was not declared live).
    await expect(results.locator('tbody tr').nth(9).getByRole('cell')).toHaveText(['61', '']);

    // A year between, with nothing declared, has no chart.
    const between = await page.goto(yearChartPath(ghadi.NameEn, 2016));
    expect(between?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');

    // Next year from 2015's chart is this year's: no next year, and the months to come link nowhere.
    await page.goto(yearChartPath(ghadi.NameEn, 2015));
    await page.getByRole('link', { name: `Next year (${year}) →` }).click();
    await expect(page).toHaveURL(yearChartPath(ghadi.NameEn, year));
    await expect(page.getByRole('link', { name: /^Next year/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: '← Previous year (2015)' })).toBeVisible();
    const thisYear = yearTable(page, ghadi.NameEn, year);
    await expect(thisYear.locator('thead').getByRole('link')).toHaveText(SHORT_MONTHS.slice(0, month));
    // The current month's results page has no query.
    await expect(
      thisYear.locator('thead').getByRole('link', { name: SHORT_MONTHS[month - 1], exact: true }),
    ).toHaveAttribute('href', ghadiPagePath(ghadi.NameEn));
  });

  test('on a phone the chart box scrolls sideways, not the page; it takes keyboard focus; the Day column stays', async ({
    page,
    request,
  }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Phone Chart ') });
    const year = Number(today.slice(0, 4));
    // Some values of the last weeks (this year's only), one corrected, and today's.
    for (let back = 20; back >= 0; back -= 1) {
      const date = addDays(today, -back);
      if (!date.startsWith(String(year)) || back % 3 === 1) continue;
      await admin.submitResult(ghadi.GID, String((back * 13 + 5) % 100).padStart(2, '0'), date);
    }
    const corrected = addDays(today, -3);
    if (corrected.startsWith(String(year))) await admin.submitResult(ghadi.GID, '77', corrected);

    await page.setViewportSize({ width: 360, height: 740 });
    await openHydrated(page, yearChartPath(ghadi.NameEn, year));
    const title = `${ghadi.NameEn} Chart ${year}`;
    const box = page.getByRole('region', { name: title, exact: true });
    await expect(box).toHaveAccessibleName(title);
    await expect(box).toHaveAttribute('tabindex', '0');
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await expect(page.getByText('Scroll sideways →')).toBeVisible();

    // Tab reaches the box (through the header's and the page's links), and the arrow keys scroll it.
    let reached = false;
    for (let step = 0; step < 40 && !reached; step += 1) {
      await page.keyboard.press('Tab');
      reached = await box.evaluate((element) => element === document.activeElement);
    }
    expect(reached).toBe(true);
    await expect(box).toBeFocused();
    expect(await box.evaluate((element) => element.scrollLeft)).toBe(0);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);

    // Scrolled to the end, December is in view, January under the Day column, which stays in place.
    const dayHeader = yearTable(page, ghadi.NameEn, year).locator('tbody tr').nth(14).getByRole('rowheader');
    const january = yearCell(yearTable(page, ghadi.NameEn, year), 1, 15);
    const boxLeft = (await box.boundingBox())?.x ?? Number.NaN;
    await box.evaluate((element) => {
      element.scrollLeft = element.scrollWidth;
    });
    const widest = await box.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(widest).toBeGreaterThan(100);
    await expect.poll(() => box.evaluate((element) => element.scrollLeft)).toBe(widest);
    const dayBox = await dayHeader.boundingBox();
    const januaryBox = await january.boundingBox();
    expect(dayBox?.x).toBeGreaterThanOrEqual(boxLeft);
    expect(dayBox?.x).toBeLessThan(boxLeft + 2);
    await expect(dayHeader).toBeInViewport();
    await expect(dayHeader).toHaveText('15');
    // January went under the box's left edge.
    expect((januaryBox?.x ?? 0) + (januaryBox?.width ?? 0)).toBeLessThan(boxLeft);
    // What sits at the Day column's place is the Day column (sticky, painted above the months).
    const topmost = await dayHeader.evaluate((cell) => {
      const rect = cell.getBoundingClientRect();
      return document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2) === cell;
    });
    expect(topmost).toBe(true);
    expect(await hasHorizontalPageScroll(page)).toBe(false);

    await box.evaluate((element) => {
      element.scrollLeft = 0;
    });
    await captureScreens(page, 'year-chart');
  });

  test('an open year chart shows a declared result, then its correction, with no request', async ({
    page,
    request,
  }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Live Chart ') });
    const year = Number(today.slice(0, 4));
    await openLive(page, yearChartPath(ghadi.NameEn, year));
    const table = yearTable(page, ghadi.NameEn, year);
    const cell = yearCell(table, Number(today.slice(5, 7)), Number(today.slice(8, 10)));
    await expect(cell).toHaveText('');
    await expect(cell).toHaveAttribute('aria-current', 'date');
    let reloaded = false;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    const requests = recordRequests(page);

    await admin.submitResult(ghadi.GID, '23', today);
    await expect(cell).toHaveText('23');
    await expect(cell.getByTestId('correction-mark')).toHaveCount(0);
    await admin.submitResult(ghadi.GID, '24', today);
    await expect(cell).toHaveText('24✱ (corrected)');
    await expect(cell.getByTestId('correction-mark')).toHaveAttribute('title', 'corrected');
    // Another ghadi's result leaves this chart alone.
    const other = await admin.createGhadi({ NameEn: uniqueName('Other Live ') });
    await admin.submitResult(other.GID, '55', today);
    // A result of this ghadi declared after the other one: once it shows, the other one was applied too.
    const earlier = addDays(today, -1);
    if (earlier.startsWith(String(year))) {
      await admin.submitResult(ghadi.GID, '31', earlier);
      await expect(yearCell(table, Number(earlier.slice(5, 7)), Number(earlier.slice(8, 10)))).toHaveText(
        '31',
      );
    }
    await expect(cell).toHaveText('24✱ (corrected)');
    expect(requests).toEqual([]);
    expect(reloaded).toBe(false);
  });

  test('an unknown ghadi, or a year without a chart, is the site’s 404 page', async ({ page, request }) => {
    const { today } = await siteDay(request);
    const year = Number(today.slice(0, 4));
    for (const path of [
      `/satta-results/${uniqueName('no-such-ghadi-')}/2025`,
      '/satta-results/gali/1999',
      `/satta-results/gali/${year + 1}`,
      '/satta-results/gali/20x5',
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    }
  });
});

test.describe('public monthly chart', () => {
  test('a column per ghadi by OrderId, month links, and each ghadi’s header leads to its year chart', async ({
    page,
    request,
  }) => {
    const { today, recordMonth } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const first = await admin.createGhadi({ NameEn: uniqueName('Month First '), OrderId: 2 });
    const second = await admin.createGhadi({ NameEn: uniqueName('Month Second '), OrderId: 3 });
    const thisMonth = today.slice(0, 7);
    const before = shiftMonth(thisMonth, -1);
    // A month has a chart once any ghadi has a result in it: last month and the one before get one.
    await admin.submitResult(first.GID, '10', `${before}-01`);
    await admin.submitResult(first.GID, '09', `${shiftMonth(before, -1)}-01`);
    // Last year's February: a past month, and one with days it lacks.
    const shown = `${Number(thisMonth.slice(0, 4)) - 1}-02`;
    const length = daysInMonth(Number(shown.slice(0, 4)), 2);
    await admin.submitResult(first.GID, '11', `${shown}-05`);
    await admin.submitResult(second.GID, '22', `${shown}-05`);
    await admin.submitResult(second.GID, '33', `${shown}-06`);
    await admin.submitResult(second.GID, '34', `${shown}-06`);
    await admin.submitResult(second.GID, '12', `${shiftMonth(shown, -1)}-01`);
    await admin.submitResult(second.GID, '13', `${shiftMonth(shown, 1)}-01`);

    // From the home page's record chart, to this month's full chart, then the month before. The record
    // chart shows UTC's month: in the small hours of a month's first day it is still the month before.
    await openHydrated(page, '/');
    await page.getByRole('link', { name: `Full chart of ${monthLabel(recordMonth)} →` }).click();
    await expect(page).toHaveURL(monthChartPath(recordMonth));
    if (recordMonth !== thisMonth) await openHydrated(page, monthChartPath(thisMonth));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Satta Chart ${monthLabel(thisMonth)}`);
    await expect(page.getByRole('link', { name: /^Next month/ })).toHaveCount(0);
    await page.getByRole('link', { name: `← Previous month (${monthLabel(before)})` }).click();
    await expect(page).toHaveURL(monthChartPath(before));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Satta Chart ${monthLabel(before)}`);
    const months = page.getByRole('navigation', { name: 'Months' });
    await expect(
      months.getByRole('link', { name: `Next month (${monthLabel(thisMonth)}) →` }),
    ).toHaveAttribute('href', monthChartPath(thisMonth));
    await expect(
      months.getByRole('link', { name: `← Previous month (${monthLabel(shiftMonth(before, -1))})` }),
    ).toHaveAttribute('href', monthChartPath(shiftMonth(before, -1)));

    await openHydrated(page, monthChartPath(shown));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Satta Chart ${monthLabel(shown)}`);
    await expect(
      months.getByRole('link', { name: `← Previous month (${monthLabel(shiftMonth(shown, -1))})` }),
    ).toHaveAttribute('href', monthChartPath(shiftMonth(shown, -1)));
    await expect(
      months.getByRole('link', { name: `Next month (${monthLabel(shiftMonth(shown, 1))}) →` }),
    ).toHaveAttribute('href', monthChartPath(shiftMonth(shown, 1)));
    const table = page.getByRole('table', { name: `Satta Chart ${monthLabel(shown)}` });
    await expect(table.locator('thead th').first()).toHaveText('Day');
    await expect(table.locator('tbody tr')).toHaveCount(31);
    // Ours in OrderId order (other tests' ghadis may sit between them).
    await expect
      .poll(async () => {
        const [a, b] = [await monthColumn(page, first.NameEn), await monthColumn(page, second.NameEn)];
        return a > 0 && b > a;
      })
      .toBe(true);
    await expect.poll(() => monthCell(page, first.NameEn, 5)).toMatchObject({ text: '11' });
    await expect.poll(() => monthCell(page, second.NameEn, 5)).toMatchObject({ text: '22' });
    await expect.poll(() => monthCell(page, second.NameEn, 6)).toMatchObject({ text: '34✱ (corrected)' });
    await expect
      .poll(() => monthCell(page, first.NameEn, 6))
      .toEqual({ text: '–', label: 'No result', className: 'n' });
    // Each day February lacks is one hatched cell across every column.
    expect(length).toBeLessThan(31);
    for (let day = length + 1; day <= 31; day += 1) {
      const row = table.locator('tbody tr').nth(day - 1);
      await expect(row.locator('td')).toHaveCount(1);
      await expect(row.locator('td')).toHaveClass('x');
      await expect(row.locator('td')).toHaveAttribute('aria-label', 'No such day');
      await expect
        .poll(() =>
          page.evaluate((day) => {
            const columns = document.querySelectorAll('table.chart-table thead th').length - 1;
            const span = document
              .querySelector(`table.chart-table tbody tr:nth-child(${day}) td`)
              ?.getAttribute('colspan');
            return Number(span) === columns;
          }, day),
        )
        .toBe(true);
    }
    // A past month has no today.
    await expect(table.locator('[aria-current]')).toHaveCount(0);

    await page.setViewportSize({ width: 360, height: 740 });
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'month-chart');
    await page.setViewportSize({ width: 1280, height: 800 });

    const year = Number(shown.slice(0, 4));
    const header = table.locator('thead').getByRole('link', { name: first.NameEn, exact: true });
    await expect(header).toHaveAttribute('href', yearChartPath(first.NameEn, year));
    await header.click();
    await expect(page).toHaveURL(yearChartPath(first.NameEn, year));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${first.NameEn} Chart ${year}`);
    await expect(yearCell(yearTable(page, first.NameEn, year), Number(shown.slice(5, 7)), 5)).toHaveText(
      '11',
    );

    // A month without any result has no chart.
    const empty = await page.goto(monthChartPath('2000-01'));
    expect(empty?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  });

  test('an open monthly chart fills in a declared result and its correction without reloading', async ({
    page,
    request,
  }) => {
    const { today } = await siteDay(request);
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Month Live ') });
    const thisMonth = today.slice(0, 7);
    const day = Number(today.slice(8, 10));
    await openLive(page, monthChartPath(thisMonth));
    const table = page.getByRole('table', { name: `Satta Chart ${monthLabel(thisMonth)}` });
    // Today's row is the one marked.
    await expect(table.locator('tbody tr[aria-current="date"]')).toHaveCount(1);
    await expect(table.locator('tbody tr[aria-current="date"] th')).toHaveText(String(day).padStart(2, '0'));
    await expect.poll(() => monthCell(page, ghadi.NameEn, day)).toMatchObject({ text: '' });
    let reloaded = false;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    // Other tests' new ghadis make this chart fetch its data afresh (their columns are not in the
    // events); the page itself is never requested again.
    const documents: string[] = [];
    page.on('request', (sent) => {
      if (sent.resourceType() === 'document') documents.push(sent.url());
    });

    await admin.submitResult(ghadi.GID, '47', today);
    await expect.poll(() => monthCell(page, ghadi.NameEn, day)).toMatchObject({ text: '47' });
    await admin.submitResult(ghadi.GID, '48', today);
    await expect.poll(() => monthCell(page, ghadi.NameEn, day)).toMatchObject({ text: '48✱ (corrected)' });
    expect(documents).toEqual([]);
    expect(reloaded).toBe(false);
  });

  test('a month before 2000 or after this one is the site’s 404 page, with the header and a way on', async ({
    page,
    request,
  }) => {
    const { today } = await siteDay(request);
    const thisMonth = today.slice(0, 7);
    for (const path of ['/chart/1999-12', monthChartPath(shiftMonth(thisMonth, 1)), '/chart/2024-13']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    }
    const response = await page.goto('/chart/1999-12');
    expect(response?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page).toHaveTitle(/not found/i);
    // The site's header, with its navigation and the language switch.
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }),
    ).toHaveAttribute('href', '/');
    await expect(page.getByTestId('language-switch')).toHaveAttribute('href', '/hi');
    await expect(page.getByText('There is nothing at this address')).toBeVisible();
    const ways = page.getByRole('navigation', { name: 'Where to go' });
    await expect(ways.getByRole('link', { name: 'Home page' })).toHaveAttribute('href', '/');
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'not-found');
    await ways.getByRole('link', { name: `Satta Chart ${monthLabel(thisMonth)}` }).click();
    await expect(page).toHaveURL(monthChartPath(thisMonth));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Satta Chart ${monthLabel(thisMonth)}`);

    // An unknown ghadi's year chart answers the same page.
    const unknown = await page.goto(`/satta-results/${uniqueName('unknown')}/2025`);
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(page.getByRole('navigation', { name: 'Where to go' })).toBeVisible();
  });
});
