import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults, Result, RunOptions } from 'axe-core';

/** WCAG 2.2 AA (2.0, 2.1 and 2.2 rules) and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeWindow = { axe?: { run(context: unknown, options: RunOptions): Promise<AxeResults> } };

/**
 * What axe-core finds wrong with the page as it is now (within `include`, a selector, if given).
 * axe is put into each document once and run there: @axe-core/playwright's AxeBuilder put its source
 * in again at every run and finished each run in a new page, three to four times as long (its
 * `options()` also dropped the tags `withTags()` had set). The pages have no frames to reach into.
 */
export async function axeViolations(page: Page, include?: string): Promise<Result[]> {
  // A colour read halfway through a transition (a button fading to its disabled look, or back) is
  // neither state's: the transitions under way end first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const { violations } = await page.evaluate(
    ({ include, tags }) => {
      const { axe } = window as unknown as AxeWindow;
      if (!axe) throw new Error('axe-core is not on the page');
      return axe.run(include ?? document, {
        runOnly: { type: 'tag', values: tags },
        // Only the violations' details: collecting every passing node's too took a fifth of the time.
        resultTypes: ['violations'],
      });
    },
    { include, tags: AXE_TAGS },
  );
  return violations;
}
