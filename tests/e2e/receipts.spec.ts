import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import { AdminApi, uniqueName } from './support/api.js';
import { axeViolations } from './support/axe.js';
import { captureScreens, SCREENSHOT_DIR } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { test } from './support/test.js';

const receiptOf = (entry: DeclarationEntry) => entry.hash.slice(0, 10);

async function openHydrated(page: Page, address: string) {
  await page.goto(address);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** A ghadi whose value of the 1st of this month was declared, then corrected. */
async function correctedGhadi(page: Page) {
  const admin = await AdminApi.connect(page.request);
  const ghadi = await admin.createGhadi({ NameEn: uniqueName('Receipt '), NameHn: 'रसीद बाज़ार' });
  const date = `${(await siteDay(page.request)).today.slice(0, 7)}-01`;
  await admin.submitResult(ghadi.GID, '45', date);
  await admin.submitResult(ghadi.GID, '54', date);
  const entries = (
    (await (await page.request.get(`/api/declarations?gid=${ghadi.GID}`)).json()) as {
      data: DeclarationEntry[];
    }
  ).data;
  return { ghadi, date, first: entries[0] as DeclarationEntry, latest: entries[1] as DeclarationEntry };
}

/** What axe finds wrong on the page as it is now, at a phone's width and a desktop's. */
async function axeProblems(page: Page, screen: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const violations = await axeViolations(page);
    found.push(...violations.map((violation) => `${screen} @${width}: ${violation.id}: ${violation.help}`));
  }
  return found;
}

/** The dialog as a phone shows it (the screen, not the whole page), when SCREENSHOTS=1. */
async function shootScreen(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}-phone-screen.png`),
    animations: 'disabled',
  });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('receipts', () => {
  test('a tapped value on the results page shows its receipt, shares it, and opens its page', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { ghadi, latest } = await correctedGhadi(page);
    await openHydrated(page, `/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`);

    await page
      .getByRole('table', { name: /results – / })
      .getByRole('button', { name: '54' })
      .click();
    const dialog = page.getByRole('dialog', { name: /Receipt/ });
    await expect(dialog.getByTestId('receipt-code')).toHaveText(receiptOf(latest));
    await expect(dialog).toContainText('A correction: it replaced 45.');
    await shootScreen(page, 'results-receipt');
    await captureScreens(page, 'results-receipt');

    // This browser has no share sheet: the link is copied.
    await dialog.getByRole('button', { name: 'Share this receipt' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      new URL(`/r/${receiptOf(latest)}`, page.url()).href,
    );

    await dialog.getByRole('link', { name: 'Open the receipt page' }).click();
    await expect(page).toHaveURL(new RegExp(`/r/${receiptOf(latest)}$`));
    await expect(page.getByTestId('receipt-result')).toHaveText('54');
    await expect(page.getByTestId('receipt-hash')).toHaveText(latest.hash);
    await expect(page.getByTestId('receipt-standing')).toContainText('This is the latest entry');
    await captureScreens(page, 'receipt-en');
  });

  test('a corrected value’s receipt page, in Hindi, links the newer one', async ({ page }) => {
    const { first, latest } = await correctedGhadi(page);
    await openHydrated(page, `/hi/r/${receiptOf(first)}`);
    await expect(page.getByTestId('receipt-standing')).toContainText('बाद में इसे सुधारकर 54 किया गया');
    await captureScreens(page, 'receipt-hi');
    await page.getByRole('link', { name: /उस एंट्री की रसीद/ }).click();
    await expect(page).toHaveURL(new RegExp(`/hi/r/${receiptOf(latest)}$`));
    await expect(page.getByTestId('receipt-standing')).toContainText('यही नवीनतम एंट्री है');
  });

  test('the receipt dialog and pages pass axe, in both languages', async ({ page }) => {
    const { ghadi, first } = await correctedGhadi(page);
    const found: string[] = [];
    await openHydrated(page, `/hi/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`);
    await page.getByRole('table').getByRole('button', { name: '54' }).click();
    await expect(page.getByRole('dialog').getByTestId('receipt-code')).toBeVisible();
    found.push(...(await axeProblems(page, 'the Hindi receipt dialog')));
    for (const address of [`/r/${receiptOf(first)}`, `/hi/r/${receiptOf(first)}`]) {
      await openHydrated(page, address);
      found.push(...(await axeProblems(page, address)));
    }
    expect(found).toEqual([]);
  });

  test('a tapped value on the year chart shows its receipt', async ({ page }) => {
    const { ghadi, date, latest } = await correctedGhadi(page);
    await openHydrated(
      page,
      `/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}/${date.slice(0, 4)}`,
    );
    const month = Number(date.slice(5, 7));
    await page
      .getByRole('table')
      .locator('tbody tr')
      .first()
      .locator('td')
      .nth(month - 1)
      .click();
    const dialog = page.getByRole('dialog', { name: /Receipt/ });
    await expect(dialog.getByTestId('receipt-code')).toHaveText(receiptOf(latest));
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('the receipt page checks its proof in the browser, and names a tampered one', async ({ page }) => {
    const { first, latest } = await correctedGhadi(page);
    await openHydrated(page, `/r/${receiptOf(latest)}`);
    const verdict = page.getByTestId('receipt-proof-verdict');
    await expect(verdict).toHaveText(/Verified against checkpoint of size \d+, signed by [0-9a-f]{8}$/);
    const size = Number((await page.getByTestId('receipt-checkpoint').textContent())?.split('\n')[1]);
    expect(size).toBeGreaterThanOrEqual(latest.seq);
    await expect(verdict).toContainText(`checkpoint of size ${size},`);
    await captureScreens(page, 'receipt-verified-en');

    await openHydrated(page, `/hi/r/${receiptOf(first)}`);
    await expect(verdict).toHaveText(/आकार \d+ के चेकपॉइंट से सत्यापित, [0-9a-f]{8} द्वारा साइन किया हुआ/);
    await captureScreens(page, 'receipt-verified-hi');

    // The page as a site that lied would serve it: the proof's leaf (in the markup and the page's data)
    // is not the entry's. The browser's own check says so.
    await page.route(`**/r/${receiptOf(latest)}`, async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const leaf = /"leafHash":"([^"]+)"/.exec(html)?.[1] ?? '';
      expect(leaf).not.toBe('');
      const forged = `${leaf.startsWith('A') ? 'B' : 'A'}${leaf.slice(1)}`;
      // The body is handed over decoded: it goes without the encoding and length it came with.
      const { 'content-encoding': _encoding, 'content-length': _length, ...headers } = response.headers();
      await route.fulfill({ status: response.status(), headers, body: html.replaceAll(leaf, forged) });
    });
    await openHydrated(page, `/r/${receiptOf(latest)}`);
    await expect(verdict).toContainText('Check failed: the entry shown does not hash to the proof’s leaf.');
    await expect(verdict).toHaveAttribute('data-verdict', 'failed');
  });
});
