import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { addDays } from '../../src/shared/dates.js';
import { ALL_DAYS, weekdayOf } from '../../src/shared/matka.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { SiteInfo } from '../../src/shared/site.js';
import { daysText } from '../../src/web/lib/ghadi-days-text.js';
import { AdminApi, removeAfterTheTest, signInAs, signInAsAdmin, uniqueName } from './support/api.js';
import { axeViolations } from './support/axe.js';
import { hasHorizontalPageScroll, SCREENSHOT_DIR } from './support/screens.js';
import { test } from './support/test.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const VIEWPORTS = [
  { label: 'phone', width: 360, height: 740 },
  { label: 'desktop', width: 1280, height: 800 },
] as const;

async function siteToday(request: APIRequestContext): Promise<string> {
  return ((await (await request.get('/api/site')).json()) as SiteInfo).today;
}

/**
 * A full-page shot at the page's own width, from the top (the sticky bars would paint mid-page),
 * when SCREENSHOTS=1; the page never scrolls sideways either way.
 */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const width = page.viewportSize()?.width ?? 0;
  expect(await hasHorizontalPageScroll(page), `${name} scrolls sideways at ${width} px`).toBe(false);
  if (!process.env.SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** The accessibility rules the whole suite holds the screens to (accessibility.spec.ts), at this width. */
async function axeProblems(page: Page): Promise<string[]> {
  const violations = await axeViolations(page);
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`),
  );
}

function ghadiForm(page: Page) {
  return page.getByRole('form', { name: /Ghadi/ });
}

/** Adds the market through the Ghadi screen, running every day but tomorrow's weekday. */
async function addMarketOnScreen(page: Page, name: string, today: string, label: string) {
  await page.goto('/admin/ghadi');
  const form = ghadiForm(page);
  await form.getByLabel('Name (English)').fill(name);
  await form.getByLabel('Name (Hindi)').fill('मिलन बाज़ार');
  await expect(form.getByLabel('Open time')).toHaveCount(0);
  await form.getByLabel('Kind').selectOption({ label: 'Open/close market' });
  await form.getByLabel('Open time').fill('3:45 PM');
  await form.getByLabel('Result Time').fill('5:45 PM');
  await form.getByLabel('Order').fill('960');
  const off = WEEKDAYS[weekdayOf(addDays(today, 1))] as string;
  await form.getByRole('group', { name: 'Days' }).getByRole('checkbox', { name: off }).uncheck();
  await shot(page, `ghadi-form-market-${label}`);
  expect(await axeProblems(page)).toEqual([]);
  await form.getByRole('button', { name: 'Add Ghadi' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ghadi added.' })).toBeVisible();

  // The list turns to the page where the new ghadi sorts.
  const row = page
    .getByRole('table', { name: /Ghadi list/ })
    .locator('tbody > tr')
    .filter({ hasText: name });
  await expect(row).toContainText('Open/close');
  await expect(row).toContainText('open 3:45 PM · close 5:45 PM');
  await expect(row).toContainText(daysText(ALL_DAYS.filter((day) => day !== weekdayOf(addDays(today, 1)))));
  await row.scrollIntoViewIfNeeded();
  await shot(page, `ghadi-list-market-${label}`);
}

test.describe('an open/close market, from the ghadi form to the agent’s two steps', () => {
  // Two users' whole journeys through five screens: on a busy two-core machine that took up to a minute.
  test.describe.configure({ timeout: 120_000 });
  for (const viewport of VIEWPORTS) {
    test(`admin makes and assigns it, the agent declares the open then the close (${viewport.width} px)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const admin = await AdminApi.connect(request);
      const agent = await admin.createAgent();
      const today = await siteToday(request);
      const name = uniqueName('Milan ');

      await signInAsAdmin(page, request);
      await addMarketOnScreen(page, name, today, viewport.label);
      const ghadis = (await admin.call<{ data: GhadiRecord[] }>('GET', '/api/ghadis')).data;
      const market = ghadis.find((ghadi) => ghadi.NameEn === name) as GhadiRecord;
      removeAfterTheTest(market.GID);
      expect(market).toMatchObject({ Kind: 'open-close', OpenTime: '3:45 PM', RTime: '5:45 PM' });
      expect(market.Days).toHaveLength(6);

      await page.goto('/admin/assign-ghadi');
      const assign = page.getByRole('form', { name: 'Assign Ghadi' });
      await assign.getByLabel('Agent').selectOption(String(agent.User_Id));
      await assign.getByRole('checkbox', { name: name }).check();
      await assign.getByRole('button', { name: 'Assign Ghadi' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Ghadi assigned.' })).toBeVisible();

      await signInAs(page, request, agent.UserName, agent.Password);
      await page.goto(`/agent/dashboard?ghadi=${market.GID}`);
      await expect(page.getByRole('heading', { name: `Update result: ${name}` })).toBeVisible();
      const stepDue = page.getByTestId('step-due');
      const field = page.getByLabel('Result', { exact: true });
      const readout = page.getByTestId('entry-readout');
      const readBack = page.getByTestId('read-back-value');
      const update = page.getByRole('button', { name: 'Update' });
      await expect(stepDue).toHaveText('Open panna due');
      await expect(field).toHaveAttribute('inputmode', 'numeric');

      await field.fill('121');
      await expect(readout).toContainText('121 is not a valid open panna');
      await field.fill('123');
      await expect(readout).toContainText('Open 123 · ank 6');
      await expect(readBack).toHaveText('123-6');
      await shot(page, `agent-open-typed-${viewport.label}`);
      await update.click();
      await expect(page.getByRole('status').filter({ hasText: 'Result updated!' })).toContainText(
        `123-6 saved for ${today}`,
      );

      await expect(stepDue).toHaveText('Close panna due');
      await field.fill('459');
      await expect(readout).toContainText('Jodi 68');
      await expect(readout).toContainText('published as 123-68-459');
      await expect(readBack).toHaveText('123-68-459');
      await shot(page, `agent-close-typed-${viewport.label}`);
      expect(await axeProblems(page)).toEqual([]);
      await update.click();
      await expect(page.getByRole('status').filter({ hasText: 'Result updated!' })).toContainText(
        `123-68-459 saved for ${today}`,
      );
      await expect(stepDue).toHaveText('Day complete — send the whole value to correct it');
      const history = page.getByRole('table', { name: /Result history of/ });
      await expect(history.locator('tbody tr').first()).toContainText('123-68-459');
      await shot(page, `agent-day-complete-${viewport.label}`);
    });
  }
});

test.describe('holidays and the board', () => {
  // Two screens at two widths, with their screenshots: up to a minute on a busy two-core machine.
  test.describe.configure({ timeout: 120_000 });
  test('an admin adds a holiday, is told of a duplicate, and the board shows it closed', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const today = await siteToday(request);
    const closed = await admin.createGhadi({ RTime: '9:00 AM', OrderId: 961 });
    const market = await admin.createGhadi({
      Kind: 'open-close',
      OpenTime: '10:00 AM',
      RTime: '11:00 AM',
      OrderId: 962,
    });
    await admin.submitResult(market.GID, '123', today);
    await signInAsAdmin(page, request);

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto('/admin/holidays');
      const form = page.getByRole('form', { name: 'Add Holiday' });
      // Today for this ghadi alone (other tests' ghadis run on), then a later date.
      for (const date of viewport.label === 'phone' ? [today, addDays(today, 40)] : []) {
        await form.getByLabel('Date').fill(date);
        await form.getByLabel('Ghadi').selectOption({ label: closed.NameEn });
        await form.getByLabel('Note').fill('Repairs');
        await form.getByRole('button', { name: 'Add Holiday' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'Holiday added.' })).toBeVisible();
      }
      await form.getByLabel('Date').fill(today);
      await form.getByLabel('Ghadi').selectOption({ label: closed.NameEn });
      await form.getByRole('button', { name: 'Add Holiday' }).click();
      await expect(form.getByRole('alert')).toHaveText(`${today} is already a holiday of ${closed.NameEn}`);
      await expect(
        page
          .getByRole('table', { name: 'Upcoming holidays' })
          .locator('tbody tr')
          .filter({ hasText: closed.NameEn }),
      ).toHaveCount(2);
      await shot(page, `holidays-${viewport.label}`);
      expect(await axeProblems(page)).toEqual([]);

      await page.goto('/admin/dashboard');
      const board = page.getByRole('table', { name: /Today's ghadis/ });
      const closedRow = board.locator('tbody > tr').filter({ hasText: closed.NameEn });
      const marketRow = board.locator('tbody > tr').filter({ hasText: market.NameEn });
      await expect(closedRow).toHaveAttribute('data-state', 'closed');
      await expect(closedRow).toContainText('Holiday: Repairs');
      await expect(marketRow).toContainText('Close due 11:00 AM');
      await expect(marketRow).toContainText('123-6');
      await marketRow.scrollIntoViewIfNeeded();
      if (process.env.SCREENSHOTS) {
        for (const [row, what] of [
          [closedRow, 'closed'],
          [marketRow, 'market'],
        ] as const) {
          await row.screenshot({
            path: path.join(SCREENSHOT_DIR, `board-${what}-row-${viewport.width}.png`),
          });
        }
      }
    }

    // Deleting asks first, then the later holiday is gone.
    await page.goto('/admin/holidays');
    const later = addDays(today, 40);
    await page.getByRole('button', { name: `Delete holiday ${later} ${closed.NameEn}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Delete this holiday?');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Holiday deleted.' })).toBeVisible();
    await expect(page.getByRole('button', { name: `Delete holiday ${later} ${closed.NameEn}` })).toHaveCount(
      0,
    );
  });
});
