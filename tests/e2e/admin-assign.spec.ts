import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { AdminApi, apiLogin, signInAsAdmin } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { test } from './support/test.js';

function form(page: Page) {
  return page.getByRole('form', { name: 'Assign Ghadi' });
}

function assignmentRow(page: Page, userName: string, ghadi: GhadiRecord) {
  return page
    .getByRole('table', { name: 'Current assignments' })
    .locator('tbody > tr')
    .filter({ hasText: userName })
    .filter({ hasText: ghadi.NameEn });
}

async function myGhadiNames(request: APIRequestContext, userName: string, password: string) {
  const { token } = await apiLogin(request, userName, password);
  const response = await request.get('/api/agent/my-ghadi', {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { data: GhadiRecord[] }).data.map((ghadi) => ghadi.NameEn);
}

async function seed(request: APIRequestContext) {
  const admin = await AdminApi.connect(request);
  const agent = await admin.createAgent();
  const ghadis = [
    await admin.createGhadi({ OrderId: 600 }),
    await admin.createGhadi({ OrderId: 601 }),
    await admin.createGhadi({ OrderId: 602 }),
  ] as const;
  return { agent, ghadis };
}

test.describe('admin assign ghadi', () => {
  test('assigns one ghadi (sent as a number) and then several (a list); the agent sees them', async ({
    page,
    request,
  }) => {
    const { agent, ghadis } = await seed(request);
    const [one, two, three] = ghadis;
    await signInAsAdmin(page, request);
    await page.goto('/admin/assign-ghadi');

    await form(page).getByRole('checkbox', { name: one.NameEn }).check();
    await form(page).getByRole('button', { name: 'Assign Ghadi' }).click();
    await expect(form(page).getByText('Please select an agent')).toBeVisible();

    await form(page).getByLabel('Agent').selectOption(String(agent.User_Id));
    const posted = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/api/usermaps'),
    );
    await form(page).getByRole('button', { name: 'Assign Ghadi' }).click();
    expect((await posted).postDataJSON()).toEqual({ User_Id: agent.User_Id, GID: one.GID });
    await expect(page.getByRole('status').filter({ hasText: 'Ghadi assigned.' })).toBeVisible();
    await expect(assignmentRow(page, agent.UserName, one)).toHaveCount(1);
    expect(await myGhadiNames(request, agent.UserName, agent.Password)).toEqual([one.NameEn]);

    await form(page).getByRole('checkbox', { name: two.NameEn }).check();
    await form(page).getByRole('checkbox', { name: three.NameEn }).check();
    const postedList = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/api/usermaps'),
    );
    await form(page).getByRole('button', { name: 'Assign Ghadi' }).click();
    expect((await postedList).postDataJSON()).toEqual({ User_Id: agent.User_Id, GID: [two.GID, three.GID] });
    await expect(assignmentRow(page, agent.UserName, two)).toHaveCount(1);
    await expect(assignmentRow(page, agent.UserName, three)).toHaveCount(1);
    expect((await myGhadiNames(request, agent.UserName, agent.Password)).sort()).toEqual(
      [one.NameEn, two.NameEn, three.NameEn].sort(),
    );
    await expect(form(page).getByText('(already assigned)')).toHaveCount(3);

    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await captureScreens(page, 'admin-assign-ghadi');
    await page.setViewportSize({ width: 360, height: 740 });
    // Polled: right after a viewport change (and the screenshots) layout may still be settling.
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
  });

  test('shows the server message for a duplicate or for no ghadi ticked', async ({ page, request }) => {
    const { agent, ghadis } = await seed(request);
    await (await AdminApi.connect(request)).assign(agent.User_Id, ghadis[0].GID);
    await signInAsAdmin(page, request);
    await page.goto('/admin/assign-ghadi');
    await form(page).getByLabel('Agent').selectOption(String(agent.User_Id));

    await form(page).getByRole('button', { name: 'Assign Ghadi' }).click();
    await expect(page.getByRole('alert')).toContainText('Select at least one ghadi');

    await form(page).getByRole('checkbox', { name: ghadis[0].NameEn }).check();
    await form(page).getByRole('button', { name: 'Assign Ghadi' }).click();
    await expect(page.getByRole('alert')).toContainText('This ghadi is already assigned to this agent');
  });

  test('deletes an assignment after confirming', async ({ page, request }) => {
    const { agent, ghadis } = await seed(request);
    await (await AdminApi.connect(request)).assign(agent.User_Id, [ghadis[0].GID, ghadis[1].GID]);
    await signInAsAdmin(page, request);
    await page.goto('/admin/assign-ghadi');
    const row = assignmentRow(page, agent.UserName, ghadis[0]);
    await row.getByRole('button', { name: /^Delete/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Delete this assignment?');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Assignment deleted.' })).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(assignmentRow(page, agent.UserName, ghadis[1])).toHaveCount(1);
    expect(await myGhadiNames(request, agent.UserName, agent.Password)).toEqual([ghadis[1].NameEn]);
  });

  test('Failed to delete assignment when the server refuses', async ({ page, request }) => {
    const { agent, ghadis } = await seed(request);
    await (await AdminApi.connect(request)).assign(agent.User_Id, ghadis[2].GID);
    await signInAsAdmin(page, request);
    await page.route('**/api/usermaps/*', (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: {} }) : route.continue(),
    );
    await page.goto('/admin/assign-ghadi');
    await assignmentRow(page, agent.UserName, ghadis[2])
      .getByRole('button', { name: /^Delete/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('alert')).toContainText('Failed to delete assignment');
    await expect(assignmentRow(page, agent.UserName, ghadis[2])).toHaveCount(1);
  });
});
