import fs from 'node:fs';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { ALL_DAYS, weekdayOf } from '../../src/shared/matka.js';
import type { GhadiInput, GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { AdminApi, uniqueName } from './support/api.js';
import { axeViolations } from './support/axe.js';
import { exclusively } from './support/exclusive.js';
import { hasHorizontalPageScroll } from './support/screens.js';
import { type SiteDay, siteDay } from './support/site-day.js';
import { GHADI_COUNT_LOCK, test } from './support/test.js';

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
/** Hydration waits for a worker and the bundle: on a loaded two-core machine it took over 7 s. */
const HYDRATED = { timeout: 20_000 };
/** Where the screenshots go when SHOTS_DIR is set: for a person to look at, never committed. */
const SHOTS_DIR = process.env.SHOTS_DIR;

/**
 * Ghadis of other kinds than jodi, made through the admin API (AdminApi.createGhadi knows only a
 * jodi ghadi's fields), and removed with their holidays after the test.
 */
class Markets {
  private readonly gids: number[] = [];
  private readonly holidays: string[] = [];
  constructor(
    private readonly admin: AdminApi,
    readonly site: SiteDay,
  ) {}

  static async connect(request: APIRequestContext) {
    return new Markets(await AdminApi.connect(request), await siteDay(request));
  }

  async create(fields: Partial<GhadiInput> & { NameEn: string }): Promise<GhadiRecord> {
    const { data } = await this.admin.call<{ data: GhadiRecord }>('POST', '/api/ghadis', {
      NameHn: `घड़ी ${fields.NameEn}`,
      RTime: '6:00 PM',
      OrderId: 0,
      ...fields,
    });
    this.gids.push(data.GID);
    return data;
  }

  market(name: string) {
    return this.create({
      NameEn: uniqueName(name),
      Kind: 'open-close',
      OpenTime: '3:45 PM',
      RTime: '5:45 PM',
    });
  }

  declare(ghadi: GhadiRecord, value: string) {
    return this.admin.submitResult(ghadi.GID, value, this.site.today);
  }

  async holiday(ghadi: GhadiRecord) {
    const { data } = await this.admin.call<{ data: { _id: string } }>('POST', '/api/holidays', {
      Date: this.site.today,
      GID: ghadi.GID,
    });
    this.holidays.push(data._id);
  }

  async remove() {
    for (const id of this.holidays) await this.admin.call('DELETE', `/api/holidays/${id}`);
    await exclusively(GHADI_COUNT_LOCK, () => this.admin.removeGhadis(this.gids));
  }
}

function card(page: Page, name: string) {
  return page
    .getByTestId('ghadi-chart')
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** The cards whose content is wider than the card (a value that does not fit), by their names. */
function overflowingCards(page: Page, gids: number[]): Promise<string[]> {
  return page.evaluate((gids) => {
    const overflowing: string[] = [];
    for (const gid of gids) {
      const item = document.querySelector<HTMLElement>(`[data-testid="ghadi-chart"] li[data-gid="${gid}"]`);
      if (!item) continue;
      const box = item.getBoundingClientRect();
      const outside = [...item.querySelectorAll('span, dd, p')].some((element) => {
        const rect = element.getBoundingClientRect();
        return rect.width > 0 && (rect.left < box.left - 0.5 || rect.right > box.right + 0.5);
      });
      if (outside || item.scrollWidth > item.clientWidth + 1)
        overflowing.push(item.textContent ?? String(gid));
    }
    return overflowing;
  }, gids);
}

async function shoot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.locator('#chart').screenshot({ path: `${SHOTS_DIR}/${name}.png`, animations: 'disabled' });
}

test.describe('open/close markets and starline draws on the home board', () => {
  test('every state fits a card at 360 and 1280 px, in English and Hindi', async ({ page, request }) => {
    const markets = await Markets.connect(request);
    try {
      const waiting = await markets.market('Kalyan Wait ');
      const opened = await markets.market('Kalyan Open ');
      await markets.declare(opened, '123');
      const whole = await markets.market('Kalyan Whole ');
      await markets.declare(whole, '123');
      await markets.declare(whole, '459');
      const holiday = await markets.market('Kalyan Holiday ');
      await markets.holiday(holiday);
      const star = await markets.create({ NameEn: uniqueName('Starline '), Kind: 'panna', RTime: '1:00 PM' });
      await markets.declare(star, '128');
      const off = await markets.create({
        NameEn: uniqueName('Weekday '),
        Days: ALL_DAYS.filter((day) => day !== weekdayOf(markets.site.today)),
      });
      const gids = [waiting, opened, whole, holiday, star, off].map((ghadi) => ghadi.GID);

      for (const language of ['en', 'hi'] as const) {
        await page.setViewportSize(DESKTOP);
        await page.goto(language === 'en' ? '/' : '/hi');
        await expect(page.locator('html[data-hydrated="true"]')).toBeAttached(HYDRATED);
        const name = (ghadi: GhadiRecord) => (language === 'en' ? ghadi.NameEn : ghadi.NameHn);
        const words =
          language === 'en'
            ? {
                wait: /Waiting due 3:45 PM$/,
                close: 'Close 5:45 PM',
                holiday: 'Holiday',
                off: 'Closed today',
              }
            : { wait: /इंतज़ार में समय 3:45 PM$/, close: 'क्लोज़ 5:45 PM', holiday: 'छुट्टी', off: 'आज बंद' };

        await expect(card(page, name(waiting)).getByTestId('state')).toHaveText(words.wait);
        await expect(card(page, name(waiting)).getByTestId('times')).toContainText(words.close);
        await expect(card(page, name(opened)).getByTestId('today')).toHaveText(`123-6${words.close}`);
        await expect(card(page, name(whole)).getByTestId('today')).toHaveText('123-68-459');
        await expect(card(page, name(holiday)).getByTestId('state')).toHaveText(words.holiday);
        await expect(card(page, name(star)).getByTestId('today')).toHaveText('128-1');
        await expect(card(page, name(off)).getByTestId('state')).toHaveText(words.off);

        for (const [label, size] of [
          ['360', PHONE],
          ['1280', DESKTOP],
        ] as const) {
          await page.setViewportSize(size);
          expect(await hasHorizontalPageScroll(page), `${language} at ${label} px`).toBe(false);
          expect(await overflowingCards(page, gids), `${language} at ${label} px`).toEqual([]);
          // The new words and marks meet WCAG 2.2 AA as the rest of the board does (contrast, names).
          const violations = await axeViolations(page, '#chart');
          expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
          await shoot(page, `board-${language}-${label}`);
        }
      }
    } finally {
      await markets.remove();
    }
  });

  test('an open page shows a market’s open half, then its whole day, as they are declared', async ({
    page,
    request,
  }) => {
    const markets = await Markets.connect(request);
    try {
      const market = await markets.market('Kalyan Live ');
      await page.setViewportSize(PHONE);
      await page.goto('/');
      await expect(page.locator('html[data-live="open"]')).toBeAttached(HYDRATED);
      const shown = card(page, market.NameEn);
      await expect(shown.getByTestId('waiting')).toBeVisible();

      await markets.declare(market, '123');
      await expect(shown.getByTestId('today')).toHaveText('123-6Close 5:45 PM');
      await expect(shown.getByTestId('state')).toHaveText(/Open declared at \d\d:\d\d$/);
      expect(await overflowingCards(page, [market.GID])).toEqual([]);

      await markets.declare(market, '459');
      await expect(shown.getByTestId('today')).toHaveText('123-68-459');
      await expect(shown.getByTestId('close-due')).toHaveCount(0);
      await expect(shown.getByTestId('state')).toHaveText(/^Declared at \d\d:\d\d$/);
      expect(await overflowingCards(page, [market.GID])).toEqual([]);
      expect(await hasHorizontalPageScroll(page)).toBe(false);

      // The record chart follows: the jodi in the grid, the whole result to hover, hear and tap.
      if (markets.site.recordMonth === markets.site.today.slice(0, 7)) {
        const column = (await page.locator('#record thead th').allTextContents()).indexOf(market.NameEn);
        const cell = page.locator('#record tbody tr[aria-current="date"] td').nth(column - 1);
        await expect(cell).toHaveAttribute('title', '123-68-459');
        await expect(cell).toHaveText('68');
        await expect(cell).toHaveAttribute('aria-label', '123-68-459');
        await cell.scrollIntoViewIfNeeded();
        await cell.click();
        await expect(page.getByTestId('tapped-cell')).toHaveText(/123-68-459$/);
        if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/record-tap-360.png` });
      }
    } finally {
      await markets.remove();
    }
  });

  test('a market’s results page and year chart read well on a phone, in English and Hindi', async ({
    page,
    request,
  }) => {
    const markets = await Markets.connect(request);
    try {
      const market = await markets.market('Kalyan Month ');
      await markets.declare(market, '123');
      const name = encodeURIComponent(market.NameEn.toLowerCase());
      for (const prefix of ['', '/hi'] as const) {
        await page.setViewportSize(PHONE);
        await page.goto(`${prefix}/satta-results/${name}`);
        await expect(page.locator('html[data-hydrated="true"]')).toBeAttached(HYDRATED);
        const todayRow = page.locator('tbody tr[aria-current="date"]');
        await expect(todayRow.locator('td').first()).toHaveText('123-6');
        await expect(
          page.getByText(prefix ? 'ओपन 3:45 PM · क्लोज़ 5:45 PM' : 'Open 3:45 PM · Close 5:45 PM'),
        ).toBeVisible();
        expect(await hasHorizontalPageScroll(page)).toBe(false);
        await todayRow.scrollIntoViewIfNeeded();
        if (SHOTS_DIR)
          await page.screenshot({ path: `${SHOTS_DIR}/results-${prefix ? 'hi' : 'en'}-360.png` });

        await page.goto(`${prefix}/satta-results/${name}/${markets.site.today.slice(0, 4)}`);
        await expect(page.locator('html[data-hydrated="true"]')).toBeAttached(HYDRATED);
        const cell = page.locator('td[aria-current="date"]');
        await expect(cell).toHaveText('6-');
        await expect(cell).toHaveAttribute('aria-label', '123-6');
        await cell.click();
        await expect(page.getByTestId('tapped-cell')).toBeInViewport();
        // Scrolled back up, the chart's foot below the screen: the note stays at the foot of the screen.
        await page.evaluate(() => window.scrollBy(0, -400));
        const note = await page.getByTestId('tapped-cell').boundingBox();
        expect(note && note.y + note.height).toBeGreaterThan(PHONE.height - 40);
        expect(note && note.y + note.height).toBeLessThanOrEqual(PHONE.height);
        expect(await hasHorizontalPageScroll(page)).toBe(false);
        if (SHOTS_DIR)
          await page.screenshot({ path: `${SHOTS_DIR}/year-chart-${prefix ? 'hi' : 'en'}-360.png` });
      }
    } finally {
      await markets.remove();
    }
  });
});
