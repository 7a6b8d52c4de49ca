import { expect } from '@playwright/test';
import { AdminApi, signInAsAdmin } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { test } from './support/test.js';

const SCREENS = [
  { path: '/admin/dashboard', link: 'Dashboard', heading: 'Welcome, Admin' },
  { path: '/admin/agents', link: 'Agents', heading: 'Agents' },
  { path: '/admin/ghadi', link: 'Ghadi', heading: 'Ghadi' },
  { path: '/admin/results', link: 'Results', heading: 'All Agents Ghadi Results' },
  { path: '/admin/assign-ghadi', link: 'Assign Ghadi', heading: 'Assign Ghadi' },
  { path: '/admin/content-blocks', link: 'Content Blocks', heading: 'Content Blocks' },
  { path: '/admin/activity', link: 'Activity', heading: 'Activity' },
  { path: '/admin/media', link: 'Media', heading: 'Media' },
];

test.describe('admin layout', () => {
  test('sidebar: open by default, the toggle and the close button close it, a link closes it and is current', async ({
    page,
    request,
  }) => {
    await signInAsAdmin(page, request);
    await page.goto('/admin/dashboard');
    await expect(page.getByText('Admin Panel')).toBeVisible();
    const sidebar = page.locator('#admin-sidebar');
    const toggle = page.getByRole('button', { name: /menu/ });
    await expect(sidebar).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await captureScreens(page, 'admin-layout-sidebar-open');

    await toggle.click();
    await expect(sidebar).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(sidebar).toBeVisible();
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await expect(sidebar).toBeHidden();

    const nav = page.getByRole('navigation', { name: 'Admin' });
    for (const screen of SCREENS.slice(1)) {
      await toggle.click();
      await nav.getByRole('link', { name: screen.link, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${screen.path}$`));
      await expect(page.getByRole('heading', { name: screen.heading, level: 1 })).toBeVisible();
      await expect(sidebar).toBeHidden();
      await toggle.click();
      await expect(nav.getByRole('link', { name: screen.link, exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
      await page.getByRole('button', { name: 'Close sidebar' }).click();
    }
  });

  test('footer shows the current year, and Logout ends the session', async ({ page, request }) => {
    // The footer reads the browser's clock: set to midsummer of the site's year, it shows that year
    // whatever this machine's clock and zone say (New Year's Eve is a different year in some zones).
    const year = (await siteDay(request)).today.slice(0, 4);
    await page.clock.setFixedTime(new Date(`${year}-07-01T12:00:00Z`));
    const { token } = await signInAsAdmin(page, request);
    const usersWith = async (bearer: string) =>
      (await request.get('/api/users', { headers: { authorization: `Bearer ${bearer}` } })).status();
    const other = await AdminApi.connect(request);
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('contentinfo')).toHaveText(`© ${year} Ghadi Results. All rights reserved.`);
    expect(await usersWith(token)).toBe(200);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    // The server ended this session's token; the admin's other sessions go on.
    await expect.poll(() => usersWith(token)).toBe(401);
    expect(await usersWith(other.token)).toBe(200);
    await page.goto('/admin/agents');
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test('on a phone every screen loads with the sidebar closed, and none scrolls sideways, open or closed', async ({
    page,
    request,
  }) => {
    await signInAsAdmin(page, request);
    await page.setViewportSize({ width: 360, height: 740 });
    const sidebar = page.locator('#admin-sidebar');
    const toggle = page.getByRole('button', { name: /menu/ });
    for (const screen of SCREENS) {
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { name: screen.heading, level: 1 })).toBeVisible();
      // Over the page on a phone, it would cover every screen as it loads: it starts closed there.
      await expect(sidebar).toBeHidden();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      // Wait for the data, so the check sees the tables rather than a spinner.
      await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
      await expect
        .poll(() => hasHorizontalPageScroll(page), { message: `${screen.path} with the sidebar closed` })
        .toBe(false);
      await toggle.click();
      await expect(sidebar).toBeVisible();
      await expect
        .poll(() => hasHorizontalPageScroll(page), { message: `${screen.path} with the sidebar open` })
        .toBe(false);
      // Over the page, Escape closes it and gives the focus back to the toggle.
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').first().focus();
      await page.keyboard.press('Escape');
      await expect(sidebar).toBeHidden();
      await expect(toggle).toBeFocused();
    }
    await captureScreens(page, 'admin-layout-phone-closed');
    // Back at a desktop width, the spec's default holds: open on the next screen loaded.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/admin/results');
    await expect(sidebar).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(sidebar).toBeVisible();
  });
});
