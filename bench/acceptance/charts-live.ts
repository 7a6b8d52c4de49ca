/**
 * The charts group's other checks: addresses with no chart answer the 404 page in their language;
 * /sitemap.xml (or its index's parts) lists each ghadi's year charts, the months with results and
 * the /hi twins; a year chart open in Chromium shows a result declared through the API with no
 * request, and its hydrated table still agrees cell by cell.
 */
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.js';
import { decode, LANGUAGES, yearTableProblems } from './charts-pages.js';
import { type ChartsSite, two, yearPath } from './charts-seed.js';
import { check } from './check.js';
import type { CheckResult } from './types.js';

/**
 * The page's document, as functions that run in the page see it (`globalThis as unknown as InPage`,
 * inline: they are sent as their source). The bench compiles without the DOM's types, and a function
 * given as text would need eval, which the site's CSP forbids.
 */
interface PageDocument {
  documentElement: { dataset: Record<string, string | undefined> };
  querySelector(
    selector: string,
  ): { childNodes: Iterable<{ nodeType: number; textContent: string | null }> } | null;
}
type InPage = { document: PageDocument };

const listed = (problems: string[]) =>
  `${problems.length} problems${problems.length ? `: ${problems.slice(0, 5).join('; ')}` : ''}`;

export async function notFoundCheck(site: ChartsSite): Promise<CheckResult> {
  return check('chart pages with no chart answer the 404 page, in each language', async () => {
    const [year = 0] = site.years.slice(-1);
    const name = site.mine[0]?.NameEn ?? '';
    const next = new Date(Date.UTC(year, Number(site.today.slice(5, 7)), 1)).toISOString().slice(0, 7);
    const paths = [
      `/satta-results/no-such-ghadi/${year}`,
      yearPath(name, 1999),
      yearPath(name, year + 1),
      yearPath(name, '20x5'),
      '/chart/1999-12',
      `/chart/${next}`,
      '/chart/2025-13',
    ];
    const wrong: string[] = [];
    for (const path of paths) {
      for (const [language, prefix] of LANGUAGES) {
        const answer = await site.get(prefix + path);
        const html = answer.body.toString();
        const right =
          answer.status === 404 &&
          String(answer.headers['content-type']).startsWith('text/html') &&
          html.includes(`<html lang="${language}">`);
        if (!right)
          wrong.push(
            `${prefix}${decodeURIComponent(path)} ${answer.status} ${answer.headers['content-type']}`,
          );
      }
    }
    const shown = paths.map((path) => decodeURIComponent(path).replace('/satta-results/', '')).join(', ');
    return {
      ok: wrong.length === 0,
      detail: `${paths.length * 2 - wrong.length}/${paths.length * 2} are 404 HTML pages in their language (${shown}, and /hi)${wrong.length ? `; wrong: ${wrong.join('; ')}` : ''}`,
    };
  });
}

export async function sitemapCheck(site: ChartsSite): Promise<CheckResult> {
  return check(
    '/sitemap.xml lists the year charts, the months with results and their /hi twins',
    async () => {
      const locations = (xml: string) =>
        [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => decode(match[1] ?? ''));
      const first = await site.get('/sitemap.xml');
      const root = first.body.toString();
      const indexed = root.includes('<sitemapindex');
      const urls = new Set(indexed ? [] : locations(root));
      for (const part of indexed ? locations(root) : []) {
        const answer = await site.get(part.replace(site.url, ''));
        for (const url of locations(answer.body.toString())) urls.add(url);
      }
      const [thisYear = 0] = site.years.slice(-1);
      const expected = [
        ...site.ghadis.flatMap((ghadi) =>
          [...new Set([...site.declared.yearsOf(ghadi.GID), thisYear])].map((year) =>
            yearPath(ghadi.NameEn, year),
          ),
        ),
        ...[...site.declared.months()].map((month) => `/chart/${month}`),
      ].flatMap((path) => [site.url + path, `${site.url}/hi${path}`]);
      const missing = expected.filter((url) => !urls.has(url));
      const empty = [...urls].filter((url) => url.endsWith(`/chart/${thisYear - 1}-02`)).length;
      return {
        ok: first.status === 200 && missing.length === 0,
        detail:
          `${first.status}, ${indexed ? 'a sitemap index' : 'one urlset'} of ${urls.size} URLs; ${expected.length - missing.length}/${expected.length} chart URLs expected found` +
          `${
            missing.length
              ? ` (missing: ${missing
                  .slice(0, 4)
                  .map((url) => decodeURIComponent(url.replace(site.url, '')))
                  .join(', ')}…)`
              : ''
          }; ` +
          `the month with no result (${thisYear - 1}-02) listed: ${empty > 0}`,
      };
    },
  );
}

export async function liveCheck(site: ChartsSite): Promise<CheckResult> {
  return check(
    'a year chart in Chromium shows a result declared through the API, with no request',
    async () => {
      const ghadi = site.mine[0];
      if (!ghadi) throw new Error('no ghadi');
      const browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: CHROMIUM_ARGS,
      });
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        const year = Number(site.today.slice(0, 4));
        await page.goto(site.url + yearPath(ghadi.NameEn, year));
        await page.waitForFunction(
          () => (globalThis as unknown as InPage).document.documentElement.dataset.live === 'open',
          null,
          {
            timeout: 15_000,
          },
        );
        await page.waitForTimeout(500); // the visit's tracking, sent at load, settles
        const requests: string[] = [];
        page.on('request', (request) =>
          requests.push(`${request.method()} ${new URL(request.url()).pathname}`),
        );
        // Today's row, this month's column (the row header is a th).
        const selector = `table tbody tr:nth-child(${Number(site.today.slice(8, 10))}) td:nth-of-type(${Number(site.today.slice(5, 7))})`;
        const before = (await page.locator(selector).textContent())?.trim();
        const value = two((Number(site.declared.cell(ghadi.GID, site.today)?.Result ?? 40) + 13) % 100);
        const started = Date.now();
        const status = await site.declare(site.agentToken, ghadi.GID, site.today, value);
        await page.waitForFunction(
          ([cellSelector, shown]) => {
            const nodes = [
              ...((globalThis as unknown as InPage).document.querySelector(cellSelector)?.childNodes ?? []),
            ];
            // The cell's own text: the correction mark and the words for screen readers are elements.
            const own = nodes.filter((node) => node.nodeType === 3).map((node) => node.textContent);
            return own.join('').trim() === shown;
          },
          [selector, value] as const,
          { timeout: 10_000 },
        );
        const shownMs = Date.now() - started;
        await page.waitForTimeout(300);
        // The whole hydrated table, read as the markup was: every cell as declared, the new one included.
        const [problems, cells] = yearTableProblems(
          `<table>${await page.locator('table').innerHTML()}</table>`,
          site,
          ghadi.GID,
          year,
        );
        return {
          ok: status === 200 && requests.length === 0 && problems.length === 0,
          detail:
            `${site.today}'s cell "${before}" → "${value}" ${shownMs} ms after the call (${status}); ${requests.length} requests meanwhile` +
            `${requests.length ? ` (${requests.join(', ')})` : ''}; the live table: ${cells} cells, ${listed(problems)}; ${errors.length} console errors${errors.length ? ` (${errors.slice(0, 2).join(' | ').slice(0, 200)})` : ''}`,
        };
      } finally {
        await browser.close();
      }
    },
  );
}
