import { type APIRequestContext, expect, type Page, type Route } from '@playwright/test';
import { addDays } from '../../src/shared/dates.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { SiteInfo } from '../../src/shared/site.js';
import { AdminApi, signInAs } from './support/api.js';
import { exhaustRetries, failRequests } from './support/failing-route.js';
import { captureScreens, hasHorizontalPageScroll } from './support/screens.js';
import { test } from './support/test.js';

const PHONE = { width: 360, height: 740 };

/** Today as the server reckons it (the site's time zone), so seeded dates line up with the form's default. */
async function siteToday(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/site');
  return ((await response.json()) as SiteInfo).today;
}

async function todayResultOf(request: APIRequestContext, gid: number): Promise<string | undefined> {
  const response = await request.get('/api/ghadis');
  const answer = (await response.json()) as { data: GhadiRecord[] };
  return answer.data.find((ghadi) => ghadi.GID === gid)?.TodayResult;
}

/** An agent with the given number of freshly created ghadis assigned to it. */
async function agentWithGhadis(request: APIRequestContext, count: number) {
  const admin = await AdminApi.connect(request);
  const agent = await admin.createAgent();
  const ghadis: GhadiRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    ghadis.push(await admin.createGhadi({ RTime: `${index + 1}:15 PM`, OrderId: index + 1 }));
  }
  if (ghadis.length > 0) {
    await admin.assign(
      agent.User_Id,
      ghadis.map((ghadi) => ghadi.GID),
    );
  }
  return { admin, agent, ghadis };
}

/** Full-page shots taken while scrolled paint the sticky top bar mid-page, so shoot from the top. */
async function screens(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await captureScreens(page, name);
}

function ghadiChoice(page: Page, ghadi: GhadiRecord) {
  return page.getByRole('radio', { name: new RegExp(ghadi.NameEn) });
}

function dateChoices(page: Page) {
  return page.getByRole('group', { name: 'Date' }).getByRole('radio');
}

function dateChoice(page: Page, day: 'Today' | 'Yesterday') {
  return page.getByRole('group', { name: 'Date' }).getByRole('radio', { name: new RegExp(`^${day}`) });
}

function historyPager(page: Page) {
  return page.getByRole('navigation', { name: 'Result history pages' });
}

/** Every visible button of a pager sits on one row: the same top edge for all. */
async function pagerTops(page: Page): Promise<number[]> {
  return historyPager(page)
    .locator('button:visible')
    .evaluateAll((buttons) => buttons.map((button) => Math.round(button.getBoundingClientRect().top)));
}

function historyRows(page: Page) {
  return page.getByRole('table', { name: /Result history of/ }).locator('tbody tr');
}

test.describe('agent dashboard', () => {
  test('an agent logs in, sees both ghadis, declares "06" for today and then replaces it', async ({
    page,
    request,
  }) => {
    const { agent, ghadis } = await agentWithGhadis(request, 2);
    const [first, second] = ghadis as [GhadiRecord, GhadiRecord];
    const today = await siteToday(request);
    await page.setViewportSize(PHONE);

    await page.goto('/agent/login');
    await page.getByLabel('Username').fill(agent.UserName);
    await page.getByLabel('Password', { exact: true }).fill(agent.Password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/agent\/dashboard$/);

    await expect(ghadiChoice(page, first)).toBeChecked();
    await expect(ghadiChoice(page, second)).not.toBeChecked();
    await expect(page.getByText('1:15 PM')).toBeVisible();
    await expect(page.getByText('2:15 PM')).toBeVisible();

    await ghadiChoice(page, second).check();
    await expect(page).toHaveURL(new RegExp(`ghadi=${second.GID}$`));
    await expect(page.getByRole('heading', { name: `Update result: ${second.NameEn}` })).toBeVisible();
    // Agents enter today's or yesterday's result only: the form offers just those two days.
    await expect(dateChoices(page)).toHaveCount(2);
    await expect(dateChoice(page, 'Today')).toBeChecked();
    await expect(dateChoice(page, 'Today')).toHaveAccessibleName(`Today ${today}`);
    await expect(dateChoice(page, 'Yesterday')).toHaveAccessibleName(`Yesterday ${addDays(today, -1)}`);
    await expect(page.getByText('No results found.')).toBeVisible();

    const update = page.getByRole('button', { name: 'Update' });
    await expect(update).toBeDisabled();
    await page.getByLabel('Result').fill('06');
    await expect(update).toBeEnabled();

    // Holding the request shows the progress text and a button that cannot be tapped twice.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/agent/my-ghadi/update-result', async (route) => {
      await held;
      await route.continue();
    });
    await update.click();
    await expect(page.getByRole('button', { name: 'Updating...' })).toBeDisabled();
    release();

    await expect(page.getByText('Result updated!')).toBeVisible();
    await expect(historyRows(page)).toHaveCount(1);
    await expect(historyRows(page).first()).toContainText(today);
    await expect(historyRows(page).first()).toContainText('06');
    await expect(ghadiChoice(page, second)).toHaveAccessibleName(/Today:\s*06/);
    expect(await todayResultOf(request, second.GID)).toBe('06');
    expect(await todayResultOf(request, first.GID)).toBe('');
    await expect(page.getByText(`Saved result for ${today}:`)).toContainText('06');
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await screens(page, 'agent-dashboard');

    await page.getByLabel('Result').fill('42');
    await expect(page.getByText('Result updated!')).toBeHidden();
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Result updated!')).toBeVisible();
    await expect(historyRows(page)).toHaveCount(1);
    await expect(historyRows(page).first()).toContainText('42');
    expect(await todayResultOf(request, second.GID)).toBe('42');
  });

  test('the history comes 10 a page from the server, searches there from page 1, and shows a new result', async ({
    page,
    request,
  }) => {
    // Seeds 12 results, then pages, searches and submits: three times the usual time.
    test.slow();
    const { admin, agent, ghadis } = await agentWithGhadis(request, 1);
    const ghadi = ghadis[0] as GhadiRecord;
    const today = await siteToday(request);
    // Twelve past days, newest first once listed, valued day × 7 ("14", "21" …); days 1 and 5 are
    // "A#1" and "X*Y", values no date and no ghadi name can match (names are letters, digits and
    // spaces: a search also finds a ghadi by a part of its name, and "A1" was once part of one).
    const seededValue = (day: number) =>
      day === 1 ? 'A#1' : day === 5 ? 'X*Y' : String(day * 7).padStart(2, '0');
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        admin.submitResult(ghadi.GID, seededValue(index + 1), addDays(today, -(index + 1))),
      ),
    );
    const requests: URL[] = [];
    page.on('request', (sent) => {
      const url = new URL(sent.url());
      if (url.pathname === '/api/agent/my-ghadi/results') requests.push(url);
    });
    await page.setViewportSize(PHONE);
    await signInAs(page, request, agent.UserName, agent.Password);
    await page.goto('/agent/dashboard');

    await expect(historyRows(page)).toHaveCount(10);
    await expect(historyRows(page).first()).toContainText(addDays(today, -1));
    await expect(page.getByText('Showing 1–10 of 12')).toBeVisible();
    const tops = await pagerTops(page);
    expect(tops.length).toBeGreaterThanOrEqual(5);
    expect(new Set(tops).size).toBe(1);
    await historyPager(page).getByRole('button', { name: 'Next page' }).click();
    await expect(historyRows(page)).toHaveCount(2);
    await expect(historyRows(page).last()).toContainText(addDays(today, -12));
    await expect(historyPager(page).getByRole('button', { name: 'Page 2' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await screens(page, 'agent-history');

    // From page 2, a search for a value on page 1 finds it: searching starts again at page 1.
    const search = page.getByLabel('Search history');
    await search.fill('A#1');
    await expect(historyRows(page)).toHaveCount(1);
    await expect(historyRows(page).first()).toContainText(addDays(today, -1));
    await expect(historyPager(page)).toHaveCount(0);

    await search.fill('x*y');
    await expect(historyRows(page)).toHaveCount(1);
    await expect(historyRows(page).first()).toContainText(addDays(today, -5));

    await search.fill(addDays(today, -3));
    await expect(historyRows(page)).toHaveCount(1);
    await expect(historyRows(page).first()).toContainText('21');

    await search.fill('no such result');
    await expect(page.getByText('No results found.')).toBeVisible();

    // Every request asked for one page of 10 of this ghadi.
    for (const url of requests) {
      expect(url.searchParams.get('ghadiId'), url.search).toBe(String(ghadi.GID));
      expect(url.searchParams.get('limit'), url.search).toBe('10');
    }

    // Correcting yesterday's result from a search shows the history afresh, the correction on top.
    await dateChoice(page, 'Yesterday').check();
    await page.getByLabel('Result').fill('Z1');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Result updated!')).toBeVisible();
    await expect(search).toHaveValue('');
    await expect(historyRows(page)).toHaveCount(10);
    await expect(historyRows(page).first()).toContainText(addDays(today, -1));
    await expect(historyRows(page).first()).toContainText('Z1');
  });

  test('an agent with no ghadi sees the empty state', async ({ page, request }) => {
    const { agent } = await agentWithGhadis(request, 0);
    await page.setViewportSize(PHONE);
    await signInAs(page, request, agent.UserName, agent.Password);
    await page.goto('/agent/dashboard');
    await expect(page.getByText('No ghadi assigned to your account.')).toBeVisible();
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await screens(page, 'agent-dashboard-empty');
  });

  test('failures show the spec texts, Retry recovers, and a failed update keeps the typed value', async ({
    page,
    request,
  }) => {
    const { agent, ghadis } = await agentWithGhadis(request, 1);
    const ghadi = ghadis[0] as GhadiRecord;
    await page.setViewportSize(PHONE);
    await page.clock.install();
    await signInAs(page, request, agent.UserName, agent.Password);

    const down = (route: Route) => route.fulfill({ status: 500, body: 'down' });
    const assigned = await failRequests(page, '**/api/agent/my-ghadi', down);
    await page.goto('/agent/dashboard');
    await exhaustRetries(page, assigned);
    await expect(page.getByRole('alert')).toContainText('Failed to load assigned ghadi');
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await screens(page, 'agent-dashboard-error');
    await assigned.stop();

    const history = await failRequests(page, '**/api/agent/my-ghadi/results**', down);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(ghadiChoice(page, ghadi)).toBeChecked();
    await exhaustRetries(page, history);
    await expect(page.getByRole('alert')).toContainText('Failed to load result history');
    await history.stop();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByText('No results found.')).toBeVisible();

    await page.route('**/api/agent/my-ghadi/update-result', (route) =>
      route.fulfill({ status: 400, json: { success: false, message: 'result: Use letters, digits' } }),
    );
    await page.getByLabel('Result').fill('77');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('alert')).toHaveText('Result: Use letters, digits');
    await expect(page.getByLabel('Result')).toHaveValue('77');

    await page.unroute('**/api/agent/my-ghadi/update-result');
    await page.route('**/api/agent/my-ghadi/update-result', (route) =>
      route.fulfill({ status: 500, body: 'down' }),
    );
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('alert')).toHaveText('Failed to update result');
    await expect(page.getByLabel('Result')).toHaveValue('77');

    await page.unroute('**/api/agent/my-ghadi/update-result');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Result updated!')).toBeVisible();
    await expect(historyRows(page).first()).toContainText('77');
  });

  test('the ghadi results placeholder links back to the dashboard', async ({ page, request }) => {
    const { agent } = await agentWithGhadis(request, 0);
    await page.setViewportSize(PHONE);
    await signInAs(page, request, agent.UserName, agent.Password);
    await page.goto('/agent/ghadi-results');
    await expect(page.getByRole('heading', { name: 'Ghadi Results' })).toBeVisible();
    await expect(page.getByText('Viewing and updating results here is coming soon.')).toBeVisible();
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await screens(page, 'agent-ghadi-results');
    await page.getByRole('link', { name: 'Back to dashboard' }).click();
    await expect(page).toHaveURL(/\/agent\/dashboard$/);
  });

  test('Logout ends the session and shows the agent login', async ({ page, request }) => {
    const { agent } = await agentWithGhadis(request, 1);
    const { token } = await signInAs(page, request, agent.UserName, agent.Password);
    await page.goto('/agent/dashboard');
    await expect(page.getByRole('group', { name: 'Choose a ghadi' }).getByRole('radio')).toBeChecked();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/agent\/login$/);
    await expect(page.getByRole('heading', { name: 'Agent Login' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    // The server ended the token too.
    const headers = { authorization: `Bearer ${token}` };
    await expect.poll(async () => (await request.get('/api/agent/my-ghadi', { headers })).status()).toBe(401);
  });
});
