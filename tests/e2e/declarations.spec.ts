import { expect, type Page } from '@playwright/test';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import { AdminApi, signInAsAdmin, uniqueName } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { test } from './support/test.js';

const PHONE = { width: 360, height: 740 };

async function openHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** Console errors and uncaught exceptions (a hydration mismatch is reported as one). */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

test.describe('result integrity', () => {
  test('a corrected result is marked on the public pages, listed in the log, and its history shows both declarations', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const { today, recordMonth, timeZone } = await siteDay(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Integrity '), OrderId: 1 });
    await admin.submitResult(ghadi.GID, '45', today);
    await admin.submitResult(ghadi.GID, '54', today);
    const { data: entries } = (await (await request.get(`/api/declarations?gid=${ghadi.GID}`)).json()) as {
      data: DeclarationEntry[];
    };
    expect(entries.map(({ Result, Previous }) => [Result, Previous])).toEqual([
      ['45', null],
      ['54', '45'],
    ]);
    const [first, correction] = entries as [DeclarationEntry, DeclarationEntry];
    const problems = watchProblems(page);

    // The home page: today's value on the chart and the record chart's cell carry the mark.
    await openHydrated(page, '/');
    const card = page.locator(`[data-gid="${ghadi.GID}"]`);
    await expect(card.getByTestId('today')).toContainText('54');
    await expect(card.getByTestId('correction-mark')).toHaveAttribute('title', 'corrected, was 45');
    await expect(card.getByTestId('today')).toContainText('(corrected, was 45)');
    await expect(card.getByText('was 45', { exact: true })).toBeVisible();
    // The record chart shows UTC's month: in the small hours of a month's first day, the month before.
    if (recordMonth === today.slice(0, 7)) {
      await expect(page.getByTestId('record-corrections')).toContainText(
        `${ghadi.NameEn} ${today.slice(8, 10)}: was 45`,
      );
    }

    await captureScreens(page, 'home-corrected');

    // The ghadi's page: the day's value, its mark, the value it replaced, and when it was declared.
    const path = `/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`;
    await openHydrated(page, path);
    const cell = page
      .getByRole('table', { name: /results – / })
      .locator('tbody tr')
      .nth(Number(today.slice(8, 10)) - 1)
      .getByRole('cell');
    await expect(cell).toHaveText(['54✱ (corrected, was 45)', /^\d\d:\d\d · was 45$/]);
    await expect(cell.first().getByTestId('correction-mark')).toHaveAttribute('title', 'corrected, was 45');
    await page.setViewportSize(PHONE);
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'results-corrected');

    // The log: both entries, newest first, the correction marked, the head and the feed named.
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHydrated(page, '/declarations');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Declaration Log: every result, as it was declared',
    );
    const newer = page.locator(`#seq-${correction.seq}`);
    const older = page.locator(`#seq-${first.seq}`);
    await expect(newer).toContainText(ghadi.NameEn);
    await expect(newer).toContainText('54');
    await expect(newer).toContainText('corrected, was 45');
    await expect(newer.getByTestId('correction-mark')).toHaveAttribute('title', 'corrected, was 45');
    await expect(older).toContainText(ghadi.NameEn);
    await expect(older.getByTestId('correction-mark')).toHaveCount(0);
    const order = await page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.id));
    expect(order.indexOf(`seq-${correction.seq}`)).toBeLessThan(order.indexOf(`seq-${first.seq}`));
    await expect(page.getByTestId('head-hash')).toHaveText(/^[0-9a-f]{64}$/);
    expect(Number(await page.getByTestId('head-seq').textContent())).toBeGreaterThanOrEqual(correction.seq);
    await expect(page.locator('link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute(
      'href',
      '/feed.xml',
    );
    await expect(page.getByRole('region', { name: 'How to check the log' })).toContainText('npm run verify');
    await page.setViewportSize(PHONE);
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'declarations');
    expect(problems).toEqual([]);

    // The admin's Results screen, on a phone: the row's History lists both declarations, oldest first.
    await signInAsAdmin(page, request);
    await page.goto(`/admin/results?q=${encodeURIComponent(ghadi.NameEn)}`);
    await expect(page.locator('#admin-sidebar')).toBeHidden();
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
    await captureScreens(page, 'admin-results-history');
    const label = `History of ${ghadi.NameEn} ${today}`;
    await page.getByRole('button', { name: label }).click();
    const dialog = page.getByRole('dialog', { name: label });
    await expect(dialog).toBeVisible();
    const items = dialog.getByRole('listitem');
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText(`Entry #${first.seq}`);
    await expect(items.nth(0)).toContainText('Declared 45');
    await expect(items.nth(1)).toContainText(`Entry #${correction.seq}`);
    await expect(items.nth(1)).toContainText(/Corrected from 45\s*→\s*to\s*54/);
    for (const item of [items.nth(0), items.nth(1)]) await expect(item).toContainText(/by \S+/);
    await expect(dialog).toContainText(`Times in ${timeZone}.`);
    await captureScreens(page, 'history-dialog');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: label })).toBeFocused();
  });
});
