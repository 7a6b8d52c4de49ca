/**
 * The offline group's Chromium checks (issue 35, decision 0011): Debian's Chromium as an agent's
 * phone (360 × 740, touch, a profile of its own: Chromium reports an incognito context as not
 * installable), signed in through the login form, under the service worker's control:
 * - offline, two results declared wait on the phone, survive a reload from the worker's cache, and
 *   are saved once when the network is back (the log, the history and the public results say so);
 * - a submission whose answer the network drops after the server wrote it is sent again with the
 *   same Idempotency-Key, answered as the first time, and written once;
 * - Chromium's installability check passes; the manifest's fields and icons; the worker answers a
 *   navigation offline (its fetch handler).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.js';
import { timedRequest } from '../lib/timed-request.js';
import { check } from './check.js';
import { type OfflineGhadi, type OfflineSite, type Recorded, recorded, shown } from './offline-site.js';
import type { CheckResult } from './types.js';

/**
 * What functions run in the page see (`globalThis as unknown as InPage`, inline: they are sent as
 * their source). The bench compiles without the DOM's types.
 */
interface InPage {
  navigator: { serviceWorker: { controller: object | null } };
  caches: { open(name: string): Promise<{ keys(): Promise<Array<{ url: string }>> }> };
  document: { documentElement: { scrollWidth: number } };
  innerWidth: number;
}

const PHONE = { width: 360, height: 740 };
/** The worker's cache of the agent's reads (vite.config.ts). */
const AGENT_READS_CACHE = 'agent-reads';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Signs in through the login form and opens the dashboard under the worker, its reads cached once. */
async function openControlledDashboard(page: Page, site: OfflineSite): Promise<string> {
  const started = Date.now();
  await page.goto('/agent/login');
  await page.getByLabel('Username').fill(site.agent.username);
  await page.getByLabel('Password', { exact: true }).fill(site.agent.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/agent/dashboard', { timeout: 15_000 });
  await page.waitForFunction(
    () => (globalThis as unknown as InPage).navigator.serviceWorker.controller !== null,
    null,
    { timeout: 20_000 },
  );
  const controlled = Date.now() - started;
  // Reloaded under the worker, the dashboard's reads go through it and are kept for offline.
  await page.reload();
  await page.getByRole('heading', { name: /^Update result:/ }).waitFor({ timeout: 15_000 });
  await page.waitForFunction(
    async (cacheName) => {
      const cache = await (globalThis as unknown as InPage).caches.open(cacheName);
      const paths = (await cache.keys()).map((request) => new URL(request.url).pathname);
      return paths.includes('/api/agent/my-ghadi') && paths.includes('/api/agent/my-ghadi/results');
    },
    AGENT_READS_CACHE,
    { timeout: 15_000 },
  );
  return `signed in through the form; the worker controlled the page ${controlled} ms after the login page opened; the agent's reads cached`;
}

/** Chooses the ghadi, types the value for today, checks the read-back, taps Update. */
async function declare(page: Page, ghadi: OfflineGhadi, value: string): Promise<void> {
  await page.getByRole('radio', { name: new RegExp(ghadi.NameEn) }).check();
  await page.getByRole('heading', { name: `Update result: ${ghadi.NameEn}` }).waitFor();
  const input = page.getByLabel('Result');
  await input.fill(value);
  if ((await input.getAttribute('inputmode')) !== 'numeric')
    throw new Error('the result field is not numeric');
  const readBack = page.getByRole('region', { name: 'You are declaring' });
  const text = (await readBack.textContent()) ?? '';
  if (!text.includes(ghadi.NameEn) || !text.includes('Today,'))
    throw new Error(`the read-back says "${text}"`);
  if ((await page.getByTestId('read-back-value').textContent())?.trim() !== value)
    throw new Error('the read-back does not show the value');
  await page.getByRole('button', { name: 'Update', exact: true }).click();
}

/** The waiting list's entries, by their accessible names ("Name, Today: 45, Waiting"). */
async function listed(page: Page): Promise<string[]> {
  const items = page
    .getByRole('region', { name: /^(Waiting to send|Sent from this phone)/ })
    .getByRole('listitem');
  const names: string[] = [];
  for (const item of await items.all()) names.push((await item.getAttribute('aria-label')) ?? '');
  return names;
}

/** Waits for the list's heading and entries; false (not thrown) when they do not come. */
async function listShows(page: Page, heading: string, entries: string[], timeout: number) {
  try {
    await page.getByRole('heading', { name: heading, exact: true }).waitFor({ timeout });
    for (const entry of entries)
      await page.getByRole('listitem', { name: entry, exact: true }).waitFor({ timeout });
    return true;
  } catch {
    return false;
  }
}

/** Written exactly once, with this value, by the agent: one log entry, one history row, published. */
function once(found: Recorded, value: string, author: string): boolean {
  return (
    found.log.length === 1 &&
    found.log[0]?.Result === value &&
    found.history.length === 1 &&
    found.history[0]?.Result === value &&
    found.history[0]?.DeclaredByName === author &&
    found.todayResult === value &&
    found.published.length === 1 &&
    found.published[0] === value
  );
}

async function offlineFlowCheck(
  page: Page,
  context: BrowserContext,
  site: OfflineSite,
  opened: string,
): Promise<CheckResult> {
  return check(
    'offline at 360 × 740: two results wait on the phone, survive a reload from the cache, are saved once online',
    async () => {
      const [first, second] = site.ghadis as [OfflineGhadi, OfflineGhadi];
      const values = ['45', '67'] as const;
      const label = (ghadi: OfflineGhadi, value: string, state: string) =>
        `${ghadi.NameEn}, Today: ${value}, ${state}`;
      const waiting = [label(first, values[0], 'Waiting'), label(second, values[1], 'Waiting')];
      const saved = [label(first, values[0], 'Saved'), label(second, values[1], 'Saved')];
      try {
        await context.setOffline(true);
        await declare(page, first, values[0]);
        await page.getByText('Not sent yet.').waitFor({ timeout: 10_000 });
        await declare(page, second, values[1]);
        const waitedBefore = await listShows(page, 'Waiting to send (2)', waiting, 10_000);
        const before = await listed(page);
        const scroll = await page.evaluate(() => {
          const inPage = globalThis as unknown as InPage;
          return inPage.document.documentElement.scrollWidth - inPage.innerWidth;
        });
        const whileOffline = await recorded(site, first, site.today);

        const reloaded = await page.reload();
        const fromWorker = reloaded?.fromServiceWorker() ?? false;
        const waitedAfter = await listShows(page, 'Waiting to send (2)', waiting, 10_000);
        const afterReload = await listed(page);
        const lastKnown = await page.getByText('Offline – showing the last known state').isVisible();

        await context.setOffline(false);
        const online = Date.now();
        const sent = await listShows(page, 'Sent from this phone', saved, 20_000);
        const sentMs = Date.now() - online;
        const after = await listed(page);
        const savedAt = await page.getByText(/Saved on the server at \d\d:\d\d:\d\d/).count();
        await sleep(500);
        const found = [await recorded(site, first, site.today), await recorded(site, second, site.today)];
        const author = site.agent.displayName;
        const onceEach = found.map((one, index) => once(one, values[index] ?? '', author));
        return {
          ok:
            waitedBefore &&
            scroll <= 0 &&
            whileOffline.log.length === 0 &&
            fromWorker &&
            waitedAfter &&
            lastKnown &&
            sent &&
            savedAt === 2 &&
            onceEach.every(Boolean),
          detail:
            `${opened}; offline: listed [${before.join(' | ')}] (horizontal overflow ${scroll} px), ` +
            `on the server meanwhile: ${whileOffline.log.length} log entries; reloaded offline: from the worker ${fromWorker}, ` +
            `listed [${afterReload.join(' | ')}], "last known state" shown ${lastKnown}; online: both saved after ${sentMs} ms ` +
            `(${sent ? '' : 'NOT; '}listed [${after.join(' | ')}], ${savedAt} with the server's time); ` +
            `server: ${first.NameEn}: ${shown(found[0] as Recorded)}; ${second.NameEn}: ${shown(found[1] as Recorded)}; ` +
            `each once: ${onceEach.join(', ')}`,
        };
      } finally {
        await context.setOffline(false);
      }
    },
  );
}

async function lostAnswerCheck(page: Page, context: BrowserContext, site: OfflineSite): Promise<CheckResult> {
  return check(
    'an answer lost after the server wrote: the app sends it again with the same key; written once',
    async () => {
      const ghadi = site.ghadis[2] as OfflineGhadi;
      const value = '38';
      const keys: string[] = [];
      const answers: Array<{ status: number; body: string }> = [];
      const submitUrl = '**/api/agent/my-ghadi/update-result';
      // Nothing else in flight: only this ghadi's submissions are watched, and none other waits.
      await page
        .getByRole('heading', { name: /^Waiting to send/ })
        .waitFor({ state: 'detached', timeout: 20_000 });
      await context.route(submitUrl, async (route) => {
        const body = route.request().postDataJSON() as { ghadiId?: number } | null;
        if (body?.ghadiId !== ghadi.GID) return route.continue();
        keys.push(route.request().headers()['idempotency-key'] ?? '');
        const response = await route.fetch();
        answers.push({ status: response.status(), body: await response.text() });
        // The first answer never reaches the phone: the server wrote the result, the agent saw nothing.
        if (keys.length === 1) await route.abort('failed');
        else await route.fulfill({ response });
      });
      try {
        const started = Date.now();
        await declare(page, ghadi, value);
        await page.getByText('Not sent yet.').waitFor({ timeout: 10_000 });
        const afterLoss = await recorded(site, ghadi, site.today);
        const saved = await listShows(
          page,
          'Sent from this phone',
          [`${ghadi.NameEn}, Today: ${value}, Saved`],
          20_000,
        );
        const savedMs = Date.now() - started;
        await sleep(500);
        const found = await recorded(site, ghadi, site.today);
        const sameKey = keys.length === 2 && keys[0] === keys[1] && UUID.test(keys[0] ?? '');
        const sameAnswer =
          answers.length === 2 &&
          answers[0]?.status === 200 &&
          answers[1]?.status === 200 &&
          answers[0]?.body === answers[1]?.body;
        return {
          ok:
            afterLoss.log.length === 1 &&
            saved &&
            sameKey &&
            sameAnswer &&
            once(found, value, site.agent.displayName),
          detail:
            `${keys.length} requests, keys ${keys.map((key) => key.slice(0, 8)).join(', ')}… (the same UUID: ${sameKey}); ` +
            `statuses ${answers.map((answer) => answer.status).join(', ')}, the retry's body byte for byte the first's: ${sameAnswer}; ` +
            `on the server after the lost answer: ${afterLoss.log.length} log entry; shown Saved ${saved ? `${savedMs} ms after the tap` : 'NOT within 20 s'}; ` +
            `server now: ${shown(found)}`,
        };
      } finally {
        await context.unroute(submitUrl);
      }
    },
  );
}

/** Width and height from a PNG's IHDR chunk; null for anything else. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature)) return null;
  if (bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

interface ManifestIcon {
  src: string;
  sizes?: string;
  type?: string;
  purpose?: string;
}

async function installabilityCheck(page: Page, context: BrowserContext, site: OfflineSite) {
  return check(
    'installable: no installability error; the manifest’s fields; 192 and 512 px icons; the worker answers offline',
    async () => {
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      const manifest = await cdp.send('Page.getAppManifest');
      await cdp.detach();
      const fields = JSON.parse(manifest.data ?? '{}') as {
        name?: string;
        short_name?: string;
        start_url?: string;
        display?: string;
        theme_color?: string;
        icons?: ManifestIcon[];
      };
      const problems: string[] = [];
      if (!fields.name) problems.push('no name');
      if (!fields.short_name) problems.push('no short_name');
      if (fields.start_url !== '/agent/dashboard') problems.push(`start_url ${fields.start_url}`);
      if (fields.display !== 'standalone') problems.push(`display ${fields.display}`);
      if (!/^#[0-9a-f]{3,8}$/i.test(fields.theme_color ?? ''))
        problems.push(`theme_color ${fields.theme_color}`);
      const icons: string[] = [];
      for (const size of [192, 512]) {
        const icon = fields.icons?.find(
          (one) =>
            one.sizes === `${size}x${size}` &&
            one.type === 'image/png' &&
            (one.purpose ?? 'any').includes('any'),
        );
        if (!icon) {
          problems.push(`no ${size}x${size} PNG icon`);
          continue;
        }
        const answer = await timedRequest(new URL(icon.src, manifest.url).toString());
        const real = pngSize(answer.body);
        icons.push(`${icon.src} ${answer.status} ${real ? `${real.width}×${real.height}` : 'not a PNG'}`);
        if (answer.status !== 200 || real?.width !== size || real?.height !== size)
          problems.push(`${icon.src} is not a ${size} px PNG`);
      }
      // The worker's fetch handler: a signed-in area's page opens with no network, from it.
      let offlineNavigation = 'not tried';
      let fromWorker = false;
      try {
        await context.setOffline(true);
        const answer = await page.goto('/admin/login');
        fromWorker = answer?.fromServiceWorker() ?? false;
        await page.getByRole('button', { name: 'Login' }).waitFor({ timeout: 10_000 });
        offlineNavigation = `${answer?.status()}, from the worker ${fromWorker}, its login form shown`;
      } catch (error) {
        offlineNavigation = `failed: ${(error as Error).message.split('\n')[0]}`;
      } finally {
        await context.setOffline(false);
      }
      const errors = installabilityErrors.map((error) => error.errorId);
      return {
        ok: errors.length === 0 && manifest.errors.length === 0 && problems.length === 0 && fromWorker,
        detail:
          `installability errors [${errors.join(', ')}]; manifest ${manifest.url.replace(site.url, '')}, ${manifest.errors.length} parse errors: ` +
          `name "${fields.name}", short_name "${fields.short_name}", start_url ${fields.start_url}, display ${fields.display}, ` +
          `theme_color ${fields.theme_color}; icons ${icons.join(', ')}; /admin/login offline: ${offlineNavigation}` +
          `${problems.length ? `; problems: ${problems.join('; ')}` : ''}`,
      };
    },
  );
}

/** The three browser checks, in one Chromium with a profile of its own. */
export async function browserChecks(site: OfflineSite): Promise<CheckResult[]> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-offline-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    baseURL: site.url,
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'allow',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    let opened: string;
    try {
      opened = await openControlledDashboard(page, site);
    } catch (error) {
      const reason = `the dashboard did not open under the worker: ${(error as Error).message.split('\n')[0]}`;
      return [{ name: 'the agent’s dashboard under the service worker', ok: false, detail: reason }];
    }
    const results = [
      await offlineFlowCheck(page, context, site, opened),
      await lostAnswerCheck(page, context, site),
      await installabilityCheck(page, context, site),
    ];
    if (errors.length)
      results[0] = {
        ...(results[0] as CheckResult),
        detail: `${results[0]?.detail}; page errors: ${errors.slice(0, 3).join(' | ')}`,
      };
    return results;
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
