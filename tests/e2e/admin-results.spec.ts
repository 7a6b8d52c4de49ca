import { expect, type Locator, type Page } from '@playwright/test';
import { addDays, timeInZone } from '../../src/shared/dates.js';
import type { ResultRecord } from '../../src/shared/schemas/results.js';
import { AdminApi, apiLogin, signInAsAdmin, uniqueName } from './support/api.js';
import { exhaustRetries, failRequests } from './support/failing-route.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { test } from './support/test.js';

const PHONE = { width: 360, height: 740 };

function rows(page: Page) {
  return page.getByRole('table', { name: 'All Agents Ghadi Results' }).locator('tbody > tr');
}

function pager(page: Page) {
  return page.getByRole('navigation', { name: 'Results pages' });
}

/** A month picked at random from 2000-2019, which no other test uses (and a repeat rarely). */
function randomMonth(): string {
  const year = 2000 + Math.floor(Math.random() * 20);
  const month = 1 + Math.floor(Math.random() * 12);
  return `${year}-${String(month).padStart(2, '0')}`;
}

const ADMIN_ENTERED = 17;

/**
 * A ghadi with 19 results: R1-R17 on days 1-17 of a random month, entered by an admin, then
 * "RY" and "RT" for yesterday and today, declared by a new agent (agents may only enter those two
 * days). Newest first, they run RT, RY, R17, R16 … R1.
 */
async function seedResults(request: Parameters<typeof AdminApi.connect>[0]) {
  const admin = await AdminApi.connect(request);
  const displayName = uniqueName('Results Agent ');
  const agent = await admin.createAgent({ DisplayName: displayName });
  const ghadi = await admin.createGhadi({ OrderId: 700 });
  await admin.assign(agent.User_Id, ghadi.GID);
  const month = randomMonth();
  await Promise.all(
    Array.from({ length: ADMIN_ENTERED }, (_, index) =>
      admin.submitResult(ghadi.GID, `R${index + 1}`, `${month}-${String(index + 1).padStart(2, '0')}`),
    ),
  );
  const { token } = await apiLogin(request, agent.UserName, agent.Password);
  const { today } = await siteDay(request);
  for (const [result, dateTime] of [
    ['RY', addDays(today, -1)],
    ['RT', today],
  ]) {
    const response = await request.post('/api/agent/my-ghadi/update-result', {
      headers: { authorization: `Bearer ${token}` },
      data: { ghadiId: ghadi.GID, result, dateTime },
    });
    expect(response.ok(), await response.text()).toBe(true);
  }
  return { displayName, ghadi, month };
}

/** The Result cell of every row shown, in order. */
async function shownResults(page: Page): Promise<string[]> {
  return rows(page).locator('td:nth-child(3) > span:first-child').allInnerTexts();
}

/** Every button of the pager sits on one row: the same top edge for all. */
async function pagerTops(nav: Locator): Promise<number[]> {
  return nav
    .locator('button:visible')
    .evaluateAll((buttons) => buttons.map((button) => Math.round(button.getBoundingClientRect().top)));
}

/** Records every results request the screen makes, to check none asks for the whole table. */
function watchResultRequests(page: Page): URL[] {
  const seen: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/results') seen.push(url);
  });
  return seen;
}

/** Every request asked for one page: the screen never downloads the whole table. */
function expectEveryRequestPaged(requests: URL[]) {
  expect(requests.length).toBeGreaterThan(3);
  for (const url of requests) {
    expect(url.searchParams.get('page'), url.search).not.toBeNull();
    expect(url.searchParams.get('limit'), url.search).not.toBeNull();
  }
}

test.describe('admin results', () => {
  test('pages, searches and sizes on the server; the address keeps them through a reload and back', async ({
    page,
    request,
  }) => {
    const { displayName, ghadi } = await seedResults(request);
    const requests = watchResultRequests(page);
    await signInAsAdmin(page, request);
    await page.goto('/admin/results');
    await expect(page.getByRole('heading', { name: 'All Agents Ghadi Results', level: 1 })).toBeVisible();
    for (const header of ['Agent', 'Ghadi', 'Result', 'Date Time', 'Status']) {
      await expect(page.getByRole('columnheader', { name: header })).toHaveAttribute('scope', 'col');
    }
    const perPage = page.getByLabel('Rows per page');
    await expect(perPage).toHaveValue('5');
    await expect(rows(page)).toHaveCount(5);

    // Any letter case finds the ghadi; its 19 results come 5 to a page, newest first.
    const search = page.getByLabel('Search');
    await search.fill(ghadi.NameEn.toUpperCase());
    await expect(page.getByText('Showing 1–5 of 19 · Page 1 of 4')).toBeVisible();
    await expect.poll(() => shownResults(page)).toEqual(['RT', 'RY', 'R17', 'R16', 'R15']);
    await expect(rows(page).first()).toContainText(displayName);
    await expect(rows(page).first()).toContainText('Active');
    await expect(page).toHaveURL(/\?q=/);

    await pager(page).getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => shownResults(page)).toEqual(['R14', 'R13', 'R12', 'R11', 'R10']);
    await expect(pager(page).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await pager(page).getByRole('button', { name: 'Last page' }).click();
    await expect.poll(() => shownResults(page)).toEqual(['R4', 'R3', 'R2', 'R1']);
    await expect(page).toHaveURL(/page=4/);

    // A reload opens the same page of the same search; back returns to the page before.
    await page.reload();
    await expect(search).toHaveValue(ghadi.NameEn.toUpperCase());
    await expect.poll(() => shownResults(page)).toEqual(['R4', 'R3', 'R2', 'R1']);
    await page.goBack();
    await expect.poll(() => shownResults(page)).toEqual(['R14', 'R13', 'R12', 'R11', 'R10']);

    // A larger page keeps the first row shown on screen (row 6 is on page 1 of 15).
    await perPage.selectOption('15');
    await expect(rows(page)).toHaveCount(15);
    await expect(page.getByText('Showing 1–15 of 19 · Page 1 of 2')).toBeVisible();
    await pager(page).getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => shownResults(page)).toEqual(['R4', 'R3', 'R2', 'R1']);
    await expect(page).toHaveURL(/page=2&limit=15/);
    expectEveryRequestPaged(requests);
  });

  test('searches agent, ghadi, result and date on the server, from page 1, never asking for the whole table', async ({
    page,
    request,
  }) => {
    const { displayName, ghadi, month } = await seedResults(request);
    const requests = watchResultRequests(page);
    await signInAsAdmin(page, request);
    await page.goto(`/admin/results?q=${encodeURIComponent(ghadi.NameEn)}&page=3&limit=10`);
    // Page 3 of 2 (an old address): the last page instead.
    await expect(page).toHaveURL(/page=2/);
    await expect
      .poll(() => shownResults(page))
      .toEqual(['R9', 'R8', 'R7', 'R6', 'R5', 'R4', 'R3', 'R2', 'R1']);

    // A new search starts again at page 1.
    const search = page.getByLabel('Search');
    await search.fill(displayName.toLowerCase());
    await expect.poll(() => shownResults(page)).toEqual(['RT', 'RY']);
    await expect(page.getByText('2 results')).toBeVisible();
    await expect(pager(page)).toHaveCount(0);
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();

    // A date finds that day's results; only this test's ghadi is checked, in case another has one.
    await search.fill(`${month}-03`);
    const mine = rows(page).filter({ hasText: ghadi.NameEn });
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText('R3');

    await search.fill(uniqueName('nothing-'));
    await expect(page.getByText(/No results match/)).toBeVisible();

    expectEveryRequestPaged(requests);
  });

  test('on a phone: rows fold into two columns and the pager stays on one row', async ({ page, request }) => {
    const { ghadi } = await seedResults(request);
    await signInAsAdmin(page, request);
    await page.setViewportSize(PHONE);
    await page.goto(`/admin/results?q=${encodeURIComponent(ghadi.NameEn)}&page=2`);
    // On a phone the sidebar starts closed.
    await expect(page.locator('#admin-sidebar')).toBeHidden();
    await expect.poll(() => shownResults(page)).toEqual(['R14', 'R13', 'R12', 'R11', 'R10']);
    await expect(page.getByRole('columnheader', { name: 'Agent' })).toBeHidden();
    await expect(page.getByRole('columnheader', { name: 'Result' })).toBeVisible();
    // Folded into the ghadi's cell: the date, and (back-filled later) the day and time it was declared.
    await expect(rows(page).first().locator('time:visible')).toHaveCount(2);
    const tops = await pagerTops(pager(page));
    expect(tops.length).toBeGreaterThanOrEqual(5);
    expect(new Set(tops).size).toBe(1);
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'admin-results');
  });

  test('Date Time shows when a value was declared, in the site’s zone, and marks a correction', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ OrderId: 701 });
    const { today, timeZone } = await siteDay(request);
    const past = `${randomMonth()}-09`;
    await admin.submitResult(ghadi.GID, '11', today);
    await admin.submitResult(ghadi.GID, '12', today);
    await admin.submitResult(ghadi.GID, '34', past);
    const { data } = await admin.call<{ data: ResultRecord[] }>(
      'GET',
      `/api/results?q=${encodeURIComponent(ghadi.NameEn)}&page=1&limit=5`,
    );
    const declared = (date: string) => {
      const result = data.find((row) => row.Date === date);
      return result ? timeInZone(result.DeclaredAt, timeZone) : 'missing';
    };
    const day = (date: string) =>
      new Intl.DateTimeFormat('en-GB', {
        day: '2-digit',
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${date}T00:00:00Z`));

    await signInAsAdmin(page, request);
    await page.goto(`/admin/results?q=${encodeURIComponent(ghadi.NameEn)}`);
    // Each row by the value in its Result cell (a time or a date may hold the same digits).
    const rowOf = (value: string) =>
      rows(page).filter({
        has: page.locator('td:nth-child(3) > span:first-child', { hasText: new RegExp(`^${value}`) }),
      });
    const [corrected, backFilled] = [rowOf('12'), rowOf('34')];
    await expect(corrected.getByRole('cell').nth(3)).toHaveText(`${day(today)}, ${declared(today)}`);
    await expect(corrected.getByTestId('correction-mark')).toHaveAttribute('title', 'corrected, was 11');
    await expect(corrected.getByRole('cell').nth(2)).toContainText('(corrected, was 11)');
    // Entered long after its date: the day it was declared is named, so the time is not the game's.
    await expect(backFilled.getByRole('cell').nth(3)).toHaveText(
      `${day(past)}declared ${day(today)}, ${declared(past)}`,
    );
    await expect(backFilled.getByTestId('correction-mark')).toHaveCount(0);
    await expect(page.getByText(`in the site’s time zone (${timeZone})`)).toBeVisible();

    // On a phone, loaded there: the sidebar starts closed, and the date and time fold under the ghadi.
    await page.setViewportSize(PHONE);
    await page.reload();
    await expect(page.locator('#admin-sidebar')).toBeHidden();
    await expect(corrected.locator('td').nth(1)).toContainText(`${day(today)}, ${declared(today)}`);
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'admin-results-date-time');
  });

  test('Failed to load data, and Retry loads it', async ({ page, request }) => {
    await page.clock.install();
    await signInAsAdmin(page, request);
    // With or without a query (the list may be paged).
    const results = await failRequests(page, /\/api\/results(\?|$)/);
    await page.goto('/admin/results');
    await exhaustRetries(page, results);
    await expect(page.getByRole('alert')).toContainText('Failed to load data');
    await results.stop();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(rows(page).first().or(page.getByText('No results found.'))).toBeVisible();
  });

  test('an empty list says so', async ({ page, request }) => {
    await signInAsAdmin(page, request);
    await page.route(
      (url) => url.pathname === '/api/results',
      (route) =>
        route.fulfill({
          json: { success: true, data: [], pagination: { page: 1, limit: 5, total: 0, totalPages: 0 } },
        }),
    );
    await page.goto('/admin/results');
    await expect(page.getByText('No results found.')).toBeVisible();
  });
});
