/**
 * The phone group's checks in Chromium, at 360 × 740 and 1280 × 800: axe-core (WCAG 2.2 AA and best
 * practices) on the public pages and every admin and agent screen; no floating element over any
 * text or link while the home page scrolls to its end; the record chart's Day column in view when
 * the chart is scrolled sideways; the ticker naming a ghadi added while the page is open.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.js';
import { jsonOf } from '../lib/timed-request.js';
import { check } from './check.js';
import type { Account, PhoneSite } from './phone-site.js';
import type { CheckResult } from './types.js';

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const SIZES = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
];

/**
 * What functions run in the page see (`globalThis as unknown as InPage`, inline: they are sent as
 * their source). The bench compiles without the DOM's types.
 */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface InPageElement {
  tagName: string;
  textContent: string | null;
  parentElement: InPageElement | null;
  getBoundingClientRect(): Box;
  getAttribute(name: string): string | null;
  contains(node: unknown): boolean;
  querySelectorAll(selector: string): Iterable<InPageElement>;
}
interface InPage {
  document: {
    body: InPageElement;
    documentElement: { scrollHeight: number };
    querySelectorAll(selector: string): Iterable<InPageElement>;
    createTreeWalker(root: InPageElement, show: number): { nextNode(): InPageElement | null };
    createRange(): { selectNodeContents(node: unknown): void; getClientRects(): Iterable<Box> };
    elementFromPoint(x: number, y: number): InPageElement | null;
  };
  getComputedStyle(element: InPageElement): { position: string; display: string; visibility: string };
  innerHeight: number;
  scrollY: number;
  scrollTo(x: number, y: number): void;
}

async function signedIn(browser: Browser, site: PhoneSite, account: Account | null): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: site.url })).newPage();
  if (!account) return page;
  const answer = await site.call('/api/users/login', {
    method: 'POST',
    json: { UserName: account.username, Password: account.password },
  });
  const { user, token } = jsonOf<{ user: object; token: string }>(answer, 'login');
  await page.goto('/agent/login');
  await page.evaluate(
    (session) => {
      (
        globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
      ).localStorage.setItem('user', JSON.stringify(session));
    },
    { ...user, token },
  );
  return page;
}

/** Opens a screen and waits until it has its data (hydrated, no spinner). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 15_000 });
  await page.waitForFunction(
    () =>
      ![...(globalThis as unknown as InPage).document.querySelectorAll('[role="status"]')].some((status) =>
        status.textContent?.startsWith('Loading'),
      ),
    null,
    { timeout: 15_000 },
  );
}

export function axeCheck(browser: Browser, site: PhoneSite): Promise<CheckResult> {
  return check(
    'axe-core: 0 violations on the public pages and every admin and agent screen, at 360 and 1280 px',
    async () => {
      const ncr = '/satta-results/ncr';
      const areas: Array<[Account | null, string[]]> = [
        [null, ['/', '/hi', ncr, '/declarations', '/nope', '/admin/login', '/agent/login']],
        [
          site.admin,
          ['dashboard', 'agents', 'ghadi', 'results', 'assign-ghadi', 'content-blocks', 'activity'].map(
            (screen) => `/admin/${screen}`,
          ),
        ],
        [site.agent, ['/agent/dashboard', '/agent/ghadi-results']],
        [site.lonely, ['/agent/dashboard']],
      ];
      const violations: string[] = [];
      let audits = 0;
      for (const [account, paths] of areas) {
        const page = await signedIn(browser, site, account);
        for (const path of paths) {
          await open(page, path);
          for (const size of SIZES) {
            await page.setViewportSize(size);
            const result = await new AxeBuilder({ page })
              .withTags(AXE_TAGS)
              .options({ resultTypes: ['violations'] })
              .analyze();
            audits++;
            for (const violation of result.violations)
              violations.push(
                `${account?.username ?? 'visitor'} ${path} @${size.width}: ${violation.id} ×${violation.nodes.length}`,
              );
          }
        }
        await page.context().close();
      }
      return {
        ok: violations.length === 0,
        detail: `${audits} audits (${audits / 2} screens × 2 widths; an agent with no ghadi among them): ${violations.length} violations${violations.length ? `: ${violations.slice(0, 6).join('; ')}` : ''}`,
      };
    },
  );
}

/**
 * Every fixed element's links and buttons against every text line and control in view. Written
 * without inner named functions: tsx would wrap them in a helper (__name) the page does not have.
 */
function overlapsInView(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = globalThis as unknown as InPage;
    const fixed = [...w.document.querySelectorAll('body *')].filter((element) => {
      const style = w.getComputedStyle(element);
      return style.position === 'fixed' && style.display !== 'none' && style.visibility !== 'hidden';
    });
    const floating = fixed.flatMap((element) => [...element.querySelectorAll('a, button')]);
    const boxes: Array<{ label: string; box: Box }> = [];
    const walker = w.document.createTreeWalker(w.document.body, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || fixed.some((element) => element.contains(node))) continue;
      const range = w.document.createRange();
      range.selectNodeContents(node);
      for (const box of range.getClientRects())
        boxes.push({ label: node.textContent.trim().slice(0, 30), box });
    }
    for (const control of w.document.querySelectorAll('a, button, input, select, [tabindex]'))
      if (!fixed.some((element) => element.contains(control)))
        boxes.push({ label: `<${control.tagName.toLowerCase()}>`, box: control.getBoundingClientRect() });
    const found: string[] = [];
    for (const element of floating) {
      const box = element.getBoundingClientRect();
      for (const target of boxes) {
        const shown =
          target.box.width > 0 &&
          target.box.height > 0 &&
          target.box.bottom > 0 &&
          target.box.top < w.innerHeight;
        const width = Math.min(box.right, target.box.right) - Math.max(box.left, target.box.left);
        const height = Math.min(box.bottom, target.box.bottom) - Math.max(box.top, target.box.top);
        if (shown && width > 0.5 && height > 0.5)
          found.push(
            `${element.getAttribute('aria-label')} over "${target.label}" at ${Math.round(w.scrollY)}`,
          );
      }
    }
    return found;
  });
}

export function overlapCheck(browser: Browser, site: PhoneSite): Promise<CheckResult> {
  return check(
    'no floating element overlaps any text or link while the home page scrolls to its end',
    async () => {
      const page = await signedIn(browser, site, null);
      const seen: string[] = [];
      const overlaps: string[] = [];
      try {
        for (const size of SIZES) {
          await page.setViewportSize(size);
          await open(page, '/');
          const floating = await page
            .getByRole('navigation', { name: 'Share' })
            .evaluate(
              (element) =>
                (globalThis as unknown as InPage).getComputedStyle(element as InPageElement).position,
            );
          const end = () =>
            page.evaluate(() => {
              const w = globalThis as unknown as InPage;
              return w.document.documentElement.scrollHeight - w.innerHeight;
            });
          let steps = 0;
          for (let y = 0; ; y = Math.min(await end(), y + Math.round(size.height / 3))) {
            await page.evaluate((top) => (globalThis as unknown as InPage).scrollTo(0, top), y);
            await page.waitForTimeout(50);
            overlaps.push(...(await overlapsInView(page)).map((overlap) => `${size.width}: ${overlap}`));
            steps++;
            if (y >= (await end())) break;
          }
          seen.push(`${size.width} px: share buttons ${floating}, ${steps} positions to ${await end()} px`);
        }
      } finally {
        await page.context().close();
      }
      return {
        ok: overlaps.length === 0,
        detail: `${seen.join('; ')}; ${overlaps.length} overlaps${overlaps.length ? `: ${overlaps.slice(0, 5).join('; ')}` : ''}`,
      };
    },
  );
}

export function stickyDayCheck(browser: Browser, site: PhoneSite): Promise<CheckResult> {
  return check(
    'the record chart’s Day column stays in view when the chart is scrolled sideways (360 px)',
    async () => {
      const page = await signedIn(browser, site, null);
      try {
        await page.setViewportSize(SIZES[0] ?? { width: 360, height: 740 });
        await open(page, '/');
        const region = page.getByRole('region', { name: /^Record chart – / });
        // Its first rows in view: the page scrolls, not the box.
        await region.evaluate((element) =>
          (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({
            block: 'start',
          }),
        );
        const day = region.locator('tbody th').first();
        const before = await day.boundingBox();
        const overflow = await region.evaluate((element) => {
          const box = element as unknown as { scrollWidth: number; clientWidth: number; scrollLeft: number };
          box.scrollLeft = box.scrollWidth;
          return box.scrollWidth - box.clientWidth;
        });
        await page.waitForTimeout(50);
        const after = await day.boundingBox();
        const onTop = await day.evaluate((cell) => {
          const element = cell as unknown as InPageElement;
          const box = element.getBoundingClientRect();
          const top = (globalThis as unknown as InPage).document.elementFromPoint(
            box.left + box.width / 2,
            box.top + box.height / 2,
          );
          return top === element || element.contains(top) ? 'the cell' : (top?.tagName ?? 'nothing');
        });
        const moved = Math.abs((after?.x ?? 0) - (before?.x ?? 0));
        return {
          ok: overflow > 50 && moved < 1 && onTop === 'the cell' && (after?.x ?? -1) >= 0,
          detail: `scrolled ${overflow} px sideways; the Day cell moved ${moved.toFixed(1)} px (x ${after?.x.toFixed(1)}); at its centre: ${onTop}`,
        };
      } finally {
        await page.context().close();
      }
    },
  );
}

export function tickerCheck(browser: Browser, site: PhoneSite): Promise<CheckResult> {
  return check(
    'the ticker names a ghadi added after the server started, live and after a reload',
    async () => {
      const page = await signedIn(browser, site, null);
      try {
        await open(page, '/');
        await page.waitForFunction(
          () =>
            (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } })
              .document.documentElement.dataset.live === 'open',
          null,
          { timeout: 15_000 },
        );
        const strip = page.getByRole('region', { name: 'Keywords' });
        const name = `Late Phone ${Date.now().toString(36)}`;
        const started = Date.now();
        const made = await site.call('/api/ghadis', {
          method: 'POST',
          json: { NameEn: name, NameHn: 'लेट फ़ोन', RTime: '11:55 PM', OrderId: 900 },
        });
        await strip.getByText(`${name} Result`).first().waitFor({ state: 'attached', timeout: 10_000 });
        const live = Date.now() - started;
        await open(page, '/');
        const afterReload = await strip.getByText(`${name} Result`).count();
        return {
          ok: made.status === 201 && afterReload > 0,
          detail: `POST /api/ghadis ${made.status}; the open page's ticker named it ${live} ms later; after a reload ${afterReload > 0}`,
        };
      } finally {
        await page.context().close();
      }
    },
  );
}

export async function browserChecks(site: PhoneSite): Promise<CheckResult[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    return [
      await axeCheck(browser, site),
      await overlapCheck(browser, site),
      await stickyDayCheck(browser, site),
      await tickerCheck(browser, site),
    ];
  } finally {
    await browser.close();
  }
}
