import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Frame, type Page } from '@playwright/test';
import { EMBED_BOARD_PATH, ghadiEmbedPath } from '../../src/shared/embed-pages.js';
import { ghadiPagePath } from '../../src/shared/ghadi-page-month.js';
import { AdminApi, uniqueName } from './support/api.js';
import { captureScreens } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { test } from './support/test.js';

/** The other site's page: the frames its owner pasted, and a results page it tries to frame too. */
function hostPage(site: string, nameEn: string): string {
  const frame = (path: string, title: string, height: number) =>
    `<iframe src="${site}${path}" title="${title}" width="360" height="${height}" style="border:0;max-width:100%"></iframe>`;
  return (
    '<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<title>Another site</title></head><body style="margin:0;font-family:sans-serif">' +
    '<h1 style="font-size:18px;margin:8px">Another site’s page</h1>' +
    frame(ghadiEmbedPath(nameEn), 'ghadi', 220) +
    frame(`/hi${ghadiEmbedPath(nameEn)}`, 'ghadi-hi', 220) +
    frame(EMBED_BOARD_PATH, 'board', 480) +
    frame(ghadiPagePath(nameEn), 'not-embeddable', 120) +
    '</body></html>'
  );
}

/** Another site: a server of its own on another port, so the frames it holds are of another origin. */
async function otherSite(body: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A frame of the host page by its title, once its document is ours. */
async function frameTitled(page: Page, title: string, site: string): Promise<Frame> {
  const handle = await page.locator(`iframe[title="${title}"]`).elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error(`No frame titled ${title}`);
  await expect.poll(() => frame.url().startsWith(site)).toBe(true);
  return frame;
}

test.describe('embeds on another site', () => {
  test('a ghadi’s embed and the board, framed by another origin, show a new result live; other pages refuse the frame', async ({
    page,
    request,
    baseURL,
  }) => {
    const site = baseURL ?? '';
    const admin = await AdminApi.connect(request);
    const day = await siteDay(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Framed '), RTime: '11:55 PM' });
    const other = await otherSite(hostPage(site, ghadi.NameEn));
    try {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto(other.origin);
      expect(other.origin).not.toBe(new URL(site).origin);

      const embed = await frameTitled(page, 'ghadi', site);
      const hindi = await frameTitled(page, 'ghadi-hi', site);
      const board = await frameTitled(page, 'board', site);
      // Each frame's stream is open before the result is declared: it must arrive without a reload.
      for (const frame of [embed, hindi, board])
        await expect(frame.locator('html[data-live="open"]')).toHaveCount(1);
      await expect(embed.locator('[data-today]')).toHaveText('Waiting');
      await expect(hindi.locator('[data-today]')).toHaveText('इंतज़ार में');
      const row = board.locator(`tr[data-gid="${ghadi.GID}"]`);
      await expect(row.locator('[data-today]')).toHaveText('Waiting');
      for (const frame of [embed, hindi, board])
        await frame.evaluate(() => {
          (window as unknown as { notReloaded: boolean }).notReloaded = true;
        });

      // A results page is not an embed: the browser refuses to show it in another site's frame, and
      // shows its error page there instead (Chromium's address for it).
      const refused = page.locator('iframe[title="not-embeddable"]');
      await expect
        .poll(async () => (await (await refused.elementHandle())?.contentFrame())?.url())
        .toBe('chrome-error://chromewebdata/');

      await admin.submitResult(ghadi.GID, '57', day.today);
      await expect(embed.locator('[data-today]')).toHaveText('57');
      await expect(hindi.locator('[data-today]')).toHaveText('57');
      await expect(row.locator('[data-today]')).toHaveText('57');
      for (const frame of [embed, hindi, board])
        expect(await frame.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
          true,
        );

      await captureScreens(page, 'embed-host');

      // The link back opens the site in the whole window, not inside the frame.
      await embed.getByRole('link', { name: /More on/ }).click();
      await expect(page).toHaveURL(`${site}${ghadiPagePath(ghadi.NameEn)}`);
      // There the snippet to copy names this ghadi's embed.
      const snippet = page.getByRole('textbox', { name: 'Show this result on your site' });
      await expect(snippet).toHaveValue(new RegExp(`<iframe src="${site}${ghadiEmbedPath(ghadi.NameEn)}"`));
      await snippet.scrollIntoViewIfNeeded();
      await captureScreens(page, 'embed-snippet');
    } finally {
      await other.close();
    }
  });
});
