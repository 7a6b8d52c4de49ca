import { expect } from '@playwright/test';
import { AdminApi, signInAs, signInAsAdmin } from './support/api.js';
import { E2E_ADMIN } from './support/constants.js';
import { captureScreens } from './support/screens.js';
import { test } from './support/test.js';

test.describe('logins and the route guard', () => {
  test('/login goes to the agent login', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/agent\/login$/);
    await expect(page.getByRole('heading', { name: 'Agent Login' })).toBeVisible();
  });

  test('admin login: validation, busy text, show/hide password, success', async ({ page }) => {
    await page.goto('/admin/login');
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    await captureScreens(page, 'admin-login');

    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('This field is required')).toHaveCount(2);

    const password = page.getByLabel('Password', { exact: true });
    await password.fill(E2E_ADMIN.password);
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');

    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/users/login', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('button', { name: 'Logging in...' })).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ userType: 'admin', UserName: E2E_ADMIN.username });
    expect(typeof stored.token).toBe('string');
  });

  test('wrong password shows the server message', async ({ page }) => {
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test('a network failure without a server message shows Login failed', async ({ page }) => {
    await page.route('**/api/users/login', (route) => route.fulfill({ status: 500, body: 'oops' }));
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill('whatever');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Login failed');
  });

  test('each login screen rejects the other role', async ({ page, request }) => {
    const admin = await AdminApi.connect(request);
    const agent = await admin.createAgent();

    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(agent.UserName);
    await page.getByLabel('Password', { exact: true }).fill(agent.Password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Not authorized or not an admin');

    await page.goto('/agent/login');
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Not authorized or not an agent');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  test('the guard remembers where a logged-out admin was going', async ({ page }) => {
    await page.goto('/admin/results');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/admin\/results$/);
  });

  test('the guard sends logged-out agents to the agent login and back', async ({ page, request }) => {
    const agent = await (await AdminApi.connect(request)).createAgent();
    await page.goto('/agent/ghadi-results');
    await expect(page).toHaveURL(/\/agent\/login$/);
    await page.getByLabel('Username').fill(agent.UserName);
    await page.getByLabel('Password', { exact: true }).fill(agent.Password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/agent\/ghadi-results$/);
  });

  test('a user of the other role is sent to /', async ({ page, request }) => {
    await signInAsAdmin(page, request);
    await page.goto('/agent/dashboard');
    await expect(page).toHaveURL(/\/$/);

    const agent = await (await AdminApi.connect(request)).createAgent();
    await signInAs(page, request, agent.UserName, agent.Password);
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/$/);
  });

  test('a revoked token ends the session and returns to the login, remembering the place', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const agent = await admin.createAgent();
    await signInAs(page, request, agent.UserName, agent.Password);
    await page.goto('/agent/dashboard');
    await expect(page.getByText('Agent Dashboard')).toBeVisible();

    await admin.call('PUT', `/api/users/${agent._id}`, {
      UserName: agent.UserName,
      DisplayName: agent.DisplayName,
      Email: agent.Email,
      isActive: false,
    });
    await page.reload();
    await expect(page).toHaveURL(/\/agent\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });
});
