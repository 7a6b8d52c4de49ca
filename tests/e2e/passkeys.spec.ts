import { expect, type Page } from '@playwright/test';
import { PASSKEY_LOGIN_FAILED_MESSAGE } from '../../src/shared/schemas/passkeys.js';
import { AdminApi, apiLogin, signInAs, signInAsAdmin } from './support/api.js';
import { axeViolations } from './support/axe.js';
import { captureScreens } from './support/screens.js';
import { test } from './support/test.js';

/**
 * A browser ties a passkey to a host name, and an IP address cannot be one: reached at 127.0.0.1
 * (the suite's address), the server without PUBLIC_URL answers the options routes 400. These pages
 * are opened at localhost instead (relying-party id `localhost`, origin from the request), which
 * leaves PUBLIC_URL, and every other spec, as they are.
 */
test.use({
  baseURL: async ({ baseURL }, use) => {
    await use(baseURL?.replace('//127.0.0.1:', '//localhost:'));
  },
});

/** Chromium's virtual authenticator, for this page: a platform one that verifies its user. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

async function expectAccessible(page: Page) {
  const violations = await axeViolations(page);
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target.join(' ')}`)).toEqual(
    [],
  );
}

const passkeyList = (page: Page) => page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem');

async function addPasskey(page: Page, name: string) {
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByLabel('Passkey name').fill(name);
  await page.getByRole('button', { name: 'Create passkey' }).click();
  await expect(page.getByText('Passkey added')).toBeVisible();
  await expect(passkeyList(page)).toHaveText([new RegExp(`^${name}Added .*Never used to sign in`)]);
}

test.describe('passkeys', () => {
  test('an agent adds a passkey, signs in with it, is refused on the admin screen, and removes it', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const agent = await admin.createAgent();
    // A session of the agent's own elsewhere, to count the sessions the screens leave open.
    const elsewhere = await apiLogin(request, agent.UserName, agent.Password);
    const liveSessions = async () => {
      const answer = await request.get('/api/users/me/sessions', {
        headers: { authorization: `Bearer ${elsewhere.token}` },
      });
      expect(answer.status()).toBe(200);
      return ((await answer.json()) as { data: unknown[] }).data.length;
    };
    await addVirtualAuthenticator(page);
    await signInAs(page, request, agent.UserName, agent.Password);
    await page.goto('/agent/account');
    await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
    await expect(page.getByText('No passkeys yet.')).toBeVisible();

    await addPasskey(page, 'Test laptop');
    await captureScreens(page, 'account-passkeys');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/agent\/login$/);
    await expect.poll(liveSessions).toBe(1);

    // The admin screen refuses an agent's passkey, and ends the session the server made for it.
    await page.goto('/admin/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('alert')).toHaveText('Not authorized or not an admin');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect.poll(liveSessions).toBe(1);

    await page.goto('/agent/login');
    await captureScreens(page, 'login-passkey');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/agent\/dashboard$/);
    await expect.poll(liveSessions).toBe(2);

    await page.getByRole('link', { name: 'Account' }).click();
    await expect(passkeyList(page)).toHaveText([/^Test laptopAdded .*Last used .*2\d{3}/]);
    await page.getByRole('button', { name: 'Remove Test laptop' }).click();
    const removal = page.getByRole('form', { name: 'Remove the passkey Test laptop' });
    await removal.getByLabel('Password').fill('not-the-password');
    await removal.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(removal.getByRole('alert')).toHaveText('The password is not correct');
    await expect(passkeyList(page)).toHaveCount(1);
    await captureScreens(page, 'account-passkey-remove');
    await expectAccessible(page);
    await removal.getByLabel('Password').fill(agent.Password);
    await removal.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(page.getByText('Passkey removed')).toBeVisible();
    await expect(page.getByText('No passkeys yet.')).toBeVisible();

    // The authenticator still holds the credential; the server no longer knows it.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/agent\/login$/);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('alert')).toHaveText(PASSKEY_LOGIN_FAILED_MESSAGE);
    await expect(page).toHaveURL(/\/agent\/login$/);
    await expect.poll(liveSessions).toBe(1);
  });

  test('an admin signs in with a passkey on the admin screen, and removes it confirmed by the passkey', async ({
    page,
    request,
  }) => {
    await addVirtualAuthenticator(page);
    await signInAsAdmin(page, request);
    await page.goto('/admin/account');
    const name = `Admin key ${test.info().workerIndex}-${test.info().repeatEachIndex}`;
    await addPasskey(page, name);
    await page.getByRole('button', { name: 'Logout' }).click();

    // The agent screen refuses the admin's passkey.
    await page.goto('/agent/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('alert')).toHaveText('Not authorized or not an agent');

    await page.goto('/admin/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    await page.goto('/admin/account');
    await page.getByRole('button', { name: `Remove ${name}` }).click();
    await page.getByRole('button', { name: 'Confirm with a passkey' }).click();
    await expect(page.getByText('Passkey removed')).toBeVisible();
    await expect(page.getByText('No passkeys yet.')).toBeVisible();
  });
});
