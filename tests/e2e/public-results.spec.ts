import { expect, type Page } from '@playwright/test';
import { addDays } from '../../src/shared/dates.js';
import { AdminApi, uniqueName } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { type SiteDay, siteDay } from './support/site-day.js';
import { test } from './support/test.js';

/** The site's day, asked of the server before each test (a worker runs one test at a time). */
let site: SiteDay;
test.beforeEach(async ({ request }) => {
  site = await siteDay(request);
});
const today = () => site.today;
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

/** A new ghadi with results on the 1st and on today of the current month. */
async function ghadiWithResults(admin: AdminApi, prefix = 'Results Page ') {
  const ghadi = await admin.createGhadi({ NameEn: uniqueName(prefix) });
  const month = today().slice(0, 7);
  await admin.submitResult(ghadi.GID, '07', `${month}-01`);
  if (today() !== `${month}-01`) await admin.submitResult(ghadi.GID, '84', today());
  const name = ghadi.NameEn.toLowerCase();
  return { ghadi, name, path: `/satta-results/${encodeURIComponent(name)}` };
}

async function openHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

const resultsTable = (page: Page) => page.getByRole('table', { name: /results – / });
const dayRow = (page: Page, day: number) =>
  resultsTable(page)
    .locator('tbody tr')
    .nth(day - 1);
/**
 * A day's cells: its value, then when it was declared, shown only for a value declared live (on its
 * date or the day after); one declared later was added afterwards and shows no time.
 */
function dayValue(value: string, date: string): [string, RegExp] {
  const live = addDays(date, 1) >= today();
  return [value, live ? /^(\d+ \w+ )?\d\d:\d\d$/ : /^$/];
}

test.describe('public results page', () => {
  test('month and year selectors, Back to Chart, and 31 day rows rendered by the server', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const { ghadi, path } = await ghadiWithResults(admin);
    const [year, month] = today().split('-').map(Number) as [number, number];

    const html = await (await request.get(path)).text();
    expect(html).toContain(
      `<th scope="row">01</th><td class="v"><button type="button" class="rc" data-date="${today().slice(0, 8)}01" aria-haspopup="dialog">07</button></td>`,
    );
    expect(html).toContain(`<title>${ghadi.NameEn} Satta Result ${MONTHS[month - 1]} ${year}`);

    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await openHydrated(page, path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${ghadi.NameEn} Satta Result`);
    await expect(page.getByRole('link', { name: 'Back to Chart' })).toHaveAttribute('href', '/');
    const monthSelect = page.getByLabel('Month');
    const yearSelect = page.getByLabel('Year');
    await expect(monthSelect).toHaveValue(String(month));
    await expect(yearSelect).toHaveValue(String(year));
    await expect(monthSelect.locator('option')).toHaveText(MONTHS);
    await expect(yearSelect.locator('option')).toHaveText([0, 1, 2, 3, 4].map((back) => String(year - back)));

    const table = resultsTable(page);
    await expect(table).toBeVisible();
    await expect(table.locator('caption')).toHaveText(
      `${ghadi.NameEn} results – ${MONTHS[month - 1]} ${year}`,
    );
    await expect(table.locator('thead th[scope="col"]')).toHaveText(['Day', 'Result', 'Declared']);
    await expect(table.locator('tbody tr')).toHaveCount(31);
    await expect(dayRow(page, 1).getByRole('rowheader')).toHaveText('01');
    await expect(dayRow(page, 1).getByRole('cell')).toHaveText(dayValue('07', `${today().slice(0, 7)}-01`));
    const day = Number(today().slice(8, 10));
    if (day !== 1) await expect(dayRow(page, day).getByRole('cell')).toHaveText(dayValue('84', today()));

    await page.setViewportSize({ width: 360, height: 740 });
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'public-results');
    expect(problems).toEqual([]);

    await page.getByRole('link', { name: 'Back to Chart' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('changing month or year refetches, puts ?month=&year= in the address, and that address renders on the server', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const { name, path } = await ghadiWithResults(admin);
    const [year, month] = today().split('-').map(Number) as [number, number];
    const otherMonth = month === 1 ? 2 : month - 1;

    await openHydrated(page, path);
    const fetched = page.waitForRequest((request) =>
      request.url().includes(`/api/results/${encodeURIComponent(name)}?month=${otherMonth}&year=${year}`),
    );
    await page.getByLabel('Month').selectOption(String(otherMonth));
    await fetched;
    await expect(page).toHaveURL(`${path}?month=${otherMonth}&year=${year}`);
    await expect(page.getByText(`No data available for ${name}`)).toBeVisible();
    await expect(resultsTable(page)).toHaveCount(0);

    await page.getByLabel('Year').selectOption(String(year - 1));
    await expect(page).toHaveURL(`${path}?month=${otherMonth}&year=${year - 1}`);
    await page.getByLabel('Year').selectOption(String(year));
    await page.getByLabel('Month').selectOption(String(month));
    await expect(dayRow(page, 1).getByRole('cell')).toHaveText(dayValue('07', `${today().slice(0, 7)}-01`));

    // The shared address renders that month on the server.
    await page.goto(`${path}?month=${otherMonth}&year=${year}`);
    await expect(page.getByLabel('Month')).toHaveValue(String(otherMonth));
    await expect(page.getByText(`No data available for ${name}`)).toBeVisible();
  });

  test('a month chosen before the page has hydrated (a slow phone) is the month shown after it', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const { name, path } = await ghadiWithResults(admin);
    const [year, month] = today().split('-').map(Number) as [number, number];
    const otherMonth = month === 1 ? 2 : month - 1;
    // The scripts are held back until the visitor has chosen in the server's markup.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(path, { waitUntil: 'commit' });
    await page.getByLabel('Month').selectOption(String(otherMonth));
    await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
    const fetched = page.waitForRequest((sent) =>
      sent.url().includes(`/api/results/${encodeURIComponent(name)}?month=${otherMonth}&year=${year}`),
    );
    release();
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    await fetched;
    await expect(page).toHaveURL(`${path}?month=${otherMonth}&year=${year}`);
    await expect(page.getByLabel('Month')).toHaveValue(String(otherMonth));
    await expect(page.getByText(`No data available for ${name}`)).toBeVisible();
  });

  test('the loading state, then each error text from the spec, with Retry reloading the page', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const { name, path } = await ghadiWithResults(admin);
    const [, month] = today().split('-').map(Number) as [number, number];
    const otherMonth = month === 1 ? 2 : month - 1;
    await openHydrated(page, path);
    const api = `**/api/results/${encodeURIComponent(name)}?*`;

    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(api, async (route) => {
      await held;
      await route.fulfill({ status: 500, body: '{"success":false}' });
    });
    await page.getByLabel('Month').selectOption(String(otherMonth));
    await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toBeVisible();
    release();
    await expect(page.getByRole('alert')).toContainText('Server error: 500');
    await page.unroute(api);

    await page.route(api, (route) => route.fulfill({ status: 404, body: '{"success":false}' }));
    await page.getByLabel('Month').selectOption(String(month));
    await expect(page.getByText(`No data available for ${name}`)).toBeVisible();
    await page.unroute(api);

    await page.route(api, (route) => route.abort('internetdisconnected'));
    await page.getByLabel('Month').selectOption(String(otherMonth));
    await expect(page.getByRole('alert')).toContainText('Network error - please check your connection');
    await page.unroute(api);

    await page.route(api, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: 'not json' }),
    );
    await page.getByLabel('Month').selectOption(String(month));
    await expect(page.getByRole('alert')).toContainText('An unexpected error occurred');
    await page.unroute(api);

    // Retry reloads the page: the server renders the chosen month.
    const reload = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Retry' }).click();
    await reload;
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(dayRow(page, 1).getByRole('cell')).toHaveText(dayValue('07', `${today().slice(0, 7)}-01`));
  });

  test('a result recorded through the API shows on an open ghadi page without a reload', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Live Page ') });
    await openHydrated(page, `/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`);
    await expect(page.locator('html[data-live="open"]')).toBeAttached();
    await expect(page.getByText(`No data available for ${ghadi.NameEn.toLowerCase()}`)).toBeVisible();

    await admin.submitResult(ghadi.GID, '39', today());
    const row = dayRow(page, Number(today().slice(8, 10)));
    await expect(row.getByRole('cell')).toHaveText(dayValue('39', today()));
    await admin.submitResult(ghadi.GID, '40', today());
    // A correction arrives with its mark and the value it replaced.
    await expect(row.getByRole('cell')).toHaveText(['40✱ (corrected, was 39)', /^\d\d:\d\d · was 39$/]);
  });

  test('an unknown ghadi answers 404 with the no-data page', async ({ page, request }) => {
    const response = await request.get('/satta-results/no-such-ghadi-here');
    expect(response.status()).toBe(404);
    expect(await response.text()).toContain('No data available for no-such-ghadi-here');

    const visit = await page.goto('/satta-results/no-such-ghadi-here');
    expect(visit?.status()).toBe(404);
    await expect(page.getByText('No data available for no-such-ghadi-here')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Chart' })).toBeVisible();
  });

  test('the stream falls back to polling when it cannot connect', async ({ page, request }) => {
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Polled ') });
    // The page opens the stream as /api/events?since=<version>.
    await page.route(/\/api\/events(\?|$)/, (route) => route.fulfill({ status: 503, body: 'busy' }));
    await page.clock.install();
    await openHydrated(page, `/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`);
    await expect(page.locator('html[data-live="polling"]')).toBeAttached();
    await admin.submitResult(ghadi.GID, '12', today());
    await page.clock.runFor(13_000);
    await expect(dayRow(page, Number(today().slice(8, 10))).getByRole('cell')).toHaveText(
      dayValue('12', today()),
    );
  });
});
