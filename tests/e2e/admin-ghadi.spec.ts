import { expect, type Locator, type Page } from '@playwright/test';
import { AdminApi, signInAsAdmin, uniqueName } from './support/api.js';
import { exhaustRetries, failRequests } from './support/failing-route.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { test } from './support/test.js';

function form(page: Page) {
  return page.getByRole('form', { name: /Ghadi/ });
}

function pages(page: Page) {
  return page.getByRole('navigation', { name: 'Ghadi list pages' });
}

/** The ghadi rows (an open Update Result form is a row of its own, without an Edit button). */
function rowsOf(page: Page) {
  return page
    .getByRole('table', { name: /Ghadi list/ })
    .locator('tbody > tr')
    .filter({ has: page.getByRole('button', { name: /^Edit/ }) });
}

/** The ghadi's row, on whichever page of the list it sits (other tests add ghadis too). */
async function findRow(page: Page, name: string): Promise<Locator> {
  const row = rowsOf(page).filter({ hasText: name });
  await expect(page.getByRole('table', { name: /Ghadi list/ })).toBeVisible();
  const pageButtons = pages(page).getByRole('button', { name: /^Page \d+$/ });
  const count = await pageButtons.count();
  for (let index = 0; (await row.count()) === 0 && index < count; index += 1) {
    await pageButtons.nth(index).click();
  }
  await expect(row).toHaveCount(1);
  return row;
}

test.describe('admin ghadi', () => {
  test('validates, creates, edits and deletes after confirming', async ({ page, request }) => {
    await signInAsAdmin(page, request);
    await page.goto('/admin/ghadi');
    await form(page).getByRole('button', { name: 'Add Ghadi' }).click();
    await expect(form(page).getByText('This field is required')).toHaveCount(4);
    await form(page).getByLabel('Order').fill('first');
    await form(page).getByRole('button', { name: 'Add Ghadi' }).click();
    await expect(form(page).getByText('Must be a whole number')).toBeVisible();

    const name = uniqueName('UI Ghadi ');
    await form(page).getByLabel('Name (English)').fill(name);
    await form(page).getByLabel('Name (Hindi)').fill('नई घड़ी');
    await form(page).getByLabel('Result Time').fill('7:30 PM');
    await form(page).getByLabel('Order').fill('950');
    await form(page).getByRole('button', { name: 'Add Ghadi' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Ghadi added.' })).toBeVisible();
    // The list turns to the page where the new ghadi sorts.
    const row = rowsOf(page).filter({ hasText: name });
    await expect(row).toContainText('नई घड़ी');
    await expect(row).toContainText('7:30 PM');
    await expect(form(page).getByLabel('Name (English)')).toHaveValue('');

    await row.getByRole('button', { name: /^Edit/ }).click();
    await expect(page.getByRole('heading', { name: `Edit Ghadi: ${name}` })).toBeVisible();
    await expect(form(page).getByLabel('Order')).toHaveValue('950');
    await form(page).getByLabel('Result Time').fill('8:00 PM');
    await form(page).getByRole('button', { name: 'Update Ghadi' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Ghadi updated.' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Add Ghadi' })).toBeVisible();
    await expect(rowsOf(page).filter({ hasText: name })).toContainText('8:00 PM');

    await rowsOf(page)
      .filter({ hasText: name })
      .getByRole('button', { name: /^Delete/ })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Are you sure you want to delete this entry?');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Ghadi deleted.' })).toBeVisible();
    await expect(rowsOf(page).filter({ hasText: name })).toHaveCount(0);
  });

  test('a duplicate name keeps Failed to save ghadi and adds the server reason', async ({
    page,
    request,
  }) => {
    const existing = await (await AdminApi.connect(request)).createGhadi();
    await signInAsAdmin(page, request);
    await page.goto('/admin/ghadi');
    await form(page).getByLabel('Name (English)').fill(existing.NameEn);
    await form(page).getByLabel('Name (Hindi)').fill('कॉपी');
    await form(page).getByLabel('Result Time').fill('7:30 PM');
    await form(page).getByLabel('Order').fill('5');
    await form(page).getByRole('button', { name: 'Add Ghadi' }).click();
    await expect(page.getByRole('alert')).toContainText('Failed to save ghadi');
  });

  test('pages the list 10 at a time', async ({ page, request }) => {
    // 7 seeded ghadis plus these 4 make at least 11, so there is always a page 2.
    const admin = await AdminApi.connect(request);
    for (let index = 0; index < 4; index += 1) await admin.createGhadi({ OrderId: 800 });
    await signInAsAdmin(page, request);
    await page.goto('/admin/ghadi');
    await expect(rowsOf(page)).toHaveCount(10);
    const firstOnPage1 = (await rowsOf(page).first().textContent()) ?? '';
    // Exact: "Page 1" would also match "Page 10" to "Page 19" once earlier runs have added ghadis.
    const pageButton = (number: number) =>
      pages(page).getByRole('button', { name: `Page ${number}`, exact: true });
    await expect(pageButton(1)).toHaveAttribute('aria-current', 'page');
    await pageButton(2).click();
    await expect(pageButton(2)).toHaveAttribute('aria-current', 'page');
    expect(await rowsOf(page).count()).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(page).count()).toBeLessThanOrEqual(10);
    await expect(rowsOf(page).first()).not.toHaveText(firstOnPage1);
  });

  test('Update Result declares a result for today and it shows in the row and in /admin/results', async ({
    page,
    request,
  }) => {
    const ghadi = await (await AdminApi.connect(request)).createGhadi({ OrderId: 0 });
    const { today } = await siteDay(request);
    await signInAsAdmin(page, request);
    await page.goto('/admin/ghadi');
    const row = await findRow(page, ghadi.NameEn);
    await expect(row).toContainText('Not yet');
    await row.getByRole('button', { name: /^Update Result/ }).click();

    const resultForm = page.getByRole('form', { name: `Update Result: ${ghadi.NameEn}` });
    await expect(resultForm.getByLabel('Result')).toBeFocused();
    await expect(resultForm.getByLabel('Date')).toHaveValue(today);
    await resultForm.getByRole('button', { name: 'Save Result' }).click();
    await expect(resultForm.getByText('This field is required')).toBeVisible();

    // A date the server refuses: its message is shown.
    await resultForm.getByLabel('Result').fill('57');
    await resultForm.getByLabel('Date').fill('2099-01-01');
    await resultForm.getByRole('button', { name: 'Save Result' }).click();
    await expect(resultForm.getByRole('alert')).toContainText('Date: Must be between');

    await resultForm.getByLabel('Date').fill(today);
    await resultForm.getByRole('button', { name: 'Save Result' }).click();
    await expect(resultForm.getByRole('status')).toHaveText('Result updated!');
    await expect(row.locator('td').nth(3)).toHaveText('57');

    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await captureScreens(page, 'admin-ghadi');
    await page.setViewportSize({ width: 360, height: 740 });
    // Polled: right after a viewport change (and the screenshots) layout may still be settling.
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);

    await page.goto('/admin/results');
    await page.getByLabel('Search').fill(ghadi.NameEn);
    const resultRow = page.getByRole('table', { name: 'All Agents Ghadi Results' }).locator('tbody > tr');
    await expect(resultRow).toHaveCount(1);
    await expect(resultRow).toContainText('57');
  });

  test('Failed to load ghadi list, with Retry', async ({ page, request }) => {
    await page.clock.install();
    await signInAsAdmin(page, request);
    const ghadis = await failRequests(page, '**/api/ghadis');
    await page.goto('/admin/ghadi');
    await exhaustRetries(page, ghadis);
    await expect(page.getByRole('alert')).toContainText('Failed to load ghadi list');
    await ghadis.stop();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('table', { name: /Ghadi list/ })).toBeVisible();
  });
});
