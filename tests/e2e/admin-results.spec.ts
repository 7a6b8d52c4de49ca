import { expect, type Page, test } from '@playwright/test';
import { addDays } from '../../src/shared/dates.js';
import type { SiteInfo } from '../../src/shared/site.js';
import { AdminApi, apiLogin, signInAsAdmin, uniqueName } from './support/api.js';
import { exhaustRetries, failRequests } from './support/failing-route.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';

function rows(page: Page) {
  return page.getByRole('table', { name: 'All Agents Ghadi Results' }).locator('tbody > tr');
}

/** Days 1-7 of a month picked at random from 2000-2019, which no other test uses (and a repeat rarely). */
function randomMonth(): string {
  const year = 2000 + Math.floor(Math.random() * 20);
  const month = 1 + Math.floor(Math.random() * 12);
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** As the table shows a date: "05 Apr 2003". */
function shown(date: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00.000Z`));
}

/**
 * A ghadi with 7 results: R1-R5 on days 1-5 of a random month, entered by an admin, then R6 and R7
 * for yesterday and today, declared by a new agent (agents may only enter those two days).
 */
async function seedResults(request: Parameters<typeof AdminApi.connect>[0]) {
  const admin = await AdminApi.connect(request);
  const displayName = uniqueName('Results Agent ');
  const agent = await admin.createAgent({ DisplayName: displayName });
  const ghadi = await admin.createGhadi({ OrderId: 700 });
  await admin.assign(agent.User_Id, ghadi.GID);
  const month = randomMonth();
  for (let day = 1; day <= 5; day += 1) await admin.submitResult(ghadi.GID, `R${day}`, `${month}-0${day}`);
  const { token } = await apiLogin(request, agent.UserName, agent.Password);
  const { today } = (await (await request.get('/api/site')).json()) as SiteInfo;
  for (const [result, dateTime] of [
    ['R6', addDays(today, -1)],
    ['R7', today],
  ]) {
    const response = await request.post('/api/agent/my-ghadi/update-result', {
      headers: { authorization: `Bearer ${token}` },
      data: { ghadiId: ghadi.GID, result, dateTime },
    });
    expect(response.ok(), await response.text()).toBe(true);
  }
  return { agent, displayName, ghadi, month };
}

test.describe('admin results', () => {
  test('searches agent, ghadi, result and date; rows per page 5, 10 or 15; searching goes to page 1', async ({
    page,
    request,
  }) => {
    const { displayName, ghadi, month } = await seedResults(request);
    await signInAsAdmin(page, request);
    await page.goto('/admin/results');
    await expect(page.getByRole('heading', { name: 'All Agents Ghadi Results', level: 1 })).toBeVisible();
    for (const header of ['Agent', 'Ghadi', 'Result', 'Date Time', 'Status']) {
      await expect(page.getByRole('columnheader', { name: header })).toHaveAttribute('scope', 'col');
    }
    const perPage = page.getByLabel('Rows per page');
    await expect(perPage).toHaveValue('5');

    const search = page.getByLabel('Search');
    await search.fill(ghadi.NameEn.toUpperCase());
    await expect(rows(page)).toHaveCount(5);
    await expect(page.getByText('Showing 1–5 of 7')).toBeVisible();
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).first()).toContainText('R2');
    await expect(rows(page).first()).toContainText('Active');

    // A new search starts again at page 1.
    await search.fill(ghadi.NameEn.toLowerCase());
    await expect(page.getByText('Showing 1–5 of 7')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    // The agent's name finds the agent's results only, newest first.
    await search.fill(displayName.toLowerCase());
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).first()).toContainText('R7');
    await expect(rows(page).last()).toContainText('R6');
    await expect(rows(page).filter({ hasText: displayName })).toHaveCount(2);

    await search.fill(ghadi.NameEn);
    await perPage.selectOption('10');
    await expect(rows(page)).toHaveCount(7);
    await perPage.selectOption('15');
    await expect(rows(page)).toHaveCount(7);

    // Dates match as YYYY-MM-DD and as shown; only this test's ghadi is checked, in case a date repeats.
    await search.fill(`${month}-03`);
    const mine = rows(page).filter({ hasText: ghadi.NameEn });
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText('R3');
    await expect(mine).toContainText(shown(`${month}-03`));
    await search.fill(shown(`${month}-05`).toLowerCase());
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText('R5');

    await search.fill(`${uniqueName('nothing-')}`);
    await expect(page.getByText(/No results match/)).toBeVisible();

    await search.fill(ghadi.NameEn);
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await captureScreens(page, 'admin-results');
    await page.setViewportSize({ width: 360, height: 740 });
    // Polled: right after a viewport change (and the screenshots) layout may still be settling.
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
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
    await expect(page.getByLabel('Search').or(page.getByText('No results found.'))).toBeVisible();
  });

  test('an empty list says so', async ({ page, request }) => {
    await signInAsAdmin(page, request);
    await page.route('**/api/results', (route) => route.fulfill({ json: { success: true, data: [] } }));
    await page.goto('/admin/results');
    await expect(page.getByText('No results found.')).toBeVisible();
  });
});
