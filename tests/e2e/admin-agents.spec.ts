import { expect, type Page } from '@playwright/test';
import { AdminApi, apiLogin, signInAsAdmin, uniqueName } from './support/api.js';
import { E2E_ADMIN } from './support/constants.js';
import { exhaustRetries, failRequests } from './support/failing-route.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { test } from './support/test.js';

function form(page: Page) {
  return page.getByRole('form', { name: /Agent/ });
}

function agentRow(page: Page, userName: string) {
  return page.getByRole('table', { name: 'Agents' }).getByRole('row').filter({ hasText: userName });
}

test.describe('admin agents', () => {
  test('validates, creates, edits without a password and deletes after confirming', async ({
    page,
    request,
  }) => {
    await signInAsAdmin(page, request);
    await page.goto('/admin/agents');
    await expect(page.getByRole('heading', { name: 'Add Agent' })).toBeVisible();

    await form(page).getByRole('button', { name: 'Add Agent' }).click();
    await expect(form(page).getByText('This field is required')).toHaveCount(4);
    await form(page).getByLabel('Email').fill('not-an-email');
    await form(page).getByRole('button', { name: 'Add Agent' }).click();
    await expect(form(page).getByText('Must be a valid email address')).toBeVisible();

    const userName = uniqueName('ui-agent');
    await form(page).getByLabel('Username').fill(userName);
    await form(page).getByLabel('Display Name').fill('Ravi Kumar');
    await form(page).getByLabel('Email').fill(`${userName}@example.com`);
    await form(page).getByLabel('Password').fill('first-password-1');
    await form(page).getByRole('button', { name: 'Add Agent' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Agent created.' })).toBeVisible();
    await expect(agentRow(page, userName)).toContainText('Ravi Kumar');
    await expect(agentRow(page, userName)).toContainText('Active');
    await expect(form(page).getByLabel('Username')).toHaveValue('');
    expect((await apiLogin(request, userName, 'first-password-1')).user.userType).toBe('agent');

    // Edit: the form fills in, the password stays blank and, left blank, keeps the old one.
    await agentRow(page, userName).getByRole('button', { name: /^Edit/ }).click();
    await expect(page.getByRole('heading', { name: `Edit Agent: ${userName}` })).toBeVisible();
    await expect(form(page).getByLabel('Display Name')).toHaveValue('Ravi Kumar');
    await expect(form(page).getByLabel('Password')).toHaveValue('');
    await expect(form(page).getByText('Leave blank to keep the current password.')).toBeVisible();
    await form(page).getByLabel('Display Name').fill('Ravi K.');
    await form(page).getByLabel('Status').selectOption('Inactive');
    await form(page).getByRole('button', { name: 'Update Agent' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Agent updated.' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Add Agent' })).toBeVisible();
    await expect(agentRow(page, userName)).toContainText('Ravi K.');
    await expect(agentRow(page, userName)).toContainText('Inactive');

    await agentRow(page, userName).getByRole('button', { name: /^Edit/ }).click();
    await form(page).getByLabel('Status').selectOption('Active');
    await form(page).getByRole('button', { name: 'Update Agent' }).click();
    await expect(agentRow(page, userName)).toContainText('Active');
    expect((await apiLogin(request, userName, 'first-password-1')).user.UserName).toBe(userName);

    // Delete: Cancel keeps the agent, confirming removes it.
    await agentRow(page, userName)
      .getByRole('button', { name: /^Delete/ })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Are you sure you want to delete this agent?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(agentRow(page, userName)).toHaveCount(1);
    await agentRow(page, userName)
      .getByRole('button', { name: /^Delete/ })
      .click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Agent deleted.' })).toBeVisible();
    await expect(agentRow(page, userName)).toHaveCount(0);
  });

  test('a new password on edit replaces the old one; Cancel returns to add mode', async ({
    page,
    request,
  }) => {
    const agent = await (await AdminApi.connect(request)).createAgent();
    await signInAsAdmin(page, request);
    await page.goto('/admin/agents');
    await agentRow(page, agent.UserName).getByRole('button', { name: /^Edit/ }).click();
    await form(page).getByLabel('Password').fill('second-password-2');
    await form(page).getByRole('button', { name: 'Update Agent' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Agent updated.' })).toBeVisible();
    expect((await apiLogin(request, agent.UserName, 'second-password-2')).user.UserName).toBe(agent.UserName);

    await agentRow(page, agent.UserName).getByRole('button', { name: /^Edit/ }).click();
    await form(page).getByLabel('Display Name').fill('Changed but cancelled');
    await form(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { name: 'Add Agent' })).toBeVisible();
    await expect(form(page).getByLabel('Display Name')).toHaveValue('');
    await expect(agentRow(page, agent.UserName)).not.toContainText('Changed but cancelled');
  });

  test('a duplicate username shows the server message', async ({ page, request }) => {
    const agent = await (await AdminApi.connect(request)).createAgent();
    await signInAsAdmin(page, request);
    await page.goto('/admin/agents');
    await form(page).getByLabel('Username').fill(agent.UserName);
    await form(page).getByLabel('Display Name').fill('Someone else');
    await form(page).getByLabel('Email').fill('someone@example.com');
    await form(page).getByLabel('Password').fill('password-123');
    await form(page).getByRole('button', { name: 'Add Agent' }).click();
    await expect(page.getByRole('alert')).toContainText('Username already exists');
  });

  test('marks admins, never offers to delete the signed-in account, and fits a phone', async ({
    page,
    request,
  }) => {
    await signInAsAdmin(page, request);
    await page.goto('/admin/agents');
    const own = agentRow(page, E2E_ADMIN.username).filter({ hasText: 'You' });
    await expect(own).toContainText('Admin');
    await expect(own.getByRole('button', { name: /^Edit/ })).toBeVisible();
    await expect(own.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Email' })).toHaveAttribute('scope', 'col');

    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await captureScreens(page, 'admin-agents');
    await page.setViewportSize({ width: 360, height: 740 });
    // Polled: right after a viewport change (and the screenshots) layout may still be settling.
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
  });

  test('Failed to load agents, with Retry', async ({ page, request }) => {
    await page.clock.install();
    await signInAsAdmin(page, request);
    const users = await failRequests(page, '**/api/users');
    await page.goto('/admin/agents');
    await exhaustRetries(page, users);
    await expect(page.getByRole('alert')).toContainText('Failed to load agents');
    await users.stop();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('table', { name: 'Agents' })).toBeVisible();
  });
});
