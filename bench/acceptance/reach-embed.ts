/**
 * Issue 44's embed, from outside: Chromium opens a page of another origin (a server of the checker's
 * own on another port) that frames /embed/{name} and /hi/embed/{name}; a value declared meanwhile
 * must arrive in both frames without a reload, and a results page framed the same way must stay
 * blank. The same browser checks the Atom feed is well-formed XML (DOMParser).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Frame, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.js';
import { check } from './check.js';
import type { ReachGhadi, ReachSite } from './reach-site.js';
import type { CheckResult } from './types.js';

const slugOf = (ghadi: ReachGhadi) => encodeURIComponent(ghadi.NameEn.toLowerCase());

async function hostOf(html: string) {
  const server = http.createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function frameOf(page: Page, title: string): Promise<Frame | null> {
  const handle = await page.waitForSelector(`iframe[title="${title}"]`);
  return handle.contentFrame();
}

export async function embedChecks(
  site: ReachSite,
  ghadi: ReachGhadi,
  declare: (value: string) => Promise<void>,
): Promise<CheckResult[]> {
  const slug = slugOf(ghadi);
  const frame = (path: string, title: string) =>
    `<iframe src="${site.url}${path}" title="${title}" width="360" height="240"></iframe>`;
  const host = await hostOf(
    `<!doctype html><title>Elsewhere</title>${frame(`/embed/${slug}`, 'en')}${frame(`/hi/embed/${slug}`, 'hi')}${frame(`/satta-results/${slug}`, 'page')}`,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const live = await check(
      'the embed in another origin’s iframe: a declared value arrives live, in both languages',
      async () => {
        await page.goto(host.origin);
        const [english, hindi] = [await frameOf(page, 'en'), await frameOf(page, 'hi')];
        if (!english || !hindi) throw new Error('a frame did not load');
        for (const framed of [english, hindi])
          await framed.waitForSelector('html[data-live="open"]', { timeout: 15_000 });
        const before = await english.locator('[data-today]').textContent();
        const loads: string[] = [];
        page.on('framenavigated', (navigated) => loads.push(navigated.url()));
        await declare('83');
        const arrived = await Promise.all(
          [english, hindi].map((framed) =>
            framed
              .waitForFunction(
                "document.querySelector('[data-today]')?.textContent?.trim() === '83'",
                undefined,
                {
                  timeout: 15_000,
                },
              )
              .then(
                () => true,
                () => false,
              ),
          ),
        );
        const back = await english.locator('a[target="_top"]').count();
        return {
          ok: arrived.every(Boolean) && loads.length === 0 && back > 0,
          detail: `before "${before?.trim()}", arrived en ${arrived[0]} hi ${arrived[1]}, reloads ${loads.length}, links back with target=_top ${back}`,
        };
      },
    );
    const refused = await check(
      'a results page framed by another origin stays blank (frame-ancestors)',
      async () => {
        const framed = await frameOf(page, 'page');
        const text = framed
          ? await framed.evaluate<string>("document.body ? document.body.innerText : ''").catch(() => '')
          : '';
        const embedHeaders = (await site.get(`/embed/${slug}`)).headers['content-security-policy'];
        const pageHeaders = (await site.get(`/satta-results/${slug}`)).headers['content-security-policy'];
        return {
          // Chromium shows its own error page in a refused frame ("… refused to connect"): not ours.
          ok:
            !text.includes(ghadi.NameEn) &&
            /frame-ancestors \*/.test(String(embedHeaders)) &&
            /frame-ancestors 'none'/.test(String(pageHeaders)),
          detail: `the framed page shows "${text.trim().slice(0, 60)}"; embed CSP frame-ancestors ${/frame-ancestors [^;]*/.exec(String(embedHeaders))?.[0]}; page ${/frame-ancestors [^;]*/.exec(String(pageHeaders))?.[0]}`,
        };
      },
    );
    const atom = await check('feed.xml parses as XML in Chromium (DOMParser), an Atom feed', async () => {
      const xml = (await site.get(`/satta-results/${slug}/feed.xml`)).body.toString('utf8');
      // A string, as the checker's own code has no DOM types: it runs in the page.
      const parsed = await page.evaluate<{ error: number; root: string; entries: number }>(`(() => {
        const doc = new DOMParser().parseFromString(${JSON.stringify(xml)}, 'application/xml');
        return {
          error: doc.getElementsByTagName('parsererror').length,
          root: doc.documentElement.namespaceURI,
          entries: doc.getElementsByTagName('entry').length,
        };
      })()`);
      return {
        ok: parsed.error === 0 && parsed.root === 'http://www.w3.org/2005/Atom' && parsed.entries > 0,
        detail: JSON.stringify(parsed),
      };
    });
    return [live, refused, atom];
  } finally {
    await browser.close();
    host.close();
  }
}
