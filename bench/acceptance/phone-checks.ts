/**
 * Issue 32's "Done when", from outside, on a server of its own (node dist/server/server.js, a fresh
 * SQLite file, PUBLIC_URL set), its data made through the API (phone-site.ts):
 * - over HTTP: /favicon.ico is an image, an unknown address is a 404 page with the site's header, a
 *   hyphenated name reaches its ghadi (phone-http.ts);
 * - in Chromium at 360 and 1280 px: axe-core finds nothing on the public pages and every admin and
 *   agent screen; no floating element covers text or a link down the whole home page; the record
 *   chart's Day column stays put when it scrolls sideways; the ticker names a ghadi added after
 *   the start (phone-browser.ts);
 * - Lighthouse mobile on every public page kind, English and Hindi, on the runner's seeded site
 *   (not this group's small one: issue 46 wants 30 ghadis × two years, --days=730): performance
 *   ≥ 95, the other three 100 (phone-lighthouse.ts; alone as the phone-lighthouse group).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { browserChecks } from './phone-browser.js';
import { hyphenCheck, iconsCheck, notFoundCheck } from './phone-http.js';
import { lighthouseChecks } from './phone-lighthouse.js';
import { makePhoneSite } from './phone-site.js';
import type { AcceptanceChecks, CheckResult } from './types.js';

export const phoneChecks: AcceptanceChecks = async (context) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-phone-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let server: ServerProcess | undefined;
  try {
    server = await startServer({
      port,
      env: {
        DATABASE_URL: `sqlite:${path.join(dir, 'site.db')}`,
        ADMIN_USERNAME: context.admin.username,
        ADMIN_PASSWORD: context.admin.password,
        SITE_TIMEZONE: context.siteTimezone,
        LOGIN_MAX_FAILURES: String(context.loginMaxFailures),
        PUBLIC_URL: url,
        TRUST_PROXY: 'loopback',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      },
    });
    const site = await makePhoneSite(url, context);
    const results: CheckResult[] = [
      await iconsCheck(site),
      await notFoundCheck(site),
      await hyphenCheck(site),
    ];
    results.push(...(await browserChecks(site)));
    results.push(...(await lighthouseChecks(context)));
    return results;
  } catch (error) {
    const output = server?.output().slice(-2000) ?? '';
    return [{ name: 'the phone checks ran', ok: false, detail: `${(error as Error).message}\n${output}` }];
  } finally {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
