import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, chromium, expect, type Page } from '@playwright/test';
import type { DeclarationEntry, ResultHistoryEntry } from '../../src/shared/schemas/declarations.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { SiteInfo } from '../../src/shared/site.js';
import { AdminApi, signInAs } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { test } from './support/test.js';

/*
 * The agent's app on a phone with a bad network (issue 35, decision 0011): submissions kept on the
 * phone and sent once, the signed-in areas opening from the service worker's cache, installability.
 * The other specs block service workers (playwright.config.ts); these need them.
 */
test.use({ serviceWorkers: 'allow', viewport: { width: 360, height: 740 } });

async function siteToday(request: APIRequestContext): Promise<string> {
  return ((await (await request.get('/api/site')).json()) as SiteInfo).today;
}

async function agentWithGhadis(request: APIRequestContext, count: number) {
  const admin = await AdminApi.connect(request);
  const agent = await admin.createAgent();
  const ghadis: GhadiRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    ghadis.push(await admin.createGhadi({ RTime: `${index + 1}:45 PM`, OrderId: index + 1 }));
  }
  await admin.assign(
    agent.User_Id,
    ghadis.map((ghadi) => ghadi.GID),
  );
  return { admin, agent, ghadis };
}

/**
 * Signs the agent in and opens the dashboard under the service worker's control, its reads of the
 * API gone through the worker once (so that it has them to answer offline).
 */
async function openControlledDashboard(
  page: Page,
  request: APIRequestContext,
  agent: { UserName: string; Password: string },
) {
  await signInAs(page, request, agent.UserName, agent.Password);
  await page.goto('/agent/dashboard');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // The worker claims the open page when it activates (clientsClaim); a reload is then its too.
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: /^Update result:/ })).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const cache = await caches.open('agent-reads');
        return (await cache.keys()).map((request) => new URL(request.url).pathname);
      }),
    )
    .toEqual(expect.arrayContaining(['/api/agent/my-ghadi', '/api/agent/my-ghadi/results']));
}

function ghadiChoice(page: Page, ghadi: GhadiRecord) {
  return page.getByRole('radio', { name: new RegExp(ghadi.NameEn) });
}

function waitingItems(page: Page) {
  return page.getByRole('region', { name: /^(Waiting to send|Sent from this phone)/ }).getByRole('listitem');
}

/** Types a value for today, checks the read-back, then (after a screenshot, if named) taps Update. */
async function declare(page: Page, ghadi: GhadiRecord, value: string, screenshot?: string) {
  await ghadiChoice(page, ghadi).check();
  await expect(page.getByRole('heading', { name: `Update result: ${ghadi.NameEn}` })).toBeVisible();
  const input = page.getByLabel('Result');
  await input.fill(value);
  await expect(input).toHaveAttribute('inputmode', 'numeric');
  const readBack = page.getByRole('region', { name: 'You are declaring' });
  await expect(readBack).toContainText(ghadi.NameEn);
  await expect(readBack).toContainText('Today,');
  await expect(page.getByTestId('read-back-value')).toHaveText(value);
  if (screenshot) await screens(page, screenshot);
  await page.getByRole('button', { name: 'Update' }).click();
}

/** Full-page shots taken while scrolled paint the sticky top bar mid-page, so shoot from the top. */
async function screens(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await captureScreens(page, name);
}

/** What the server recorded for a ghadi's date: its declaration-log entries and its history. */
async function recorded(request: APIRequestContext, admin: AdminApi, gid: number, date: string) {
  const log = (await (await request.get(`/api/declarations?gid=${gid}&date=${date}`)).json()) as {
    data: DeclarationEntry[];
  };
  const history = await admin.call<{ data: ResultHistoryEntry[] }>(
    'GET',
    `/api/result-history?gid=${gid}&date=${date}`,
  );
  const ghadis = (await (await request.get('/api/ghadis')).json()) as { data: GhadiRecord[] };
  return {
    log: log.data.map((entry) => entry.Result),
    history: history.data.map((entry) => `${entry.Result} by ${entry.DeclaredByName}`),
    today: ghadis.data.find((ghadi) => ghadi.GID === gid)?.TodayResult,
  };
}

test.describe('the agent’s app on a bad network', () => {
  test('results declared offline wait on the phone, survive a reload and are saved once when back online', async ({
    page,
    context,
    request,
  }) => {
    test.slow();
    const { admin, agent, ghadis } = await agentWithGhadis(request, 2);
    const [first, second] = ghadis as [GhadiRecord, GhadiRecord];
    const today = await siteToday(request);
    await openControlledDashboard(page, request, agent);

    await context.setOffline(true);
    await declare(page, first, '45', 'agent-offline-read-back');
    await expect(page.getByText('Not sent yet.')).toBeVisible();
    await expect(page.getByLabel('Result')).toHaveValue('');
    await declare(page, second, '67');
    await expect(page.getByRole('heading', { name: 'Waiting to send (2)' })).toBeVisible();
    await expect(waitingItems(page)).toHaveCount(2);
    await expect(waitingItems(page).nth(0)).toHaveAccessibleName(`${first.NameEn}, Today: 45, Waiting`);
    await expect(waitingItems(page).nth(1)).toHaveAccessibleName(`${second.NameEn}, Today: 67, Waiting`);
    await expect(page.getByText('Offline – showing the last known state')).toBeVisible();
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await screens(page, 'agent-offline-waiting');

    // Closed and opened again without a network: the page comes from the worker's cache, the
    // ghadis from its last known reads, the entries from the phone's store.
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await expect(page.getByRole('heading', { name: 'Waiting to send (2)' })).toBeVisible();
    await expect(waitingItems(page).nth(0)).toHaveAccessibleName(`${first.NameEn}, Today: 45, Waiting`);
    await expect(waitingItems(page).nth(1)).toHaveAccessibleName(`${second.NameEn}, Today: 67, Waiting`);
    await expect(ghadiChoice(page, first)).toBeVisible();
    await expect(page.getByText('Offline – showing the last known state')).toBeVisible();
    // The second ghadi's history was never read online: nothing kept, and the page says so.
    await expect(page.getByText('The history loads when the network is back.')).toBeVisible();
    await screens(page, 'agent-offline-reloaded');
    expect(await recorded(request, admin, first.GID, today)).toEqual({ log: [], history: [], today: '' });

    await context.setOffline(false);
    await expect(page.getByRole('heading', { name: 'Sent from this phone' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(waitingItems(page).nth(0)).toHaveAccessibleName(`${first.NameEn}, Today: 45, Saved`);
    await expect(waitingItems(page).nth(1)).toHaveAccessibleName(`${second.NameEn}, Today: 67, Saved`);
    await expect(waitingItems(page).nth(0)).toContainText(/Saved on the server at \d\d:\d\d:\d\d/);
    await expect(page.getByText('Offline – showing the last known state')).toBeHidden();
    await expect(ghadiChoice(page, second)).toHaveAccessibleName(/Today:\s*67/);
    await screens(page, 'agent-offline-sent');

    expect(await recorded(request, admin, first.GID, today)).toEqual({
      log: ['45'],
      history: [`45 by ${agent.DisplayName}`],
      today: '45',
    });
    expect(await recorded(request, admin, second.GID, today)).toEqual({
      log: ['67'],
      history: [`67 by ${agent.DisplayName}`],
      today: '67',
    });

    await page.getByRole('button', { name: `Dismiss ${first.NameEn} ${today}` }).click();
    await expect(waitingItems(page)).toHaveCount(1);
  });

  test('a submission whose answer is lost is sent again with its key, and the server writes it once', async ({
    page,
    context,
    request,
  }) => {
    const { admin, agent, ghadis } = await agentWithGhadis(request, 1);
    const [ghadi] = ghadis as [GhadiRecord];
    const today = await siteToday(request);
    await openControlledDashboard(page, request, agent);

    const keys: string[] = [];
    const answers: unknown[] = [];
    await context.route('**/api/agent/my-ghadi/update-result', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      const response = await route.fetch();
      answers.push(await response.json());
      // The first answer never reaches the phone: the server wrote the result, the agent saw nothing.
      if (keys.length === 1) await route.abort('connectionreset');
      else await route.fulfill({ response });
    });

    await declare(page, ghadi, '38');
    await expect(page.getByText('Not sent yet.')).toBeVisible();
    expect(await recorded(request, admin, ghadi.GID, today)).toEqual({
      log: ['38'],
      history: [`38 by ${agent.DisplayName}`],
      today: '38',
    });

    // The queue's own timer sends it again (its first wait is 2 s); no wake-up needed.
    await expect(waitingItems(page).first()).toHaveAccessibleName(`${ghadi.NameEn}, Today: 38, Saved`, {
      timeout: 15_000,
    });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    // The retry got the first write's answer, word for word, and wrote nothing more.
    expect(answers[1]).toEqual(answers[0]);
    expect(await recorded(request, admin, ghadi.GID, today)).toEqual({
      log: ['38'],
      history: [`38 by ${agent.DisplayName}`],
      today: '38',
    });
  });

  test('the app is installable, and the service worker leaves the public pages to the server', async ({
    request,
    launchOptions,
    baseURL,
  }) => {
    const { agent } = await agentWithGhadis(request, 1);
    // Chromium never offers to install from an incognito context, which every new context is: a
    // browser profile of its own, as a phone has.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      ...launchOptions,
      baseURL,
      viewport: { width: 360, height: 740 },
      serviceWorkers: 'allow',
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await openControlledDashboard(page, request, agent);

      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
      const manifest = await cdp.send('Page.getAppManifest');
      expect(manifest.url).toMatch(/\/ghadi\.webmanifest$/);
      expect(manifest.errors).toEqual([]);
      expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({
        start_url: '/agent/dashboard',
        display: 'standalone',
        scope: '/',
      });

      // The admin area's page opens offline too (the app's shell), and its login shows.
      await context.setOffline(true);
      const admin = await page.goto('/admin/login');
      expect(admin?.fromServiceWorker()).toBe(true);
      await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
      // A public page is never answered from the worker's cache: offline, it is not there.
      await expect(page.goto('/')).rejects.toThrow(/ERR_INTERNET_DISCONNECTED|ERR_FAILED/);
      await context.setOffline(false);
      const home = await page.goto('/');
      expect(home?.fromServiceWorker()).toBe(false);
      expect(home?.status()).toBe(200);
      await expect(page.locator('link[rel="manifest"]')).toHaveCount(0);
      // The worker is there, controlling the page, and still the page came from the server.
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });
});
