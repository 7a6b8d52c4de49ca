import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import sharp from 'sharp';
import type { MediaRecord } from '../../src/shared/schemas/media.js';
import { AdminApi, signInAsAdmin } from './support/api.js';
import { exclusively } from './support/exclusive.js';
import { captureScreens } from './support/screens.js';
import { test } from './support/test.js';

/** A small photo-like PNG: two colour bands, wide enough for the library to make a phone copy. */
async function photoFile(file: string): Promise<void> {
  const band = await sharp({ create: { width: 800, height: 240, channels: 3, background: '#f59e0b' } })
    .png()
    .toBuffer();
  await sharp({ create: { width: 800, height: 480, channels: 3, background: '#1e3a8a' } })
    .composite([{ input: band, top: 0, left: 0 }])
    .png()
    .toFile(file);
}

function form(page: Page) {
  return page.getByRole('form', { name: /Content Block/ });
}

const editor = (page: Page) => form(page).getByRole('textbox', { name: 'Content' });
const preview = (page: Page) => page.getByRole('region', { name: 'Preview (as on the site)' });

test.describe('admin content editor and media library', () => {
  test('uploads an image, writes a block with it, previews, saves and shows it on the site', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    const photo = test.info().outputPath('festival.png');
    const notAnImage = test.info().outputPath('notes.png');
    await photoFile(photo);
    fs.writeFileSync(notAnImage, 'these are notes, not a picture');

    await signInAsAdmin(page, request);
    await page.goto('/admin/media');
    await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
    const uploaded = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/media') &&
        response.request().method() === 'POST' &&
        response.status() === 201,
    );
    await page.getByLabel('Images to upload').setInputFiles([photo, notAnImage]);
    const record = ((await (await uploaded).json()) as { data: MediaRecord }).data;
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await expect(uploads.getByRole('listitem').filter({ hasText: 'festival.png' })).toContainText('Uploaded');
    await expect(uploads.getByRole('listitem').filter({ hasText: 'notes.png' })).toContainText('Failed');
    await expect(page.getByRole('alert').filter({ hasText: 'notes.png:' })).toBeVisible();
    const card = page
      .getByRole('list', { name: 'Images' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: `Delete image ${record._id}` }) });
    await expect(card).toContainText('800×480');
    await expect(card).toContainText('Not used by any block');
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await captureScreens(page, 'admin-media');

    await exclusively('home-banner', async () => {
      await admin.removeContentBlock('home-banner');
      await page.goto('/admin/content-blocks');
      await page.getByRole('button', { name: 'Close sidebar' }).click();
      await page.getByRole('button', { name: 'Create home-banner' }).click();
      await expect(editor(page)).toBeFocused();

      await page.keyboard.type('Festival timings');
      await page.getByRole('button', { name: 'Heading 2' }).click();
      await expect(page.getByRole('button', { name: 'Heading 2' })).toHaveAttribute('aria-pressed', 'true');
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Markets open ');
      await page.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type('late');
      await expect(page.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true');
      await page.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type(' tonight. ');
      await expect(editor(page).locator('h2')).toHaveText('Festival timings');
      await expect(editor(page).locator('p strong')).toHaveText('late');

      await page.getByRole('button', { name: 'Image from the library' }).click();
      const picker = page.getByRole('dialog', { name: 'Insert an image' });
      await picker.getByRole('button', { name: `Image ${record._id}, 800×480` }).click();
      await picker.getByLabel('Description (alt text)').fill('Festival lights');
      await captureScreens(page, 'admin-media-picker');
      await picker.getByRole('button', { name: 'Insert image' }).click();
      await expect(picker).toBeHidden();
      await expect(editor(page).getByRole('img', { name: 'Festival lights' })).toHaveAttribute(
        'srcset',
        /\.webp \d+w/,
      );

      // The preview is the server's own sanitizing, drawn as the home page draws blocks.
      await expect(preview(page).getByRole('heading', { name: 'Festival timings' })).toBeVisible();
      await expect(preview(page).locator('strong')).toHaveText('late');
      await expect(preview(page).getByRole('img', { name: 'Festival lights' })).toHaveAttribute(
        'srcset',
        /\.webp \d+w/,
      );
      await captureScreens(page, 'admin-content-editor');

      await form(page).getByRole('button', { name: 'HTML source' }).click();
      const source = form(page).getByRole('textbox', { name: 'Content' });
      await expect(source).toHaveValue(
        /<h2>Festival timings<\/h2><p>Markets open <strong>late<\/strong> tonight\. <img /,
      );
      await source.press('Control+End');
      await source.pressSequentially('<script>alert("x")</script>');
      const removal = page.getByText('Will be removed when saved:').locator('..');
      await expect(removal).toContainText('<script>');
      await expect(preview(page)).not.toContainText('alert');
      await captureScreens(page, 'admin-content-editor-source');

      await form(page).getByRole('button', { name: 'Add Content Block' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Content added successfully.' })).toBeVisible();

      await page.goto('/');
      const banner = page.getByRole('region', { name: 'Announcement' });
      await expect(banner.getByRole('heading', { name: 'Festival timings' })).toBeVisible();
      await expect(banner.locator('strong')).toHaveText('late');
      const image = banner.getByRole('img', { name: 'Festival lights' });
      await expect(image).toHaveAttribute('srcset', new RegExp(`/media/${record._id}/\\d+\\.webp \\d+w`));
      await expect(image).toHaveAttribute('width', '800');
      await expect
        .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
        .toBeGreaterThan(0);
      expect(await banner.locator('script').count()).toBe(0);

      // In use, the image cannot be deleted: the server names the block.
      await page.goto('/admin/media');
      await expect(card).toContainText('Used by: Home banner');
      await card.getByRole('button', { name: `Delete image ${record._id}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Delete failed.' })).toContainText(
        'Home banner',
      );

      await admin.removeContentBlock('home-banner');
    });
    await admin.call('DELETE', `/api/media/${record._id}`);
  });
});
