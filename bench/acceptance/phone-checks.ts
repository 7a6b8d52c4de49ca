/**
 * Issue 32's "Done when", from outside, on a server of its own (node dist/server/server.js, a fresh
 * SQLite file, PUBLIC_URL set), its data made through the API (phone-site.ts):
 * - over HTTP: /favicon.ico is an image, an unknown address is a 404 page with the site's header, a
 *   hyphenated name reaches its ghadi (phone-http.ts);
 * - in Chromium at 360 and 1280 px: axe-core finds nothing on the public pages and every admin and
 *   agent screen; no floating element covers text or a link down the whole home page; the record
 *   chart's Day column stays put when it scrolls sideways; the ticker names a ghadi added after
 *   the start (phone-browser.ts);
 * - Lighthouse mobile on / and a results page: performance ≥ 95, the other three 100
 *   (phone-lighthouse.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { browserChecks } from './phone-browser.js';
import { hyphenCheck, iconsCheck, notFoundCheck } from './phone-http.js';
import { lighthouseChecks } from './phone-lighthouse.js';
import { makePhoneSite } from './phone-site.js';
import type { CheckResult, StandaloneChecks } from './types.js';

export const phoneChecks: StandaloneChecks = async (settings) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-phone-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let server: ServerProcess | undefined;
  try {
    server = await startServer({
      port,
      env: {
        DATABASE_URL: `sqlite:${path.join(dir, 'site.db')}`,
        ADMIN_USERNAME: settings.admin.username,
        ADMIN_PASSWORD: settings.admin.password,
        SITE_TIMEZONE: settings.siteTimezone,
        LOGIN_MAX_FAILURES: String(settings.loginMaxFailures),
        PUBLIC_URL: url,
        TRUST_PROXY: 'loopback',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      },
    });
    const site = await makePhoneSite(url, settings);
    const results: CheckResult[] = [
      await iconsCheck(site),
      await notFoundCheck(site),
      await hyphenCheck(site),
    ];
    results.push(...(await browserChecks(site)));
    results.push(...(await lighthouseChecks(site)));
    return results;
  } catch (error) {
    const output = server?.output().slice(-2000) ?? '';
    return [{ name: 'the phone checks ran', ok: false, detail: `${(error as Error).message}\n${output}` }];
  } finally {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
