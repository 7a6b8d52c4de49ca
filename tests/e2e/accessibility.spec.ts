import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { addDays } from '../../src/shared/dates.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import { AdminApi, signInAs, signInAsAdmin, uniqueName } from './support/api.js';
import { axeViolations } from './support/axe.js';
import { siteDay } from './support/site-day.js';
import { test } from './support/test.js';

/**
 * axe-core over every screen of the three areas, at a phone's width and a desktop's, in its usual
 * state, its empty state and with its forms and dialogs open: WCAG 2.2 AA and axe's best practices,
 * and two checks axe does not make: no text under 12 px, no control smaller than 24 × 24 px.
 * One browser page per area, data seeded through the API, so the whole file stays quick.
 */
const WIDTHS = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
];

/** Text smaller than 12 px, and controls smaller than 24 × 24 px (WCAG 2.5.8), on screen now. */
function sizeProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const shown = (element: Element) => {
      const rect = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      // Visually hidden text (sr-only) and text placed off screen to be measured are not read by eye.
      return (
        rect.width > 1 &&
        rect.height > 1 &&
        rect.right > 0 &&
        rect.bottom > -window.scrollY &&
        style.visibility !== 'hidden' &&
        style.opacity !== '0'
      );
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || seen.has(parent) || !node.textContent?.trim() || !shown(parent)) continue;
      seen.add(parent);
      const size = Number.parseFloat(getComputedStyle(parent).fontSize);
      if (size < 12) problems.push(`${size}px text: "${node.textContent.trim().slice(0, 30)}"`);
    }
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])',
    );
    for (const control of controls) {
      if (!shown(control)) continue;
      // A link stretched over its card by an absolute ::after (the home page's ghadi cards) is tapped
      // anywhere on the card: the card is its target.
      const stretched = getComputedStyle(control, '::after').position === 'absolute';
      const rect = (stretched ? (control.offsetParent ?? control) : control).getBoundingClientRect();
      if (rect.width >= 24 && rect.height >= 24) continue;
      // WCAG 2.5.8's exceptions: a link within a sentence; a box or radio whose label, the target
      // people tap, is big enough; a control whose 24 px circle touches no other target.
      const style = getComputedStyle(control);
      const inSentence =
        control.tagName === 'A' &&
        style.display === 'inline' &&
        (control.parentElement?.textContent?.trim().length ?? 0) > (control.textContent?.trim().length ?? 0);
      const label =
        control instanceof HTMLInputElement ? control.labels?.[0]?.getBoundingClientRect() : undefined;
      const labelled = label !== undefined && label.height >= 24 && label.width >= 24;
      if (inSentence || labelled) continue;
      const name = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? '';
      problems.push(
        `${Math.round(rect.width)}×${Math.round(rect.height)} ${control.tagName}: "${name.slice(0, 30)}"`,
      );
    }
    return problems;
  });
}

/** Runs the checks at both widths; returns what failed, each named by the screen and width. */
async function audit(page: Page, screen: string): Promise<string[]> {
  const found: string[] = [];
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
    for (const violation of await axeViolations(page))
      found.push(
        `${screen} @${size.width}: ${violation.id}: ${violation.help} (${violation.nodes
          .slice(0, 3)
          .map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`)
          .join(' | ')})`,
      );
    for (const problem of await sizeProblems(page)) found.push(`${screen} @${size.width}: ${problem}`);
  }
  return found;
}

/** A public page, once hydrated: what axe sees is what a visitor works with. */
async function openPublic(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** An app screen, once its data has arrived (no spinner left). */
async function openScreen(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

const results = (name: string) => `/satta-results/${encodeURIComponent(name.toLowerCase())}`;

/** Values on a ghadi yesterday and today, one of them corrected, so the marks show. */
async function declare(admin: AdminApi, ghadi: GhadiRecord, today: string) {
  await admin.submitResult(ghadi.GID, '17', addDays(today, -1));
  await admin.submitResult(ghadi.GID, '42', today);
  await admin.submitResult(ghadi.GID, '44', today);
}

/** An admin signed in, a ghadi with values (one corrected) and an agent it is assigned to. */
async function adminSession(page: Page, request: APIRequestContext) {
  const admin = await AdminApi.connect(request);
  const { today } = await siteDay(request);
  const ghadi = await admin.createGhadi({ NameEn: uniqueName('Axe Admin '), OrderId: 1 });
  await declare(admin, ghadi, today);
  const agent = await admin.createAgent();
  await admin.assign(agent.User_Id, ghadi.GID);
  await signInAsAdmin(page, request);
  const found: string[] = [];
  const dialog = page.getByRole('dialog');
  return {
    admin,
    today,
    ghadi,
    agent,
    found,
    dialog,
    check: async (screen: string) => {
      found.push(...(await audit(page, screen)));
    },
    cancel: async () => {
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
    },
  };
}

test.describe('accessibility: axe-core, text and target sizes', () => {
  // Two tests, so that the two workers of a run share the pages.
  for (const [part, pages] of [
    [
      'in English, with data',
      (ghadi: string, _empty: string, today: string) => [
        '/',
        results(ghadi),
        `${results(ghadi)}/${today.slice(0, 4)}`,
        `/chart/${today.slice(0, 7)}`,
        '/declarations',
        '/nope',
      ],
    ],
    [
      'in Hindi, and empty',
      // Empty: a ghadi without results, and an unknown ghadi (the no-data page). A month without a
      // result has no chart: it answers the very page /nope does, checked once.
      (ghadi: string, empty: string, today: string) => [
        '/hi',
        `/hi${results(ghadi)}`,
        `/hi/chart/${today.slice(0, 7)}`,
        '/hi/declarations',
        '/hi/nope',
        results(empty),
        `${results(empty)}/${today.slice(0, 4)}`,
        '/satta-results/no-such-ghadi',
      ],
    ],
  ] as const) {
    test(`public pages ${part}`, async ({ page, request }) => {
      const admin = await AdminApi.connect(request);
      const { today } = await siteDay(request);
      const ghadi = await admin.createGhadi({
        NameEn: uniqueName('Axe Walk '),
        NameHn: 'ऐक्स वॉक',
        OrderId: 1,
      });
      await declare(admin, ghadi, today);
      const empty = await admin.createGhadi({ NameEn: uniqueName('Axe Empty ') });
      const found: string[] = [];
      for (const path of pages(ghadi.NameEn, empty.NameEn, today)) {
        await openPublic(page, path);
        found.push(...(await audit(page, path)));
      }
      expect(found).toEqual([]);
    });
  }

  test('the sign-in screens, empty and refused', async ({ page }) => {
    const found: string[] = [];
    for (const [path, title] of [
      ['/admin/login', 'Admin Login'],
      ['/agent/login', 'Agent Login'],
    ] as const) {
      await openScreen(page, path, title);
      found.push(...(await audit(page, path)));
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page.getByText('This field is required').first()).toBeVisible();
      await page.getByRole('button', { name: 'Show password' }).click();
      found.push(...(await audit(page, `${path} with errors`)));
    }
    expect(found).toEqual([]);
  });

  test('admin screens: dashboard, agents and ghadi, with their forms and dialogs open', async ({
    page,
    request,
  }) => {
    const { ghadi, agent, found, check, dialog, cancel } = await adminSession(page, request);

    await openScreen(page, '/admin/dashboard', 'Welcome, Admin');
    await expect(page.getByRole('heading', { name: 'Visitors per day', level: 3 })).toBeVisible();
    await check('dashboard');
    await page.getByRole('button', { name: `Update Result of ${ghadi.NameEn}` }).click();
    await expect(page.getByRole('form', { name: `Update Result: ${ghadi.NameEn}` })).toBeVisible();
    await check('dashboard, Update Result open');

    await openScreen(page, '/admin/agents', 'Agents');
    await check('agents');
    await page.getByRole('button', { name: 'Add Agent' }).click();
    await expect(page.getByText('This field is required').first()).toBeVisible();
    await check('agents, form errors');
    const agentRow = page.getByRole('row').filter({ hasText: agent.UserName });
    await agentRow.getByRole('button', { name: /^Edit/ }).click();
    await expect(page.getByRole('heading', { name: `Edit Agent: ${agent.UserName}` })).toBeVisible();
    await agentRow.getByRole('button', { name: /^Delete/ }).click();
    await expect(dialog).toContainText('Are you sure you want to delete this agent?');
    await check('agents, editing, delete confirm');
    await cancel();

    await openScreen(page, '/admin/ghadi', 'Ghadi');
    await check('ghadi');
    // The list is paged, and other tests add ghadis: the page holding this one.
    const update = page.getByRole('button', { name: `Update Result of ${ghadi.NameEn}` });
    const pages = page
      .getByRole('navigation', { name: 'Ghadi list pages' })
      .getByRole('button', { name: /^Page / });
    for (let index = 0; (await update.count()) === 0 && index < (await pages.count()); index++)
      await pages.nth(index).click();
    await update.click();
    const ghadiRow = page.getByRole('row').filter({ has: update });
    const resultForm = page.getByRole('form', { name: `Update Result: ${ghadi.NameEn}` });
    await resultForm.getByRole('button', { name: 'Save Result' }).click();
    await expect(resultForm.getByText('This field is required')).toBeVisible();
    await check('ghadi, Update Result with an error');
    await ghadiRow.getByRole('button', { name: /^Delete/ }).click();
    await expect(dialog).toContainText('Are you sure you want to delete this entry?');
    await check('ghadi, delete confirm');
    await cancel();
    expect(found).toEqual([]);
  });

  test('admin screens: results, assignments, content blocks and activity, empty ones too', async ({
    page,
    request,
  }) => {
    const { admin, today, ghadi, agent, found, check, dialog, cancel } = await adminSession(page, request);
    const slug = uniqueName('axe-block-').toLowerCase();
    await admin.call('POST', '/api/contentblocks', { Title: 'Axe', Slug: slug, Content: '<p>Axe</p>' });

    await openScreen(
      page,
      `/admin/results?q=${encodeURIComponent(ghadi.NameEn)}`,
      'All Agents Ghadi Results',
    );
    await expect(page.getByTestId('correction-mark')).toHaveCount(1);
    await check('results');
    await page
      .getByRole('button', { name: `History of ${ghadi.NameEn} ${today}` })
      .first()
      .click();
    await expect(dialog.getByRole('listitem')).toHaveCount(2);
    await check('results, history dialog');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await page.getByRole('button', { name: 'Import CSV…' }).click();
    await expect(page.getByRole('dialog', { name: 'Import results from CSV' })).toBeVisible();
    await check('results, import dialog');
    await page.keyboard.press('Escape');
    await openScreen(page, '/admin/results?q=no%20such%20thing%20at%20all', 'All Agents Ghadi Results');
    await expect(page.getByText('No results match')).toBeVisible();
    await check('results, empty search');

    await openScreen(page, '/admin/assign-ghadi', 'Assign Ghadi');
    await check('assign ghadi');
    await page
      .getByRole('table', { name: 'Current assignments' })
      .getByRole('row')
      .filter({ hasText: agent.UserName })
      .getByRole('button', { name: /^Delete/ })
      .click();
    await expect(dialog).toContainText('Delete this assignment?');
    await check('assign ghadi, delete confirm');
    await cancel();

    await openScreen(page, '/admin/content-blocks', 'Content Blocks');
    await check('content blocks');
    await page
      .getByRole('row')
      .filter({ hasText: slug })
      .getByRole('button', { name: /^Delete/ })
      .click();
    await expect(dialog).toContainText('Delete this content block?');
    await check('content blocks, delete confirm');
    await cancel();
    await admin.removeContentBlock(slug);

    await openScreen(page, '/admin/media', 'Media');
    await check('media');

    await openScreen(page, '/admin/activity', 'Activity');
    await check('activity');
    await openScreen(page, '/admin/activity?action=ghadi_delete&from=2001-01-01&to=2001-01-02', 'Activity');
    await check('activity, nothing matches');
    expect(found).toEqual([]);
  });

  test('agent screens: with ghadis and history, and an agent with none', async ({ page, request }) => {
    const admin = await AdminApi.connect(request);
    const { today } = await siteDay(request);
    const [busy, quiet] = [
      await admin.createGhadi({ NameEn: uniqueName('Axe Agent '), NameHn: 'ऐक्स एजेंट', OrderId: 1 }),
      await admin.createGhadi({ NameEn: uniqueName('Axe Quiet '), OrderId: 2 }),
    ];
    const agent = await admin.createAgent();
    await admin.assign(agent.User_Id, [busy.GID, quiet.GID]);
    await declare(admin, busy, today);
    const lonely = await admin.createAgent();
    const found: string[] = [];
    const check = async (screen: string) => found.push(...(await audit(page, screen)));

    await signInAs(page, request, agent.UserName, agent.Password);
    await openScreen(page, '/agent/dashboard', 'Update Results');
    await expect(page.getByRole('radio', { name: new RegExp(busy.NameEn) })).toBeChecked();
    await expect(page.getByRole('table').getByRole('row')).not.toHaveCount(0);
    await check('dashboard, a ghadi and its history');
    await page.getByRole('radio', { name: new RegExp(quiet.NameEn) }).check();
    await expect(page.getByText('No results found.')).toBeVisible();
    await page.getByLabel('Result').fill('bad value!');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Use letters, digits')).toBeVisible();
    await check('dashboard, no history, a form error');
    await openScreen(page, '/agent/ghadi-results', 'Ghadi Results');
    await check('ghadi results');

    await signInAs(page, request, lonely.UserName, lonely.Password);
    await openScreen(page, '/agent/dashboard', 'Update Results');
    await expect(page.getByText('No ghadi assigned to your account.')).toBeVisible();
    await check('dashboard, no ghadi assigned');
    expect(found).toEqual([]);
  });
});
