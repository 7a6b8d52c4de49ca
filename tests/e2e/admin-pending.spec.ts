import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { PendingDeclaration } from '../../src/shared/schemas/pending.js';
import type { SiteInfo } from '../../src/shared/site.js';
import { AdminApi, apiLogin, removeAfterTheTest, signInAsAdmin, uniqueName } from './support/api.js';
import { axeViolations } from './support/axe.js';
import { captureScreens } from './support/screens.js';
import { test } from './support/test.js';

async function siteToday(request: APIRequestContext): Promise<string> {
  return ((await (await request.get('/api/site')).json()) as SiteInfo).today;
}

/** axe-core over the page as it is, at a phone's width and a desktop's. */
async function axeProblems(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const size of [
    { width: 360, height: 740 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    for (const violation of await axeViolations(page)) {
      const where = violation.nodes
        .slice(0, 3)
        .map((node) => `${node.target.join(' ')}: ${node.failureSummary}`);
      found.push(`@${size.width}: ${violation.id}: ${violation.help} (${where.join(' | ')})`);
    }
  }
  return found;
}

/** A ghadi that needs two people, with two agents assigned to it who submit through the API. */
async function witnessedGhadi(request: APIRequestContext) {
  const admin = await AdminApi.connect(request);
  const today = await siteToday(request);
  const ghadi = await admin.createGhadi({ Confirmations: 2 });
  expect(ghadi.Confirmations).toBe(2);
  const agents = [await admin.createAgent(), await admin.createAgent()];
  for (const agent of agents) await admin.assign(agent.User_Id, ghadi.GID);
  const tokens = await Promise.all(
    agents.map(async (agent) => (await apiLogin(request, agent.UserName, agent.Password)).token),
  );
  const submit = async (agentIndex: number, result: string) =>
    (
      await request.post('/api/agent/my-ghadi/update-result', {
        headers: { authorization: `Bearer ${tokens[agentIndex]}` },
        data: { ghadiId: ghadi.GID, result, dateTime: today },
      })
    ).status();
  const todayResult = async () =>
    (await admin.call<{ data: GhadiRecord[] }>('GET', '/api/ghadis')).data.find(
      (candidate) => candidate.GID === ghadi.GID,
    )?.TodayResult;
  const pendingOfGhadi = async () =>
    (await admin.call<{ data: PendingDeclaration[] }>('GET', '/api/pending')).data.filter(
      (declaration) => declaration.GID === ghadi.GID,
    );
  return { admin, ghadi, agents, submit, todayResult, pendingOfGhadi };
}

test.describe('two-person results in the admin console', () => {
  test('a mismatch is flagged on the dashboard and the menu, listed, and settled by publishing an entry', async ({
    page,
    request,
  }) => {
    const { ghadi, agents, submit, todayResult, pendingOfGhadi } = await witnessedGhadi(request);
    expect(await submit(0, '45')).toBe(202);
    expect(await submit(1, '54')).toBe(409);

    await signInAsAdmin(page, request);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/admin/dashboard');
    // Other tests may hold mismatches of their own at the same time: the count is at least this one.
    const banner = page.getByTestId('pending-banner');
    await expect(banner).toContainText(/\d+ results? waits? for a decision/);
    await expect(
      page
        .getByRole('navigation', { name: 'Admin' })
        .getByRole('link', { name: /^Pending results ?: \d+ need a decision$/ }),
    ).toBeVisible();
    const boardRow = page
      .getByRole('region', { name: "Today's board" })
      .getByRole('row')
      .filter({ hasText: ghadi.NameEn });
    await expect(boardRow.getByText('Entries differ')).toBeVisible();
    await expect(boardRow).toContainText('Not declared yet');
    // At a phone's width the open menu would cover the page: the toggle's count stands in for it.
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await expect(
      page.getByRole('button', { name: /^Open menu, \d+ results? waits? for a decision$/ }),
    ).toBeVisible();
    await captureScreens(page, 'admin-dashboard-pending');

    await banner.getByRole('link', { name: 'Review pending results' }).click();
    await expect(page).toHaveURL(/\/admin\/pending$/);
    await expect(page.getByRole('heading', { name: 'Pending results', level: 1 })).toBeVisible();
    const card = page.getByRole('article', { name: new RegExp(`^${ghadi.NameEn} ·`) });
    await expect(card).toHaveAttribute('data-mismatch', 'true');
    await expect(card).toContainText('Mismatch: the entries differ');
    await expect(card).toContainText('Nothing published yet for this date.');
    for (const agent of agents) await expect(card).toContainText(agent.UserName);
    await expect(card.getByTestId('pending-value')).toHaveText(['45', '54']);

    await captureScreens(page, 'admin-pending-mismatch');
    expect(await axeProblems(page)).toEqual([]);

    await card.getByRole('button', { name: /^Publish 54,/ }).click();
    await expect(page.getByText(`Published 54 for ${ghadi.NameEn} on`)).toBeVisible();
    await expect(card).toHaveCount(0);
    expect(await todayResult()).toBe('54');
    expect(await pendingOfGhadi()).toEqual([]);
  });

  test('a held correction waits for a second person, and the admin discards it', async ({
    page,
    request,
  }) => {
    const { ghadi, submit, todayResult, pendingOfGhadi } = await witnessedGhadi(request);
    // Two people agree: published at once.
    expect(await submit(0, '12')).toBe(202);
    expect(await submit(1, '12')).toBe(200);
    expect(await todayResult()).toBe('12');
    // One asks to correct it: held, nothing public changes.
    expect(await submit(0, '21')).toBe(202);

    await signInAsAdmin(page, request);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/admin/pending');
    const card = page.getByRole('article', { name: new RegExp(`^${ghadi.NameEn} ·`) });
    await expect(card).toHaveAttribute('data-mismatch', 'false');
    await expect(card).toContainText('Waiting for a 2nd confirmation');
    await expect(card).toContainText('Published now: 12');

    await card.getByRole('button', { name: /^Discard/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Discard the pending entry for ${ghadi.NameEn}`);
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByText(`Discarded the entries for ${ghadi.NameEn} on`)).toBeVisible();
    await expect(card).toHaveCount(0);
    expect(await pendingOfGhadi()).toEqual([]);
    expect(await todayResult()).toBe('12');
  });

  test('the ghadi form sets how many people must confirm, and the list marks it', async ({
    page,
    request,
  }) => {
    await signInAsAdmin(page, request);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/admin/ghadi');
    const form = page.getByRole('form', { name: 'Add Ghadi' });
    const name = uniqueName('Witness ');
    await form.getByLabel('Name (English)').fill(name);
    await form.getByLabel('Name (Hindi)').fill('गवाह');
    await form.getByLabel('Order').fill('950');
    await form.getByLabel('Result Time').fill('7:30 PM');
    const confirmations = form.getByLabel('Confirmations');
    await expect(confirmations).toHaveValue('1');
    await confirmations.selectOption('2');
    await form.getByRole('button', { name: 'Add Ghadi' }).click();
    await expect(page.getByText('Ghadi added.')).toBeVisible();

    const admin = await AdminApi.connect(request);
    const saved = (await admin.call<{ data: GhadiRecord[] }>('GET', '/api/ghadis')).data.find(
      (ghadi) => ghadi.NameEn === name,
    );
    expect(saved?.Confirmations).toBe(2);
    if (saved) removeAfterTheTest(saved.GID);

    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row.getByText('2 confirmations')).toBeVisible();
    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const editing = page.getByRole('form', { name: `Edit Ghadi: ${name}` });
    await expect(editing.getByLabel('Confirmations')).toHaveValue('2');
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    // Edit scrolled the form into view; the shot starts at the page's top, under the fixed bar.
    await page.evaluate(() => window.scrollTo(0, 0));
    await captureScreens(page, 'admin-ghadi-confirmations');
  });
});
