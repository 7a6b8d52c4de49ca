import { expect, type Page } from '@playwright/test';
import { AdminApi, apiLogin, signInAsAdmin, uniqueName } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { siteDay, siteTime } from './support/site-day.js';
import { test } from './support/test.js';

/** The board's row of a ghadi, found by its name (the row's header). */
const boardRow = (page: Page, name: string) =>
  page
    .getByRole('table', { name: /Today's ghadis/ })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name }) });

test.describe('the operator console', () => {
  test('the board turns a row from overdue to declared live when its agent declares', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const site = await siteDay(request);
    // The board turns rows by the page's clock: it says noon of the site's today, and the ghadi was
    // due 40 minutes before (past the 15 minutes' allowance), whatever the hour here.
    await page.clock.install({ time: siteTime(site, '12:00') });
    const RTime = '11:20';

    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Late '), RTime, OrderId: 0 });
    const agent = await admin.createAgent({ DisplayName: 'Asha Late' });
    await admin.assign(agent.User_Id, ghadi.GID);

    await signInAsAdmin(page, request);
    const boardRequests: string[] = [];
    page.on('request', (sent) => {
      if (new URL(sent.url()).pathname === '/api/today') boardRequests.push(sent.url());
    });
    await page.goto('/admin/dashboard');
    await expect(page.locator('html[data-live="open"]')).toBeAttached();
    const row = boardRow(page, ghadi.NameEn);
    await expect(row).toHaveAttribute('data-state', 'overdue');
    await expect(row.getByText('Overdue', { exact: true })).toBeVisible();
    await expect(row).toContainText('Asha Late · never seen');
    await expect(row).toContainText('Not declared yet');
    await expect(page.getByRole('status').filter({ hasText: /overdue/ })).toContainText(
      /\d+ ghadis? overdue/,
    );
    // The spec's three counts stay, under the board.
    await expect(page.locator('dt', { hasText: 'Total Results' })).toBeVisible();
    // The plots load with their text alternatives.
    await expect(page.getByRole('heading', { name: 'Visitors per day', level: 3 })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Visitors per day, last 30 days' })).toBeAttached();

    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await row.scrollIntoViewIfNeeded();
    await captureScreens(page, 'admin-console-dashboard');
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A mark that a reload would wipe out.
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });
    const loadedBefore = boardRequests.length;
    const { token } = await apiLogin(request, agent.UserName, agent.Password);
    const declared = await request.post('/api/agent/my-ghadi/update-result', {
      headers: { authorization: `Bearer ${token}` },
      data: { ghadiId: ghadi.GID, result: '42', dateTime: site.today },
    });
    expect(declared.status(), await declared.text()).toBe(200);

    await expect(row).toHaveAttribute('data-state', 'declared');
    await expect(row.getByText('Declared', { exact: true })).toBeVisible();
    await expect(row).toContainText('42by Asha Late at');
    // No reload: the page is the one the mark was left on.
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    // One refetch for the event (a few at most, should other tests' changes arrive meanwhile): no polling.
    expect(boardRequests.length - loadedBefore).toBeGreaterThanOrEqual(1);
    expect(boardRequests.length - loadedBefore).toBeLessThan(6);
    await captureScreens(page, 'admin-console-dashboard-declared');
  });

  test('the activity page lists the trail and filters it by action', async ({ page, request }) => {
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Trail '), RTime: '7:30 PM', OrderId: 950 });
    await admin.call('PUT', `/api/ghadis/${ghadi.GID}`, {
      NameEn: ghadi.NameEn,
      NameHn: ghadi.NameHn,
      RTime: '7:45 PM',
      OrderId: 950,
    });

    await signInAsAdmin(page, request);
    await page.goto('/admin/dashboard');
    const nav = page.getByRole('navigation', { name: 'Admin' });
    // allTextContents does not wait: the sidebar's links may not be drawn yet. The last link is.
    await expect(nav.getByRole('link', { name: 'Activity', exact: true })).toBeVisible();
    const links = await nav.getByRole('link').allTextContents();
    expect(links.slice(links.indexOf('Content Blocks'), links.indexOf('Content Blocks') + 2)).toEqual([
      'Content Blocks',
      'Activity',
    ]);
    await nav.getByRole('link', { name: 'Activity', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/activity$/);
    await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
    // Choosing a link closes the sidebar.
    await expect(page.locator('#admin-sidebar')).toBeHidden();
    const table = page.getByRole('table', { name: 'Activity, newest first' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();

    await page.getByLabel('Action').selectOption({ label: 'Ghadi updated' });
    await expect(page).toHaveURL(/\/admin\/activity\?action=ghadi_update$/);
    const mine = table.getByRole('row').filter({ hasText: ghadi.NameEn });
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText('Ghadi updated');
    await expect(mine).toContainText('RTime: "7:30 PM" → "7:45 PM"');
    const actions = table.getByRole('row').locator('td:nth-child(3) > span:first-child');
    await expect(actions.first()).toHaveText('Ghadi updated');
    expect(new Set(await actions.allTextContents())).toEqual(new Set(['Ghadi updated']));

    await page.getByLabel('Action').selectOption({ label: 'Signed in' });
    await expect(page).toHaveURL(/action=login$/);
    await expect(actions.first()).toHaveText('Signed in');
    expect(new Set(await actions.allTextContents())).toEqual(new Set(['Signed in']));
    // The address is shareable: a reload opens the same view.
    await page.reload();
    await expect(page.getByLabel('Action')).toHaveValue('login');
    await expect(actions.first()).toHaveText('Signed in');

    await page.getByLabel('Action').selectOption({ label: 'Ghadi updated' });
    await expect(mine).toHaveCount(1);
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await captureScreens(page, 'admin-console-activity');
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
  });
});
