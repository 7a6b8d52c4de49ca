import { test as base } from '@playwright/test';
import { AdminApi, takeGhadisOfTheTest } from './api.js';
import { exclusively } from './exclusive.js';

/** Held while ghadis are deleted, and by a test that compares ghadi counts over time. */
export const GHADI_COUNT_LOCK = 'ghadi-count';

/**
 * Holds every CSS animation at its first frame, through a constructed style sheet (no element is
 * added, so the markup hydrates and is checked as served). The public pages' keyword ticker scrolls
 * forever: drawn by headless Chromium's software renderer, one open page kept 0.8 of a core busy
 * (8.3 CPU seconds in 10 s, against 0.3 held), taking it from the server and the other worker's
 * browser. Held, the ticker is laid out as a visitor first sees it.
 */
function holdAnimations() {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('*, ::before, ::after { animation-play-state: paused !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/**
 * Playwright's test, with its pages' animations held (above), and one automatic step after each
 * test: the ghadis it made through the API are deleted, so that the site's pages stay the same size
 * however many tests (and repeats) ran.
 */
export const test = base.extend<{ removeGhadisOfTheTest: undefined }>({
  context: async ({ context }, use) => {
    await context.addInitScript(holdAnimations);
    await use(context);
  },
  removeGhadisOfTheTest: [
    async ({ request }, use) => {
      takeGhadisOfTheTest();
      await use(undefined);
      const gids = takeGhadisOfTheTest();
      if (gids.length === 0) return;
      const admin = await AdminApi.connect(request);
      await exclusively(GHADI_COUNT_LOCK, () => admin.removeGhadis(gids));
    },
    { auto: true },
  ],
});
