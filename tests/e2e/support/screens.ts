import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** Where screenshots go for a person to look at: outside the repository, never committed. */
export const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? path.join(os.tmpdir(), 'ghadi-screens');

/**
 * Screenshots at phone (360 px) and desktop width when SCREENSHOTS=1; a no-op otherwise. Each width
 * is also checked as it is shot: the page does not scroll sideways, and the picture was written.
 */
export async function captureScreens(page: Page, name: string): Promise<void> {
  if (!process.env.SCREENSHOTS) return;
  const original = page.viewportSize();
  for (const [label, width] of [
    ['phone', 360],
    ['desktop', 1280],
  ] as const) {
    await page.setViewportSize({ width, height: label === 'phone' ? 740 : 800 });
    // Transitions jump to their end: a shot taken as the width changes caught the admin page's
    // padding halfway, the page drawn wider than the screen.
    const file = path.join(SCREENSHOT_DIR, `${name}-${label}.png`);
    fs.rmSync(file, { force: true });
    await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
    expect(fs.statSync(file).size, `${name} at ${width} px`).toBeGreaterThan(0);
    expect(await hasHorizontalPageScroll(page), `${name} scrolls sideways at ${width} px`).toBe(false);
  }
  if (original) await page.setViewportSize(original);
}

/** True when the page scrolls sideways (what a 360 px phone must never do). */
export function hasHorizontalPageScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}
