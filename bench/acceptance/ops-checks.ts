/**
 * Issue 11's "Done when", from outside, on servers of its own (node dist/server/server.js):
 * - /api/openapi.json is a valid OpenAPI document with every path of the spec's API table, and
 *   /api/docs renders in Chromium under the site's CSP;
 * - /healthz, /readyz, and /metrics with and without the token (and 404 on a server without one);
 * - SIGTERM while a live stream is open: the process exits 0 within 10 s;
 * - the backup move and the CSV round trip (ops-data-checks.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.js';
import { signIn } from '../lib/client.js';
import { SEED_ADMIN, seedDatabase } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { jsonOf, timedRequest } from '../lib/timed-request.js';
import { check } from './check.js';
import { dataChecks } from './ops-data-checks.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

const METRICS_TOKEN = 'acceptance-metrics-token';
const SHUTDOWN_LIMIT_MS = 10_000;
const SPEC_FILE = path.resolve('..', 'shared', 'spec', 'product-spec.md');

/** "METHOD path" of every row of the spec's API table (docs/api.md's when the spec is not beside the repository). */
function documentedRoutes(): { source: string; routes: string[] } {
  const fromSpec = fs.existsSync(SPEC_FILE);
  const text = fs.readFileSync(fromSpec ? SPEC_FILE : 'docs/api.md', 'utf8');
  const routes = new Set<string>();
  for (const match of text.matchAll(/^\| `?(GET|POST|PUT|DELETE) ([^|`]+)`? \|/gm)) {
    for (const address of (match[2] ?? '').split(',')) {
      routes.add(`${match[1]} ${address.trim().split('?')[0]}`);
    }
  }
  return { source: fromSpec ? SPEC_FILE : 'docs/api.md', routes: [...routes] };
}

async function openApiCheck(baseUrl: string): Promise<CheckResult> {
  return check('/api/openapi.json is valid OpenAPI and has every path of the API table', async () => {
    const answer = await timedRequest(`${baseUrl}/api/openapi.json`);
    const document = jsonOf<{ openapi: string; paths: Record<string, Record<string, unknown>> }>(
      answer,
      'GET /api/openapi.json',
    );
    const verdict = await new Validator().validate({ ...document });
    const { source, routes } = documentedRoutes();
    const missing = routes.filter((route) => {
      const [method = '', address = ''] = route.split(' ');
      return !document.paths[address]?.[method.toLowerCase()];
    });
    return {
      ok: answer.status === 200 && verdict.valid && missing.length === 0 && routes.length > 20,
      detail:
        `OpenAPI ${document.openapi}, ${Object.keys(document.paths).length} paths; valid: ${verdict.valid}` +
        `${verdict.valid ? '' : ` (${JSON.stringify(verdict.errors).slice(0, 300)})`}; ` +
        `${routes.length - missing.length}/${routes.length} routes of ${path.basename(source)} found` +
        (missing.length ? `; missing: ${missing.join(', ')}` : ''),
    };
  });
}

async function docsPageCheck(baseUrl: string): Promise<CheckResult> {
  return check('/api/docs renders in Chromium under the CSP', async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/content security policy/i.test(message.text())) violations.push(message.text());
      });
      const answer = await page.goto(`${baseUrl}/api/docs`);
      const csp = answer?.headers()['content-security-policy'] ?? '';
      await page.getByRole('heading', { name: /Ghadi Results API/ }).waitFor({ timeout: 15_000 });
      const operations = await page.locator('.opblock').count();
      return {
        ok: csp.includes("script-src 'self'") && operations > 20 && violations.length === 0,
        detail: `${operations} operations shown; CSP "${csp.slice(0, 40)}…"; ${violations.length} CSP violations`,
      };
    } finally {
      await browser.close();
    }
  });
}

async function probeChecks(baseUrl: string, bare: ServerProcess): Promise<CheckResult[]> {
  const status = async (url: string, headers: Record<string, string> = {}) =>
    (await timedRequest(url, { headers })).status;
  return [
    await check('/healthz and /readyz answer 200', async () => {
      const [health, ready] = [await status(`${baseUrl}/healthz`), await status(`${baseUrl}/readyz`)];
      return { ok: health === 200 && ready === 200, detail: `healthz ${health}, readyz ${ready}` };
    }),
    await check('/metrics: 200 with the token, 401 without, 404 where METRICS_TOKEN is unset', async () => {
      const withToken = await timedRequest(`${baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const text = withToken.body.toString();
      const series = [
        'http_request_duration_seconds_bucket',
        'live_streams_open',
        'public_read_cache_lookups_total',
        'result_declarations_total',
        'visitor_flushes_total',
        'nodejs_eventloop_lag_seconds',
        'db_pool_connections',
      ].filter((name) => !text.includes(`# TYPE ${name.replace(/_bucket$/, '')} `));
      const without = await status(`${baseUrl}/metrics`);
      const unset = await status(`${bare.url}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` });
      return {
        ok: withToken.status === 200 && series.length === 0 && without === 401 && unset === 404,
        detail:
          `with token ${withToken.status} (${text.split('\n').length} lines` +
          `${series.length ? `; missing ${series.join(', ')}` : ''}), without ${without}, unset ${unset}`,
      };
    }),
  ];
}

/** Opens /api/events and resolves once the first bytes arrive; `ended` resolves when the server ends it. */
async function openStream(baseUrl: string): Promise<{ ended: Promise<void> }> {
  const { default: http } = await import('node:http');
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}/api/events`, (response) => {
        if (response.statusCode !== 200) reject(new Error(`stream answered ${response.statusCode}`));
        const ended = new Promise<void>((done) => response.on('close', () => done()));
        response.once('data', () => resolve({ ended }));
      })
      .on('error', reject);
  });
}

async function shutdownCheck(server: ServerProcess): Promise<CheckResult> {
  return check('SIGTERM with a live stream open: exits 0 within 10 s', async () => {
    const stream = await openStream(server.url);
    const started = Date.now();
    const exit = await server.stop();
    const took = Date.now() - started;
    await stream.ended;
    return {
      ok: exit.code === 0 && took < SHUTDOWN_LIMIT_MS,
      detail: `exit code ${exit.code}${exit.signal ? ` (signal ${exit.signal})` : ''} after ${took} ms`,
    };
  });
}

export const opsChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-ops-'));
  const file = path.join(dir, 'site.db');
  const seed = await seedDatabase(
    { kind: 'sqlite', file },
    { ghadis: 10, days: 60, admin: SEED_ADMIN, siteTimezone: settings.siteTimezone },
  );
  const common = {
    ADMIN_USERNAME: SEED_ADMIN.username,
    ADMIN_PASSWORD: SEED_ADMIN.password,
    SITE_TIMEZONE: settings.siteTimezone,
    LOG_LEVEL: 'warn',
  };
  const servers: ServerProcess[] = [];
  try {
    const site = await startServer({
      port: await freePort(),
      env: { ...common, DATABASE_URL: `sqlite:${file}`, METRICS_TOKEN },
    });
    servers.push(site);
    const bare = await startServer({
      port: await freePort(),
      env: { ...common, DATABASE_URL: `sqlite:${path.join(dir, 'bare.db')}` },
    });
    servers.push(bare);
    const token = await signIn(site.url, SEED_ADMIN, '10.11.0.1');
    return [
      await openApiCheck(site.url),
      await docsPageCheck(site.url),
      ...(await probeChecks(site.url, bare)),
      ...(await dataChecks({ site, token, seed, dir, env: common })),
      await shutdownCheck(site),
    ];
  } finally {
    for (const server of servers) await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
