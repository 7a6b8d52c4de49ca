import { expect, type Page } from '@playwright/test';
import { timeInZone } from '../../src/shared/dates.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { AdminApi, uniqueName } from './support/api.js';
import { exclusively } from './support/exclusive.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { type SiteDay, siteDay, siteTime } from './support/site-day.js';
import { test } from './support/test.js';

/** A card of the home board, found by the name its link shows. */
function card(page: Page, name: string) {
  return page
    .getByTestId('ghadi-chart')
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/**
 * Whether the tally says what the cards show: other tests declare results on this board meanwhile,
 * so the two are read in one pass of the page's script.
 */
function countsMatchCards(page: Page, language: 'en' | 'hi') {
  return page.evaluate((language) => {
    const states = [...document.querySelectorAll('[data-testid="ghadi-chart"] [data-testid="state"]')];
    const declared = states.filter((state) =>
      state.textContent?.startsWith(language === 'en' ? 'Declared' : 'घोषित'),
    ).length;
    // Ghadis closed today (another test's holiday or off-day) are counted apart, when there are some.
    const closedWords = language === 'en' ? ['Holiday', 'Closed today'] : ['छुट्टी', 'आज बंद'];
    const closed = states.filter((state) => closedWords.includes(state.textContent ?? '')).length;
    const waiting = states.length - declared - closed;
    const tally =
      language === 'en'
        ? closed > 0
          ? `${declared} declared · ${waiting} waiting · ${closed} closed today`
          : `${declared} declared · ${waiting} waiting today`
        : `आज ${declared} घोषित · ${waiting} इंतज़ार में${closed > 0 ? ` · ${closed} बंद` : ''}`;
    return document.querySelector('[data-testid="board-counts"]')?.textContent === tally;
  }, language);
}

async function declaredAtOf(admin: AdminApi, site: SiteDay, gid: number): Promise<string> {
  const { data } = await admin.call<{ data: GhadiRecord[] }>('GET', '/api/ghadis');
  return timeInZone(data.find((row) => row.GID === gid)?.DeclaredAt ?? '', site.timeZone);
}

test.describe('the home board at a glance', () => {
  test('the next ghadi due is marked Next; declaring it moves Next on, and the tally and Last updated follow live', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const site = await siteDay(request);
    // "Next" is one ghadi of the whole board: no other test's ghadis may be due in the same minutes.
    await exclusively('board-next', async () => {
      // The browser's clock says 00:05 in the site's zone: the starter ghadis are due later in the day.
      const fiveAfterMidnight = siteTime(site, '00:05');
      await page.clock.setFixedTime(fiveAfterMidnight);
      const passed = await admin.createGhadi({
        NameEn: uniqueName('Board Passed '),
        RTime: '12:03 AM',
        OrderId: 0,
      });
      const first = await admin.createGhadi({
        NameEn: uniqueName('Board First '),
        RTime: '12:06 AM',
        OrderId: 1,
      });
      const second = await admin.createGhadi({
        NameEn: uniqueName('Board Second '),
        RTime: '12:07 AM',
        OrderId: 0,
      });

      await page.goto('/');
      await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
      await expect(page.locator('html[data-live="open"]')).toBeAttached();

      // The soonest still to come is next, whatever the chart's order; one already past due is not.
      await expect(card(page, first.NameEn).getByTestId('next')).toHaveText('Next');
      await expect(card(page, first.NameEn).getByTestId('state')).toHaveText('Next Waiting due 12:06 AM');
      await expect(page.getByTestId('ghadi-chart').getByTestId('next')).toHaveCount(1);
      await expect(card(page, passed.NameEn).getByTestId('state')).toHaveText('Waiting due 12:03 AM');
      await expect(card(page, second.NameEn).getByTestId('state')).toHaveText('Waiting due 12:07 AM');
      await expect(card(page, first.NameEn)).toHaveClass(/border-indigo-600/);
      await expect(card(page, second.NameEn)).not.toHaveClass(/border-indigo-600/);
      await expect.poll(() => countsMatchCards(page, 'en')).toBe(true);
      await page.setViewportSize({ width: 360, height: 740 });
      expect(await hasHorizontalPageScroll(page)).toBe(false);
      await captureScreens(page, 'board-next');
      await page.setViewportSize({ width: 1280, height: 800 });

      // Declared a little later by the page's clock: Last updated moves to when the page applied it.
      const later = new Date(fiveAfterMidnight.getTime() + 40_000);
      await page.clock.setFixedTime(later);
      await admin.submitResult(first.GID, '64', site.today);
      await expect(card(page, first.NameEn).getByTestId('today')).toHaveText('64');
      await expect(card(page, first.NameEn).getByTestId('state')).toHaveText(
        `Declared at ${await declaredAtOf(admin, site, first.GID)}`,
      );
      await expect(card(page, first.NameEn).getByTestId('next')).toHaveCount(0);
      await expect(card(page, second.NameEn).getByTestId('next')).toHaveText('Next');
      await expect(card(page, second.NameEn)).toHaveClass(/border-indigo-600/);
      await expect(page.getByTestId('ghadi-chart').getByTestId('next')).toHaveCount(1);
      const updated = page.getByTestId('last-updated').locator('time');
      await expect(updated).toHaveAttribute('datetime', later.toISOString());
      await expect(updated).toHaveText('00:05');
      await expect.poll(() => countsMatchCards(page, 'en')).toBe(true);

      // The same board in Hindi.
      await page.getByTestId('language-switch').click();
      await expect(page).toHaveURL(/\/hi$/);
      await expect(page.locator('html[data-live="open"]')).toBeAttached();
      await expect(card(page, second.NameHn).getByTestId('next')).toHaveText('अगला');
      await expect(card(page, second.NameHn).getByTestId('state')).toHaveText('अगला इंतज़ार में समय 12:07 AM');
      await expect(card(page, first.NameHn).getByTestId('state')).toHaveText(
        `घोषित ${await declaredAtOf(admin, site, first.GID)} बजे`,
      );
      await expect.poll(() => countsMatchCards(page, 'hi')).toBe(true);

      // Once ours are all declared or past due, none of them is next.
      await admin.submitResult(second.GID, '65', site.today);
      await expect(card(page, second.NameHn).getByTestId('state')).toHaveText(/^घोषित \d\d:\d\d बजे$/);
      await expect(card(page, second.NameHn).getByTestId('next')).toHaveCount(0);
      await expect(card(page, passed.NameHn).getByTestId('next')).toHaveCount(0);
      await expect(card(page, passed.NameHn).getByTestId('state')).toHaveText('इंतज़ार में समय 12:03 AM');
      await expect.poll(() => countsMatchCards(page, 'hi')).toBe(true);
    });
  });
});
