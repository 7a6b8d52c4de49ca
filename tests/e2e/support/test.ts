import { test as base } from '@playwright/test';
import { AdminApi, takeGhadisOfTheTest } from './api.js';
import { exclusively } from './exclusive.js';

/** Held while ghadis are deleted, and by a test that compares ghadi counts over time. */
export const GHADI_COUNT_LOCK = 'ghadi-count';

/**
 * Playwright's test, with one automatic step after each test: the ghadis it made through the API
 * are deleted, so that the site's pages stay the same size however many tests (and repeats) ran.
 */
export const test = base.extend<{ removeGhadisOfTheTest: undefined }>({
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
