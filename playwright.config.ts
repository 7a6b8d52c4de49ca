import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium (/usr/bin/chromium; Playwright never downloads a browser)
 * against the real built server on a fresh SQLite database. `npm run test:e2e` builds first.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);

import { E2E_ADMIN } from './tests/e2e/support/constants.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/support/chromium.js';

const databaseFile = path.join(os.tmpdir(), `ghadi-e2e-${PORT}.db`);

/**
 * Chromium builds the address bar's two drop-downs (WebUI pages, each in a renderer of its own) for
 * every browser context, so for every test: they took a sixth of a run's CPU, and a fifth of its time
 * with them. Chromium reads only the last --disable-features given, so this one repeats Playwright's
 * own list (chromiumSwitches in playwright-core 1.65) before adding the two.
 */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 3,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // A test is a user's whole journey (often 20 to 40 steps, each loading data); with two workers on
  // a two-core machine the longest took 25 to 33 s, against the default 30 s budget.
  timeout: 60_000,
  // Hydration and client fetches wait on two browsers, the server and axe sharing two cores: in a
  // fresh clone's run (2 workers, 102 tests) pages hydrated past 7 s while axe ran beside them.
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: path.join(os.tmpdir(), `ghadi-e2e-results-${PORT}`),
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // A failed test's trace keeps each step's page and network, without the film strip: filming
    // every test (to keep the film of the few that fail) took a seventh of a run's time.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    // page.route does not see requests a service worker handles: specs that cut or hold the network
    // would race the worker's activation. tests/e2e/agent-offline.spec.ts allows it, to test it.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, `--disable-features=${DISABLED_FEATURES.join(',')}`],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // A fresh database every run: the file is removed before the server starts.
    command: `rm -f ${databaseFile} ${databaseFile}-wal ${databaseFile}-shm && node dist/server/server.js`,
    url: `http://127.0.0.1:${PORT}/api/site`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${databaseFile}`,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOGIN_MAX_FAILURES: '1000',
      SUBMISSIONS_PER_USER_PER_MINUTE: '1000000',
      // Every browser of the suite comes from 127.0.0.1; each must count as a visitor.
      VISITOR_NEW_SESSIONS_PER_MINUTE: '100000',
      LOG_LEVEL: 'warn',
    },
  },
});
