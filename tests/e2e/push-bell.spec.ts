import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import {
  PushService,
  pushTls,
  type ReceivedPush,
  type TestSubscription,
} from '../../bench/lib/push-service.js';
import { freePort, startServer } from '../../bench/lib/server-process.js';
import type { PushPayload } from '../../src/shared/schemas/push.js';
import { AdminApi, uniqueName } from './support/api.js';
import { E2E_ADMIN } from './support/constants.js';
import { captureScreens } from './support/screens.js';
import { siteDay } from './support/site-day.js';
import { test as base } from './support/test.js';

/**
 * The notification bells, end to end: a tap subscribes (asking permission then, never on load), the
 * server sends a declared result through a real push service, and the page's push worker shows it.
 *
 * The server needs PUBLIC_URL and a push service it trusts, which the suite's shared server has
 * neither of: this file runs a server of its own (the built one, on its own database) beside a
 * local push service (bench/lib/push-service.ts) whose certificate it is told to trust.
 */
const test = base.extend<object, { site: { url: string; push: PushService } }>({
  site: [
    // A worker fixture's first argument must be destructured; it needs none of the others.
    async ({ browserName: _ }, use) => {
      const tls = pushTls();
      const push = await PushService.start({ tls });
      const port = await freePort();
      const database = path.join(os.tmpdir(), `ghadi-push-e2e-${port}.db`);
      const server = await startServer({
        port,
        env: {
          DATABASE_URL: `sqlite:${database}`,
          ADMIN_USERNAME: E2E_ADMIN.username,
          ADMIN_PASSWORD: E2E_ADMIN.password,
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          // PUBLIC_URL is not https here, so the VAPID subject cannot default to it.
          VAPID_SUBJECT: 'mailto:ops@example.test',
          PUSH_ALLOW_LOOPBACK: 'true',
          NODE_EXTRA_CA_CERTS: tls.caFile,
          VISITOR_NEW_SESSIONS_PER_MINUTE: '100000',
          LOG_LEVEL: 'warn',
        },
      });
      await use({ url: server.url, push });
      await server.stop();
      await push.close();
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${database}${suffix}`, { force: true });
      fs.rmSync(path.dirname(tls.caFile), { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
});
test.use({ serviceWorkers: 'allow', baseURL: async ({ site }, use) => use(site.url) });

const PUSH_SCOPE = '/push-worker/';
const bell = (page: Page, name: string) => page.getByRole('button', { name: `Notify me about ${name}` });

/**
 * Chromium's own push service (Google's) is out of reach offline, so PushManager.subscribe is
 * replaced by one answering with a subscription of the local push service; everything after it
 * (the page, the server, encryption, VAPID, the worker) is real.
 */
async function stubPushManager(context: BrowserContext, subscription: TestSubscription) {
  console.log('PushManager.subscribe stubbed: the browser’s own push service is unreachable offline');
  await context.addInitScript((made: TestSubscription) => {
    const STORE = 'e2e-push-subscription';
    const asSubscription = (key: string) => ({
      endpoint: made.endpoint,
      expirationTime: null,
      options: {
        userVisibleOnly: true,
        applicationServerKey: Uint8Array.from(atob(key), (c) => c.charCodeAt(0)).buffer,
      },
      toJSON: () => ({ endpoint: made.endpoint, expirationTime: null, keys: made.keys }),
      unsubscribe: async () => {
        localStorage.removeItem(STORE);
        return true;
      },
    });
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
      localStorage.setItem(STORE, btoa(String.fromCharCode(...key)));
      return asSubscription(localStorage.getItem(STORE) ?? '') as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async () => {
      const key = localStorage.getItem(STORE);
      return (key ? asSubscription(key) : null) as unknown as PushSubscription;
    };
  }, subscription);
}

async function openHydrated(page: Page, address: string) {
  await page.goto(address);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** Shows a push message to the page's push worker, as Chromium does when its push service delivers one. */
async function deliverPush(page: Page, data: string) {
  const cdp = await page.context().newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
    for (const r of updated) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  const scope = new URL(PUSH_SCOPE, page.url()).href;
  await expect.poll(() => registrations.has(scope)).toBe(true);
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(page.url()).origin,
    registrationId: registrations.get(scope) ?? '',
    data,
  });
}

/** The first message the push service received that matches, once the server has sent it. */
async function received(push: PushService, match: (message: ReceivedPush) => boolean): Promise<ReceivedPush> {
  await expect
    .poll(() => push.messages.some(match), { message: 'the server sent the result to the push service' })
    .toBe(true);
  return push.messages.find(match) as ReceivedPush;
}

function shownNotifications(page: Page) {
  return page.evaluate(async (scope) => {
    const registration = await navigator.serviceWorker.getRegistration(scope);
    const shown = (await registration?.getNotifications()) ?? [];
    return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url, icon: n.icon }));
  }, PUSH_SCOPE);
}

test.describe('notification bells', () => {
  test('a tap follows a ghadi, a declared result arrives through the push service and is shown', async ({
    page,
    context,
    request,
    site,
    baseURL,
  }) => {
    const admin = await AdminApi.connect(request);
    const first = await admin.createGhadi({ NameEn: uniqueName('Bell ') });
    const second = await admin.createGhadi({ NameEn: uniqueName('Bell ') });
    const { today } = await siteDay(request);
    const keyAnswer = await request.get('/api/push/key');
    expect(keyAnswer.status(), await keyAnswer.text()).toBe(200);
    const key = ((await keyAnswer.json()) as { publicKey: string }).publicKey;
    const subscription = site.push.subscription({ applicationServerKey: key });
    await context.grantPermissions(['notifications'], { origin: baseURL });
    await stubPushManager(context, subscription);

    const loaded: string[] = [];
    page.on('request', (sent) => loaded.push(sent.url()));
    await openHydrated(page, `/satta-results/${encodeURIComponent(first.NameEn.toLowerCase())}`);
    await expect(bell(page, first.NameEn)).toHaveAttribute('aria-pressed', 'false');
    await captureScreens(page, 'push-bell-results-off');
    // Nothing of push before a tap: no worker, no push code.
    expect(loaded.filter((url) => /push-follow|push-sw/.test(url))).toEqual([]);
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(
      0,
    );

    const posted = page.waitForRequest((sent) => sent.url().endsWith('/api/push/subscriptions'));
    await bell(page, first.NameEn).click();
    await expect(bell(page, first.NameEn)).toHaveAttribute('aria-pressed', 'true');
    expect((await posted).postDataJSON()).toMatchObject({ ghadis: [first.GID], lang: 'en' });
    await captureScreens(page, 'push-bell-results-on');

    await admin.submitResult(first.GID, '42', today);
    const message = await received(site.push, (m) => m.subscriptionId === subscription.id);
    expect(message).toMatchObject({ vapidOk: true, urgency: 'high', ttl: 10800, status: 201, error: null });
    const payload = message.payload as PushPayload;
    expect(`${payload.title} ${payload.body}`).toContain('42');
    expect(payload.url).toBe(`${baseURL}/satta-results/${encodeURIComponent(first.NameEn.toLowerCase())}`);

    await deliverPush(page, message.text ?? '');
    await expect
      .poll(() => shownNotifications(page))
      .toEqual([
        {
          title: payload.title,
          body: payload.body,
          tag: payload.tag,
          url: payload.url,
          icon: `${baseURL}/app-icon-192.png`,
        },
      ]);

    // The board: the first ghadi's bell is on; a second one joins the same subscription, sent whole.
    await openHydrated(page, '/');
    await expect(bell(page, first.NameEn)).toHaveAttribute('aria-pressed', 'true');
    const both = page.waitForRequest((sent) => sent.url().endsWith('/api/push/subscriptions'));
    await bell(page, second.NameEn).click();
    await expect(bell(page, second.NameEn)).toHaveAttribute('aria-pressed', 'true');
    await captureScreens(page, 'push-bell-board-on');
    expect(((await both).postDataJSON() as { ghadis: number[] }).ghadis.sort()).toEqual(
      [first.GID, second.GID].sort(),
    );
    await admin.submitResult(second.GID, '17', today);
    const next = await received(site.push, (m) => m.subscriptionId === subscription.id && m !== message);
    expect(`${(next.payload as PushPayload).title} ${(next.payload as PushPayload).body}`).toContain('17');

    // The public page is still the server's, and the push worker controls no page.
    const again = await page.reload();
    expect(again?.fromServiceWorker()).toBe(false);
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();

    // Off one by one: the last one deletes the subscription.
    await openHydrated(page, '/');
    const fewer = page.waitForRequest((sent) => sent.url().endsWith('/api/push/subscriptions'));
    await bell(page, first.NameEn).click();
    await expect(bell(page, first.NameEn)).toHaveAttribute('aria-pressed', 'false');
    expect((await fewer).postDataJSON()).toMatchObject({ ghadis: [second.GID] });
    const deleted = page.waitForResponse(
      (answer) => answer.url().endsWith('/api/push/subscriptions') && answer.request().method() === 'DELETE',
    );
    await bell(page, second.NameEn).click();
    await expect(bell(page, second.NameEn)).toHaveAttribute('aria-pressed', 'false');
    expect((await deleted).status()).toBe(200);
    expect((await deleted).request().postDataJSON()).toEqual({ endpoint: subscription.endpoint });
  });

  test('no prompt on load; blocked, unsupported and iPhone-not-installed bells say why', async ({
    browser,
    request,
    baseURL,
  }) => {
    const admin = await AdminApi.connect(request);
    const ghadi = await admin.createGhadi({ NameEn: uniqueName('Bell ') });
    const address = `/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`;
    const open = async (options: Parameters<typeof browser.newContext>[0], script?: () => void) => {
      const context = await browser.newContext({ baseURL, serviceWorkers: 'allow', ...options });
      if (script) await context.addInitScript(script);
      const page = await context.newPage();
      await openHydrated(page, address);
      return { context, page, button: page.getByRole('button', { name: /notif|Notify/i }) };
    };

    // Asked for nothing on load; the prompt comes with the tap.
    const fresh = await open({}, () => {
      const asked = { count: 0 };
      Object.assign(window, { asked });
      const original = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = () => {
        asked.count += 1;
        return original();
      };
    });
    const askedCount = () =>
      fresh.page.evaluate(() => (window as unknown as { asked: { count: number } }).asked.count);
    await expect(fresh.button).toHaveAttribute('aria-pressed', 'false');
    expect(await askedCount()).toBe(0);
    await fresh.button.click();
    await expect.poll(askedCount).toBe(1);
    // Headless Chromium has no one to answer the prompt and refuses it: the bell says so, and cannot
    // be pressed; on the next visit it knows at once.
    await expect(fresh.button).toHaveAccessibleName('Notifications blocked by this browser');
    await expect(fresh.button).toHaveAttribute('aria-disabled', 'true');
    expect(await fresh.page.evaluate(() => Notification.permission)).toBe('denied');
    await openHydrated(fresh.page, address);
    await expect(fresh.button).toHaveAccessibleName('Notifications blocked by this browser');
    await captureScreens(fresh.page, 'push-bell-results-blocked');
    await openHydrated(fresh.page, '/');
    await captureScreens(fresh.page, 'push-bell-board-blocked');
    await openHydrated(fresh.page, address);
    await fresh.button.click({ force: true });
    expect(await askedCount()).toBe(0);
    await fresh.context.close();

    const unsupported = await open({}, () => {
      delete (window as { PushManager?: unknown }).PushManager;
    });
    await expect(unsupported.button).toHaveAccessibleName('Notifications not supported here');
    await unsupported.context.close();

    const iphone = await open({
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    });
    await expect(iphone.button).toHaveAccessibleName('For notifications, add to Home Screen first');
    await iphone.context.close();
  });
});
