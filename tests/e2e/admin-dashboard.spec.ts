import { expect, type Page } from '@playwright/test';
import { AdminApi, signInAsAdmin } from './support/api.js';
import { exclusively } from './support/exclusive.js';
import { exhaustRetries, failRequests } from './support/failing-route.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { GHADI_COUNT_LOCK, test } from './support/test.js';

const LABELS = ['Total Agents', 'Total Ghadi', 'Total Results'] as const;

async function readCounts(page: Page): Promise<number[]> {
  const counts: number[] = [];
  for (const label of LABELS) {
    const value = page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
    await expect(value).toHaveText(/^\d[\d,]*$/);
    counts.push(Number(((await value.textContent()) ?? '').replaceAll(',', '')));
  }
  return counts;
}

test.describe('admin dashboard', () => {
  test('welcomes the admin and its three counts move after creating things', async ({ page, request }) => {
    await signInAsAdmin(page, request);
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Welcome, Admin', level: 1 })).toBeVisible();
    // Other tests delete the ghadis they made when they end: not while the counts are compared.
    await exclusively(GHADI_COUNT_LOCK, async () => {
      const [agentsBefore = 0, ghadisBefore = 0, resultsBefore = 0] = await readCounts(page);

      // Several of each, so another test deleting one of its own records cannot hide the change.
      const admin = await AdminApi.connect(request);
      const { today } = await siteDay(request);
      for (let index = 0; index < 3; index += 1) {
        await admin.createAgent();
        const ghadi = await admin.createGhadi({ OrderId: 900 });
        await admin.submitResult(ghadi.GID, String(index), today);
      }

      await page.reload();
      const [agentsAfter = 0, ghadisAfter = 0, resultsAfter = 0] = await readCounts(page);
      expect(agentsAfter).toBeGreaterThan(agentsBefore);
      expect(ghadisAfter).toBeGreaterThan(ghadisBefore);
      expect(resultsAfter).toBeGreaterThanOrEqual(resultsBefore + 3);
    });

    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await captureScreens(page, 'admin-dashboard');
    await page.setViewportSize({ width: 360, height: 740 });
    // Polled: right after a viewport change (and the screenshots) layout may still be settling.
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
  });

  test('shows a loading state, then Failed to load dashboard stats with a working Retry', async ({
    page,
    request,
  }) => {
    await page.clock.install();
    await signInAsAdmin(page, request);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const counts = await failRequests(page, '**/api/ghadis/count', async (route) => {
      await held;
      await route.fulfill({ status: 500, json: { success: false, message: 'down' } });
    });
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('status').filter({ hasText: 'Loading dashboard stats' })).toBeVisible();
    release();
    await exhaustRetries(page, counts);
    await expect(page.getByRole('alert')).toContainText('Failed to load dashboard stats');

    await counts.stop();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.locator('dt', { hasText: 'Total Ghadi' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
