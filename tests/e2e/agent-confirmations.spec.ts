import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { SiteInfo } from '../../src/shared/site.js';
import { AdminApi, apiLogin, signInAs } from './support/api.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { test } from './support/test.js';

/*
 * The agent's screens for issue 40: an entry held for a second confirmation and a mismatch (never the
 * other person's value), Expected (a change made meanwhile is not undone), an entry too old to send
 * by itself, and an entry whose lost answer the queue's retry saves (said at the form, where the
 * agent looks). On a phone's width; screenshots at 360 and 1280 px with SCREENSHOTS=1.
 */
test.use({ viewport: { width: 360, height: 740 } });

const SUBMIT = '**/api/agent/my-ghadi/update-result';

async function siteToday(request: APIRequestContext): Promise<string> {
  return ((await (await request.get('/api/site')).json()) as SiteInfo).today;
}

async function todayResultOf(request: APIRequestContext, gid: number): Promise<string | undefined> {
  const answer = (await (await request.get('/api/ghadis')).json()) as { data: GhadiRecord[] };
  return answer.data.find((ghadi) => ghadi.GID === gid)?.TodayResult;
}

/** A ghadi with its agents (each assigned to it). */
async function ghadiWithAgents(request: APIRequestContext, agents: number, confirmations: 1 | 2) {
  const admin = await AdminApi.connect(request);
  const ghadi = await admin.createGhadi({ RTime: '4:15 PM', OrderId: 1, Confirmations: confirmations });
  const made = [];
  for (let index = 0; index < agents; index += 1) {
    const agent = await admin.createAgent();
    await admin.assign(agent.User_Id, ghadi.GID);
    made.push(agent);
  }
  return { admin, ghadi, agents: made };
}

/** Another agent's submission, straight to the API, as their own phone would send it. */
async function submitAs(
  request: APIRequestContext,
  agent: { UserName: string; Password: string },
  body: { ghadiId: number; result: string; dateTime: string },
) {
  const { token } = await apiLogin(request, agent.UserName, agent.Password);
  return request.post('/api/agent/my-ghadi/update-result', {
    headers: { authorization: `Bearer ${token}` },
    data: body,
  });
}

async function openDashboard(
  page: Page,
  request: APIRequestContext,
  agent: { UserName: string; Password: string },
) {
  await signInAs(page, request, agent.UserName, agent.Password);
  await page.goto('/agent/dashboard');
  await expect(page.getByRole('heading', { name: /^Update result:/ })).toBeVisible();
}

async function declare(page: Page, value: string) {
  await page.getByLabel('Result').fill(value);
  await page.getByRole('button', { name: 'Update' }).click();
}

/** Full-page shots taken while scrolled paint the sticky top bar mid-page, so shoot from the top. */
async function screens(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await captureScreens(page, name);
}

const heldItems = (page: Page) =>
  page.getByRole('region', { name: /^Waiting for a second confirmation/ }).getByRole('listitem');
const statusLine = (page: Page) => page.getByText(/(Saved result|No result saved) for/);

test.describe('the agent’s screens with two-person confirmation', () => {
  test('an entry waits for a second confirmation, a different value is a mismatch, the same one publishes it', async ({
    page,
    request,
  }) => {
    test.slow();
    const { ghadi, agents } = await ghadiWithAgents(request, 2, 2);
    const [first, second] = agents as [(typeof agents)[0], (typeof agents)[0]];
    const today = await siteToday(request);
    await openDashboard(page, request, first);

    await declare(page, '45');
    await expect(page.getByText('Sent. Waiting for a second confirmation.')).toBeVisible();
    await expect(heldItems(page)).toHaveCount(1);
    await expect(heldItems(page).first()).toHaveAccessibleName(`${ghadi.NameEn}, Today: 45, Waiting`);
    await expect(statusLine(page)).toContainText('Waiting for a second confirmation: 45 (yours).');
    await expect(page.getByRole('heading', { name: /Waiting to send/ })).toBeHidden();
    // Held: nothing public.
    expect(await todayResultOf(request, ghadi.GID)).toBe('');
    await screens(page, 'agent-pending');

    // The second person enters 99: a mismatch, and neither is told the other's value.
    const differs = await submitAs(request, second, { ghadiId: ghadi.GID, result: '99', dateTime: today });
    expect(differs.status()).toBe(409);
    const answer = await differs.json();
    expect(answer).toMatchObject({ success: false, mismatch: true });
    expect(JSON.stringify(answer)).not.toContain('45');

    // The first agent checks their value and enters it again: the server keeps it, held.
    await declare(page, '45');
    await expect(page.getByRole('alert')).toHaveText(
      `Not published. Another person entered a different value for ${today}. Yours, 45, is kept on the server: check it, or ask an admin.`,
    );
    await expect(statusLine(page)).toContainText(
      'Yours, 45, is held: another person entered a different value.',
    );
    await expect(heldItems(page).first()).toHaveAccessibleName(
      `${ghadi.NameEn}, Today: 45, Different value entered`,
    );
    await expect(page.locator('body')).not.toContainText('99');
    expect(await todayResultOf(request, ghadi.GID)).toBe('');
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await screens(page, 'agent-mismatch');

    // The second person enters 45 as well: published once.
    const confirms = await submitAs(request, second, { ghadiId: ghadi.GID, result: '45', dateTime: today });
    expect(confirms.status()).toBe(200);
    expect(await todayResultOf(request, ghadi.GID)).toBe('45');
    await page.reload();
    await expect(statusLine(page)).toHaveText(`Saved result for ${today}: 45. Updating replaces it.`);
    await expect(page.getByRole('region', { name: /^Waiting for a second confirmation/ })).toBeHidden();
  });

  test('a change made after the agent read the value is not undone: it is shown, with the value now', async ({
    page,
    request,
  }) => {
    const { admin, ghadi, agents } = await ghadiWithAgents(request, 1, 1);
    const today = await siteToday(request);
    await admin.submitResult(ghadi.GID, '10', today);
    await openDashboard(page, request, agents[0] as (typeof agents)[0]);
    await expect(statusLine(page)).toContainText(`Saved result for ${today}: 10.`);

    // An admin corrects the result while the agent's page still shows 10.
    await admin.submitResult(ghadi.GID, '20', today);
    await declare(page, '30');
    await expect(page.getByRole('alert')).toHaveText(
      'Changed since you entered it: the saved result is now 20. Not sent; check it, and enter yours again if it is right.',
    );
    await expect(page.getByLabel('Result')).toHaveValue('30');
    expect(await todayResultOf(request, ghadi.GID)).toBe('20');
    await expect(statusLine(page)).toContainText(`Saved result for ${today}: 20.`);
    await screens(page, 'agent-changed');

    // Seen now, 20 is the value the agent's 30 replaces.
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Result updated!')).toBeVisible();
    expect(await todayResultOf(request, ghadi.GID)).toBe('30');
  });
});

test.describe('the agent’s queue, seen where the agent looks', () => {
  test('an entry whose answer was lost reads saved at the form once the queue’s retry saves it', async ({
    page,
    context,
    request,
  }) => {
    const { ghadi, agents } = await ghadiWithAgents(request, 1, 1);
    const today = await siteToday(request);
    await openDashboard(page, request, agents[0] as (typeof agents)[0]);

    let attempts = 0;
    await context.route(SUBMIT, async (route) => {
      attempts += 1;
      const response = await route.fetch();
      // The first answer never reaches the phone: the server wrote the result, the agent saw nothing.
      if (attempts === 1) await route.abort('connectionreset');
      else await route.fulfill({ response });
    });
    await declare(page, '38');
    await expect(page.getByText('Not sent yet.')).toBeVisible();

    // The queue's own timer sends it again (its first wait is 2 s).
    const notice = page.getByRole('status').filter({ hasText: 'Result updated!' });
    await expect(notice).toHaveText(
      `Result updated! 38 saved for ${today}. Sent from this phone once the network allowed; nothing to enter again.`,
    );
    await expect(page.getByText('Not sent yet.')).toBeHidden();
    await expect(page.getByText(/kept on this phone/)).toBeHidden();
    await expect(statusLine(page)).toContainText(`Saved result for ${today}: 38.`);
    // On a phone the list above is scrolled away; the form's own notice is in view beside Update.
    await page.getByRole('button', { name: 'Update' }).scrollIntoViewIfNeeded();
    await expect(notice).toBeInViewport();
    expect(attempts).toBe(2);
    expect(await todayResultOf(request, ghadi.GID)).toBe('38');
    await screens(page, 'agent-saved-after-retry');
  });

  test('an entry older than 20 hours is not sent by itself: the agent sends it anyway, or discards it', async ({
    page,
    context,
    request,
  }) => {
    const { ghadi, agents } = await ghadiWithAgents(request, 1, 1);
    await page.clock.install();
    await openDashboard(page, request, agents[0] as (typeof agents)[0]);

    await context.route(SUBMIT, (route) => route.abort('internetdisconnected'));
    await declare(page, '45');
    await expect(page.getByText('Not sent yet.')).toBeVisible();

    // The phone stays offline, the page open, for 20 hours and 5 minutes.
    await page.clock.fastForward('20:05:00');
    await context.unroute(SUBMIT);
    let sent = 0;
    await context.route(SUBMIT, async (route) => {
      sent += 1;
      await route.continue();
    });
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    const list = page.getByRole('region', { name: 'Not sent: your answer needed (1)' });
    await expect(list.getByRole('listitem')).toContainText(/Not sent: entered 20 h 5 min ago/);
    await expect(page.getByText('Not sent.', { exact: true })).toBeVisible();
    expect(sent).toBe(0);
    await screens(page, 'agent-stale');

    await list.getByRole('button', { name: /^Send anyway/ }).click();
    await expect(page.getByText('Result updated!')).toBeVisible();
    expect(sent).toBe(1);
    expect(await todayResultOf(request, ghadi.GID)).toBe('45');
  });
});
