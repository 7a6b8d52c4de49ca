import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { AdminApi, signInAsAdmin } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { test } from './support/test.js';

/** A month of 2020-2024, which the other specs' random months (2000-2019) never use. */
function randomMonth(): string {
  const year = 2020 + Math.floor(Math.random() * 5);
  const month = 1 + Math.floor(Math.random() * 12);
  return `${year}-${String(month).padStart(2, '0')}`;
}

function csvFile(lines: string[]) {
  return { name: 'results.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\n')}\n`) };
}

async function checkFile(page: Page, lines: string[]) {
  const dialog = page.getByRole('dialog', { name: 'Import results from CSV' });
  await dialog.getByLabel('CSV file').setInputFiles(csvFile(lines));
  await dialog.getByRole('button', { name: 'Check file' }).click();
  return dialog;
}

test.describe('results CSV', () => {
  test('exports a range of one ghadi, then imports a file checked first', async ({ page, request }) => {
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ OrderId: 710 });
    const month = randomMonth();
    const day = (n: number) => `${month}-${String(n).padStart(2, '0')}`;
    await admin.submitResult(ghadi.GID, '11', day(1));
    await admin.submitResult(ghadi.GID, '22', day(2));

    await signInAsAdmin(page, request);
    await page.goto('/admin/results');
    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Export and import' }) });
    await panel.getByLabel('From', { exact: true }).fill(day(1));
    await panel.getByLabel('To', { exact: true }).fill(day(28));
    await panel.getByLabel('Ghadi', { exact: true }).selectOption({ label: ghadi.NameEn });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`results-${day(1)}-${day(28)}.csv`);
    const exported = fs.readFileSync(await download.path(), 'utf8');
    expect(exported).toBe(
      [
        'Date,GID,Name,Result',
        `${day(1)},${ghadi.GID},${ghadi.NameEn},11`,
        `${day(2)},${ghadi.GID},${ghadi.NameEn},22`,
        '',
      ].join('\n'),
    );
    await expect(panel.getByRole('status')).toContainText(`Downloaded results-${day(1)}-${day(28)}.csv`);

    // A file with errors: the check lists them by line and nothing can be confirmed.
    await panel.getByRole('button', { name: 'Import CSV…' }).click();
    const rows = exported.trim().split('\n');
    const withErrors = await checkFile(page, [
      ...rows,
      `${day(3)},${ghadi.GID},${ghadi.NameEn},3=3`,
      `${month}-45,${ghadi.GID},,44`,
      `${day(4)},999999999,,44`,
    ]);
    await expect(withErrors.getByRole('alert')).toContainText('3 lines have errors');
    const errorList = withErrors.getByRole('list', { name: 'Errors by line' });
    await expect(errorList.getByRole('listitem')).toHaveText([
      /^Line 4\s*Result: Use letters/,
      /^Line 5\s*Date: Must be a date/,
      /^Line 6\s*GID 999999999: No such ghadi/,
    ]);
    await expect(withErrors.getByRole('button', { name: /Confirm/ })).toHaveCount(0);
    await captureScreens(page, 'results-csv-import-errors');
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
    }

    // The fixed file: one correction, one new result, one unchanged; confirmed, then shown.
    const fixed = await checkFile(page, [
      'Result,Date,Name',
      `22,${day(2)},${ghadi.NameEn.toUpperCase()}`,
      `12,${day(1)},${ghadi.NameEn}`,
      `33,${day(3)},${ghadi.NameEn}`,
    ]);
    const summary = fixed.getByLabel('Results in the file');
    await expect(summary).toContainText('New1');
    await expect(summary).toContainText('Corrected1');
    await expect(summary).toContainText('Unchanged1');
    await fixed.getByRole('button', { name: 'Confirm import (2)' }).click();
    await expect(fixed).toBeHidden();
    await expect(panel.getByRole('status').last()).toContainText(
      'Imported: 1 created, 1 corrected, 1 unchanged',
    );

    await page.getByLabel('Search').fill(ghadi.NameEn);
    const table = page.getByRole('table', { name: 'All Agents Ghadi Results' });
    // The corrected value carries its mark, which says what it replaced.
    await expect(table.locator('tbody > tr td:nth-child(3) > span:first-child')).toHaveText([
      '33',
      '22',
      '12✱ (corrected, was 11)',
    ]);
  });
});
