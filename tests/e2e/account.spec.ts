import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { AdminApi, apiLogin, signInAs, signInAsAdmin } from './support/api.js';
import { axeViolations } from './support/axe.js';
import { captureScreens } from './support/screens.js';
import { serverNow } from './support/site-day.js';
import { test } from './support/test.js';

const STEP_MS = 30_000;

/**
 * A code as the user's authenticator app shows it, at an instant of the server's clock (serverNow):
 * a step is 30 s, and the server takes one step either way.
 */
function codeAt(secret: string, atMs: number): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: atMs });
}

/** The screen as it stands passes axe (WCAG 2.2 AA and best practice). */
async function expectAccessible(page: Page) {
  const violations = await axeViolations(page);
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target.join(' ')}`)).toEqual(
    [],
  );
}

async function signInOnScreen(page: Page, userName: string, password: string) {
  await page.goto('/agent/login');
  await page.getByLabel('Username').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

test.describe('the Account page', () => {
  test('an agent sees its sessions and ends another one', async ({ page, request }) => {
    const admin = await AdminApi.connect(request);
    const agent = await admin.createAgent();
    const elsewhere = await apiLogin(request, agent.UserName, agent.Password);
    await signInAs(page, request, agent.UserName, agent.Password);
    await page.goto('/agent/dashboard');
    await page.getByRole('link', { name: 'Account' }).click();
    await expect(page).toHaveURL(/\/agent\/account$/);
    await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();

    const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect(sessions).toHaveCount(2);
    await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
    await captureScreens(page, 'account-agent');
    await expectAccessible(page);

    await sessions
      .filter({ hasNotText: 'This device' })
      .getByRole('button', { name: /^Sign out/ })
      .click();
    await expect(sessions).toHaveCount(1);
    const refused = await request.get('/api/users/me', {
      headers: { authorization: `Bearer ${elsewhere.token}` },
    });
    expect(refused.status()).toBe(401);
  });

  test('an admin sees the Account page from the sidebar', async ({ page, request }) => {
    await signInAsAdmin(page, request);
    await page.goto('/admin/dashboard');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Account' }).click();
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Sessions' }).getByText('This device')).toBeVisible();
    await captureScreens(page, 'account-admin');
    await expectAccessible(page);
  });

  test('a 403 demanding a new password leads to the password form and keeps the admin there', async ({
    page,
    request,
  }) => {
    await signInAsAdmin(page, request);
    // The e2e admin has a password of its own: the server's demand is played here, on every call
    // outside /api/users/me, as it would be for a first admin with the generated password.
    await page.route(/\/api\/(?!users\/me)/, (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({
          success: false,
          passwordChangeRequired: true,
          message: 'Change your password',
        }),
      }),
    );
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(page.getByText(/still has the password the server generated/)).toBeVisible();
    await expect(page.getByLabel('Current password')).toBeFocused();
    await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link')).toHaveText(['Account']);
    // Loaded at a phone's width, as a phone shows it: the menu starts closed there.
    await page.setViewportSize({ width: 360, height: 740 });
    await page.reload();
    await expect(page.getByLabel('Current password')).toBeFocused();
    await captureScreens(page, 'account-password-required');
    await expectAccessible(page);
    await page.goto('/admin/results');
    await expect(page).toHaveURL(/\/admin\/account$/);
  });

  test('enrol two-factor sign-in from the Account page, sign out, sign in with a code', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const agent = await admin.createAgent();
    await signInAs(page, request, agent.UserName, agent.Password);
    await page.goto('/agent/account');
    await page.getByRole('button', { name: 'Set up' }).click();

    await expect(page.getByTestId('two-factor-qr')).toBeVisible();
    const shown = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
    expect(shown).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    const secret = shown.replaceAll(' ', '');
    await captureScreens(page, 'account-two-factor-setup');
    await expectAccessible(page);

    const enrolledAt = await serverNow(page.request);
    await page.getByLabel('6-digit code').fill(codeAt(secret, enrolledAt));
    await page.getByRole('button', { name: 'Turn on' }).click();

    const codes = page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const backupCodes = await codes.allTextContents();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download (.txt)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`backup-codes-${agent.UserName}.txt`);
    const saved = fs.readFileSync(await download.path(), 'utf8');
    for (const code of backupCodes) expect(saved).toContain(code);
    await captureScreens(page, 'account-backup-codes');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect(page.getByText('Two-factor sign-in is on.')).toBeVisible();
    await expect(codes).toHaveCount(0);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/agent\/login$/);

    await signInOnScreen(page, agent.UserName, agent.Password);
    const code = page.getByLabel('Authentication code');
    await expect(code).toBeVisible();
    await expect(code).toHaveAttribute('inputmode', 'numeric');
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await captureScreens(page, 'login-code-step');
    await expectAccessible(page);

    await code.fill('000000' === codeAt(secret, enrolledAt) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid or already used code');

    // The step after the one the enrolment used: a code is taken once, and one step of drift is allowed.
    const nextStep = (Math.floor(enrolledAt / STEP_MS) + 1) * STEP_MS;
    await code.fill(codeAt(secret, nextStep));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/agent\/dashboard$/);

    // A backup code signs in once, from the same step's link.
    await page.getByRole('button', { name: 'Logout' }).click();
    await signInOnScreen(page, agent.UserName, agent.Password);
    await page.getByRole('button', { name: 'Use a backup code' }).click();
    await page.getByLabel('Backup code').fill(backupCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/agent\/dashboard$/);
  });
});
