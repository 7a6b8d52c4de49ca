import { expect, type Page } from '@playwright/test';
import { AdminApi, signInAsAdmin, uniqueName } from './support/api.js';
import { exclusively } from './support/exclusive.js';
import { exhaustRetries, failRequests } from './support/failing-route.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { test } from './support/test.js';

function form(page: Page) {
  return page.getByRole('form', { name: /Content Block/ });
}

function blockRow(page: Page, slug: string) {
  return page
    .getByRole('table', { name: 'Content blocks' })
    .locator('tbody > tr')
    .filter({ has: page.getByRole('cell', { name: slug, exact: true }) });
}

/** Shows the Content's HTML source (the view chosen stays chosen for the next block). */
async function htmlSource(page: Page) {
  const toggle = form(page).getByRole('button', { name: 'HTML source' });
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
}

async function addBlock(page: Page, title: string, slug: string, content: string) {
  await form(page).getByLabel('Title').fill(title);
  await form(page).getByLabel('Slug').fill(slug);
  await htmlSource(page);
  await form(page).getByLabel('Content').fill(content);
  await form(page).getByRole('button', { name: 'Add Content Block' }).click();
}

test.describe('admin content blocks', () => {
  test('validates, adds, edits and deletes after confirming', async ({ page, request }) => {
    await signInAsAdmin(page, request);
    await page.goto('/admin/content-blocks');
    await form(page).getByRole('button', { name: 'Add Content Block' }).click();
    await expect(form(page).getByText('This field is required')).toHaveCount(3);
    await expect(form(page).getByLabel('Active (shown on the site)')).toBeChecked();

    const slug = uniqueName('about-').toLowerCase();
    await addBlock(page, 'About us', slug, '<p>We publish <strong>results</strong>.</p>');
    await expect(page.getByRole('status').filter({ hasText: 'Content added successfully.' })).toBeVisible();
    await expect(blockRow(page, slug)).toContainText('About us');
    await expect(blockRow(page, slug)).toContainText('Active');
    await expect(form(page).getByLabel('Title')).toHaveValue('');
    const published = await request.get(`/api/contentblocks/slug/${slug}`);
    expect(((await published.json()) as { data: { Content: string } }).data.Content).toContain(
      '<strong>results</strong>',
    );

    await blockRow(page, slug).getByRole('button', { name: /^Edit/ }).click();
    await expect(page.getByRole('heading', { name: 'Edit Content Block: About us' })).toBeVisible();
    await htmlSource(page);
    await expect(form(page).getByLabel('Content')).toHaveValue('<p>We publish <strong>results</strong>.</p>');
    await form(page).getByLabel('Title').fill('About the site');
    await form(page).getByLabel('Active (shown on the site)').uncheck();
    await form(page).getByRole('button', { name: 'Update Content Block' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Content updated successfully.' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Add Content Block' })).toBeVisible();
    await expect(blockRow(page, slug)).toContainText('About the site');
    await expect(blockRow(page, slug)).toContainText('Inactive');
    expect((await request.get(`/api/contentblocks/slug/${slug}`)).status()).toBe(404);

    await blockRow(page, slug)
      .getByRole('button', { name: /^Delete/ })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Delete this content block?');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Deleted successfully.' })).toBeVisible();
    await expect(blockRow(page, slug)).toHaveCount(0);
  });

  test('a duplicate slug shows the server message', async ({ page, request }) => {
    await signInAsAdmin(page, request);
    await page.goto('/admin/content-blocks');
    const slug = uniqueName('dup-').toLowerCase();
    await addBlock(page, 'First', slug, '<p>One</p>');
    await expect(blockRow(page, slug)).toHaveCount(1);
    await addBlock(page, 'Second', slug, '<p>Two</p>');
    await expect(page.getByRole('alert')).toContainText('Slug already exists');

    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await captureScreens(page, 'admin-content-blocks');
    await page.setViewportSize({ width: 360, height: 740 });
    // Polled: right after a viewport change (and the screenshots) layout may still be settling.
    await expect.poll(() => hasHorizontalPageScroll(page)).toBe(false);
  });

  test('names the blocks the site shows, and creates a missing one from its slug', async ({
    page,
    request,
  }) => {
    const admin = await AdminApi.connect(request);
    // The site has one banner: this test owns it while it runs, and starts without it.
    await exclusively('home-banner', async () => {
      await admin.removeContentBlock('home-banner');
      await signInAsAdmin(page, request);
      await page.goto('/admin/content-blocks');
      const siteBlocks = page.locator('section', {
        has: page.getByRole('heading', { name: 'Blocks the site shows' }),
      });
      const item = (slug: string) => siteBlocks.getByRole('listitem').filter({ hasText: slug });
      await expect(siteBlocks.getByRole('listitem')).toHaveCount(2);
      await expect(item('blog-section')).toContainText('Blog section');
      await expect(item('blog-section')).toContainText('Section not found.');
      await expect(item('home-banner')).toContainText('Home banner');
      await expect(item('home-banner')).toContainText('Missing');
      await page.getByRole('button', { name: 'Close sidebar' }).click();
      await captureScreens(page, 'admin-content-blocks-site-blocks');

      await item('home-banner').getByRole('button', { name: 'Create home-banner' }).click();
      await expect(form(page).getByLabel('Slug')).toHaveValue('home-banner');
      await expect(form(page).getByLabel('Title')).toHaveValue('Home banner');
      // The visual editor, once its code has loaded: what is typed there is the text itself.
      await expect(form(page).getByRole('textbox', { name: 'Content' })).toBeFocused();
      const offer = uniqueName('Phone offer ');
      await page.keyboard.type(offer);
      await form(page).getByRole('button', { name: 'Add Content Block' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Content added successfully.' })).toBeVisible();
      await expect(item('home-banner')).toContainText('On the site');
      await expect(item('home-banner').getByRole('button')).toHaveCount(0);
      await page.goto('/');
      await expect(page.getByRole('region', { name: 'Announcement' })).toContainText(offer);
      await admin.removeContentBlock('home-banner');
    });
  });

  test('load and delete failures use the catalogue texts', async ({ page, request }) => {
    await page.clock.install();
    await signInAsAdmin(page, request);
    const blocks = await failRequests(page, '**/api/contentblocks', (route) =>
      route.fulfill({ status: 500, json: {} }),
    );
    await page.goto('/admin/content-blocks');
    await exhaustRetries(page, blocks);
    await expect(page.getByRole('alert')).toContainText('Failed to load content blocks.');
    await blocks.stop();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);

    const slug = uniqueName('keep-').toLowerCase();
    await addBlock(page, 'Keep me', slug, '<p>Stay</p>');
    await expect(blockRow(page, slug)).toHaveCount(1);
    await page.route('**/api/contentblocks/*', (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: {} }) : route.continue(),
    );
    await blockRow(page, slug)
      .getByRole('button', { name: /^Delete/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('alert')).toContainText('Delete failed.');
    await expect(blockRow(page, slug)).toHaveCount(1);
  });
});
