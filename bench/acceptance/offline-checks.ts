/**
 * Issue 35's "Done when", from outside, on servers of the group's own (node dist/server/server.js):
 * - Chromium as an agent on a phone, on one server and a fresh SQLite file: results declared offline
 *   wait, survive a reload, and are saved once; an answer lost after the write is retried with its
 *   key and written once; the app is installable (offline-browser.ts);
 * - Idempotency-Key over HTTP on two processes sharing one database, PostgreSQL (a fresh database at
 *   ACCEPTANCE_DATABASE_URL or the test suite's, dropped after) then one SQLite file (offline-keys.ts).
 * The admin makes each site's agent and ghadis through the API (offline-site.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTemporaryDatabase } from '../lib/postgres.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { browserChecks } from './offline-browser.js';
import { keyChecks } from './offline-keys.js';
import { makeSite } from './offline-site.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

function serverEnv(settings: CheckSettings, databaseUrl: string, publicUrl: string): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl,
    ADMIN_USERNAME: settings.admin.username,
    ADMIN_PASSWORD: settings.admin.password,
    SITE_TIMEZONE: settings.siteTimezone,
    LOGIN_MAX_FAILURES: String(settings.loginMaxFailures),
    PUBLIC_URL: publicUrl,
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    WORKERS: '1',
  };
}

/** The browser checks, on a server of their own and a fresh SQLite file. */
async function inChromium(settings: CheckSettings): Promise<CheckResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-offline-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let server: ServerProcess | undefined;
  try {
    server = await startServer({
      port,
      env: serverEnv(settings, `sqlite:${path.join(dir, 'site.db')}`, url),
    });
    return await browserChecks(await makeSite(url, settings, 3));
  } catch (error) {
    const output = server?.output().slice(-2000) ?? '';
    return [
      { name: 'Chromium: the checks ran', ok: false, detail: `${(error as Error).message}\n${output}` },
    ];
  } finally {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The HTTP checks on two processes started at once on `databaseUrl`. */
async function onPair(label: string, databaseUrl: string, settings: CheckSettings): Promise<CheckResult[]> {
  const [portA, portB] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${portA}`;
  const env = serverEnv(settings, databaseUrl, origin);
  const servers: ServerProcess[] = [];
  try {
    const started = await Promise.allSettled([
      startServer({ port: portA, env }),
      startServer({ port: portB, env }),
    ]);
    for (const one of started) if (one.status === 'fulfilled') servers.push(one.value);
    const failed = started.find((one) => one.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const site = await makeSite(origin, settings, 5);
    const results = await keyChecks({ site, b: `http://127.0.0.1:${portB}` });
    return results.map((result) => ({ ...result, name: `${label}: ${result.name}` }));
  } catch (error) {
    const output = servers.map((server) => server.output().slice(-2000)).join('\n');
    return [
      { name: `${label}: the checks ran`, ok: false, detail: `${(error as Error).message}\n${output}` },
    ];
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

export const offlineChecks: StandaloneChecks = async (settings) => {
  const results = await inChromium(settings);
  try {
    const database = await createTemporaryDatabase('accept_offline');
    try {
      results.push(...(await onPair(`PostgreSQL (${database.name}), A and B`, database.url, settings)));
    } finally {
      await database.drop();
    }
  } catch (error) {
    results.push({ name: 'PostgreSQL: a fresh database', ok: false, detail: (error as Error).message });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-offline-pair-'));
  try {
    results.push(
      ...(await onPair('SQLite (one file), A and B', `sqlite:${path.join(dir, 'shared.db')}`, settings)),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
};
