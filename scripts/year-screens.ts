/**
 * Screenshots of the paged screens over a year of results, for a person to look at (issue 9: "the
 * screens are checked at 360 px with a year of results"). Run by hand after a build:
 * `npm run build && npx tsx scripts/year-screens.ts`.
 *
 * 1. Seeds a SQLite file through the app's own API, once (YEAR_DATABASE keeps it between runs):
 *    30 ghadis with a result for each of the last 365 days, and an agent assigned to three of them
 *    who declared today's and yesterday's.
 * 2. Starts the built server on it and drives Chromium (/usr/bin/chromium) through the admin
 *    Results screen (first page, a middle page, a search, a five-digit page) and the agent's
 *    dashboard and history, at 360 px and 1280 px.
 * 3. Writes the PNGs to SCREENSHOT_DIR (default: /tmp/ghadi-year-screens, never the repository) and
 *    prints, for each, whether the page scrolls sideways and whether the pager keeps to one row,
 *    and the largest results answer the admin screen received.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { addDays, todayInZone } from '../src/shared/dates.js';

const GHADIS = 30;
const DAYS = 365;
const PORT = Number(process.env.YEAR_PORT ?? 3481);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const ADMIN = { username: 'year-admin', password: 'year-admin-password' };
const AGENT = { username: 'year-agent', password: 'year-agent-password', displayName: 'Year Agent' };
const OUT = process.env.SCREENSHOT_DIR ?? path.join(os.tmpdir(), 'ghadi-year-screens');
const DATABASE = path.resolve(process.env.YEAR_DATABASE ?? path.join(os.tmpdir(), 'ghadi-year.db'));
const WIDTHS = [
  ['phone', 360, 740],
  ['desktop', 1280, 800],
] as const;

function log(message: string) {
  process.stdout.write(`${message}\n`);
}

async function seed(env: NodeJS.ProcessEnv) {
  const config = loadConfig(env);
  const app = await buildApp(config, { logger: false, serveWebApp: false });
  const call = async <T>(method: 'GET' | 'POST', url: string, payload?: unknown, token?: string) => {
    const response = await app.inject({
      method,
      url,
      payload: payload as Record<string, unknown> | undefined,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body}`);
    return response.json<T>();
  };
  try {
    const login = (username: string, password: string) =>
      call<{ token: string }>('POST', '/api/users/login', { UserName: username, Password: password });
    const admin = (await login(ADMIN.username, ADMIN.password)).token;
    const ghadis: number[] = [];
    for (let index = 1; index <= GHADIS; index++) {
      const answer = await call<{ data: { GID: number } }>(
        'POST',
        '/api/ghadis',
        { NameEn: `Year Ghadi ${index}`, NameHn: `वर्ष ${index}`, RTime: '6:00 PM', OrderId: index },
        admin,
      );
      ghadis.push(answer.data.GID);
    }
    const today = todayInZone(config.siteTimezone);
    for (const gid of ghadis) {
      for (let day = 0; day < DAYS; day++) {
        const result = String((gid * 37 + day * 13) % 100).padStart(2, '0');
        await call(
          'POST',
          '/api/agent/my-ghadi/update-result',
          { ghadiId: gid, result, dateTime: addDays(today, -day) },
          admin,
        );
      }
    }
    const agent = await call<{ data: { User_Id: number } }>(
      'POST',
      '/api/users',
      {
        UserName: AGENT.username,
        DisplayName: AGENT.displayName,
        Email: 'year-agent@example.com',
        Password: AGENT.password,
        isActive: true,
      },
      admin,
    );
    const assigned = ghadis.slice(0, 3);
    await call('POST', '/api/usermaps', { User_Id: agent.data.User_Id, GID: assigned }, admin);
    const agentToken = (await login(AGENT.username, AGENT.password)).token;
    for (const gid of assigned) {
      for (const [offset, result] of [
        [0, '4A'],
        [-1, '7B'],
      ] as const) {
        await call(
          'POST',
          '/api/agent/my-ghadi/update-result',
          { ghadiId: gid, result, dateTime: addDays(today, offset) },
          agentToken,
        );
      }
    }
    log(`seeded ${GHADIS} ghadis × ${DAYS} days into ${DATABASE}`);
  } finally {
    await app.close();
  }
}

async function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['dist/server/server.js'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`${ORIGIN}/api/site`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill('SIGTERM');
  throw new Error('the server did not start');
}

async function signIn(page: Page, username: string, password: string) {
  const response = await fetch(`${ORIGIN}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ UserName: username, Password: password }),
  });
  const answer = (await response.json()) as { token: string; user: Record<string, unknown> };
  await page.goto(`${ORIGIN}/agent/login`);
  // Browser code as text: this script is type-checked without the DOM's types.
  const session = JSON.stringify({ ...answer.user, token: answer.token });
  await page.evaluate(`localStorage.setItem('user', ${JSON.stringify(session)})`);
}

/** Whether the page scrolls sideways, and how many rows of buttons each pager takes. */
function layoutOf(page: Page): Promise<{ sideways: boolean; pagerRows: number[] }> {
  return page.evaluate(`({
    sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
    pagerRows: [...document.querySelectorAll('nav[aria-label$="pages"]')].map(
      (nav) =>
        new Set(
          [...nav.querySelectorAll('button')]
            .filter((button) => button.getBoundingClientRect().width > 0)
            .map((button) => Math.round(button.getBoundingClientRect().top)),
        ).size,
    ),
  })`);
}

async function shoot(page: Page, name: string, ready: () => Promise<void>) {
  for (const [label, width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await ready();
    await page.evaluate('window.scrollTo(0, 0)');
    const file = path.join(OUT, `${name}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true });
    const layout = await layoutOf(page);
    log(
      `${path.basename(file)}: ${layout.sideways ? 'SCROLLS SIDEWAYS' : 'no sideways scroll'}, pager rows ${JSON.stringify(layout.pagerRows)}`,
    );
  }
}

async function main() {
  for (const file of ['dist/server/server.js', 'dist/web/index.html']) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  }
  fs.mkdirSync(OUT, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${DATABASE}`,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
  };
  // A seed that stopped half-way leaves no file behind to be mistaken for a seeded one.
  if (!fs.existsSync(DATABASE)) {
    try {
      await seed(env);
    } catch (error) {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${DATABASE}${suffix}`, { force: true });
      throw error;
    }
  }
  const server = await startServer(env);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    let largest = 0;
    page.on('response', async (response) => {
      if (new URL(response.url()).pathname !== '/api/results') return;
      largest = Math.max(largest, (await response.body()).length);
    });
    const table = () =>
      page.getByRole('table', { name: 'All Agents Ghadi Results' }).locator('tbody tr').first().waitFor();
    const settled = async () => {
      await table();
      await page
        .locator('[aria-busy="true"]')
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
    };

    await signIn(page, ADMIN.username, ADMIN.password);
    await page.goto(`${ORIGIN}/admin/results`);
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await shoot(page, 'admin-results-page-1', settled);
    const summary = await page.getByText(/^Showing/).textContent();
    const totalPages = Number(/of ([\d,]+)$/.exec(summary ?? '')?.[1]?.replaceAll(',', '') ?? 1);
    const middle = Math.ceil(totalPages / 2);
    await page.goto(`${ORIGIN}/admin/results?page=${middle}`);
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await shoot(page, 'admin-results-middle', settled);
    await page.goto(`${ORIGIN}/admin/results?q=${encodeURIComponent('Year Ghadi 7')}&page=3&limit=15`);
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await shoot(page, 'admin-results-search', settled);
    await page.goto(
      `${ORIGIN}/admin/results?q=${encodeURIComponent(addDays(todayInZone('Asia/Kolkata'), -40).slice(0, 7))}`,
    );
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await shoot(page, 'admin-results-month', settled);

    // Five-digit page numbers (decades of results): the same rows, told they are page 21,998 of 22,000.
    await page.route(
      (url) => url.pathname === '/api/results',
      async (route) => {
        const real = new URL(route.request().url());
        real.searchParams.set('page', '1000');
        const answer = await (await route.fetch({ url: real.toString() })).json();
        await route.fulfill({
          json: { ...answer, pagination: { page: 21_998, limit: 5, total: 109_998, totalPages: 22_000 } },
        });
      },
    );
    await page.goto(`${ORIGIN}/admin/results?page=21998`);
    await page.getByRole('button', { name: 'Close sidebar' }).click();
    await shoot(page, 'admin-results-page-21998', settled);
    await page.unrouteAll();
    log(`largest /api/results answer: ${(largest / 1024).toFixed(1)} KB`);

    await signIn(page, AGENT.username, AGENT.password);
    await page.goto(`${ORIGIN}/agent/dashboard`);
    const history = () =>
      page
        .getByRole('table', { name: /^Result history of/ })
        .locator('tbody tr')
        .first()
        .waitFor();
    await shoot(page, 'agent-dashboard', history);
    await page
      .getByRole('navigation', { name: 'Result history pages' })
      .getByRole('button', { name: 'Last page' })
      .click();
    await page.waitForURL(/dashboard/);
    await shoot(page, 'agent-history-last-page', async () => {
      await history();
      await page
        .locator('[aria-busy="true"]')
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
    });
    const month = addDays(todayInZone('Asia/Kolkata'), -100).slice(0, 7);
    await page.getByLabel('Search history').fill(month);
    await shoot(page, 'agent-history-search', () =>
      page
        .getByRole('table', { name: /^Result history of/ })
        .locator('tbody tr')
        .filter({ hasText: month })
        .first()
        .waitFor(),
    );

    // The history's pager with thumb-sized buttons at five digits: the last of 10,000 pages.
    await page.route(
      (url) => url.pathname === '/api/agent/my-ghadi/results',
      async (route) => {
        const asked = new URL(route.request().url());
        const real = new URL(asked);
        real.searchParams.set('page', '2');
        const answer = await (await route.fetch({ url: real.toString() })).json();
        const pageAsked = Number(asked.searchParams.get('page'));
        await route.fulfill({
          json: { ...answer, pagination: { page: pageAsked, limit: 10, total: 99_998, totalPages: 10_000 } },
        });
      },
    );
    await page.reload();
    await history();
    await page
      .getByRole('navigation', { name: 'Result history pages' })
      .getByRole('button', { name: 'Last page' })
      .click();
    await page.getByRole('button', { name: 'Page 10000' }).waitFor();
    await shoot(page, 'agent-history-page-10000', history);
    await page.unrouteAll();
  } finally {
    await browser.close();
    server.kill('SIGTERM');
  }
  log(`screenshots in ${OUT}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
