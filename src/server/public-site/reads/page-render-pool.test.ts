import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PublicPageData } from '../../../shared/public-page-data.js';
import { PageRenderPool } from './page-render-pool.js';

/*
 * A stand-in for the built server bundle: renders the page's site name (and the process it ran in),
 * and on request throws, spins forever, or ends its process, so that each failure a real render
 * could meet can be made on purpose.
 */
const BUNDLE = `
export function renderPage(data) {
  const note = data.siteName;
  if (note === 'throw') throw new Error('no such page');
  if (note === 'exit') process.exit(3);
  if (note === 'spin') for (;;) {}
  return '<p>' + note + '</p><i>' + process.pid + '</i>' + 'ghadi '.repeat(400);
}
`;
const TEMPLATE =
  '<!doctype html><html lang="en"><head><!--page-head--></head><body><div id="root"><!--page-body--></div><!--page-data--></body></html>';

const log = pino({ level: 'silent' });
let folder: string;
let bundleUrl: string;
const pools: PageRenderPool[] = [];

const page = (note: string, compress = false) => ({
  data: {
    page: 'not-found',
    language: 'en',
    siteName: note,
    today: '2026-11-29',
    timeZone: 'Asia/Kolkata',
    ghadiNames: [],
  } satisfies PublicPageData,
  origin: null,
  compress,
});
/** The page's HTML, as the render process encoded it. */
async function render(pool: PageRenderPool, note: string): Promise<string> {
  return (await pool.renderPage(page(note))).identity.toString('utf8');
}
const processOf = (html: string) => Number(/<i>(\d+)<\/i>/.exec(html)?.[1]);

async function start(processes: number, deadlineMs = 10_000): Promise<PageRenderPool> {
  const pool = await PageRenderPool.start({ bundleUrl, template: TEMPLATE }, { processes, deadlineMs }, log);
  pools.push(pool);
  return pool;
}

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'render-pool-'));
  const file = path.join(folder, 'bundle.mjs');
  fs.writeFileSync(file, BUNDLE);
  bundleUrl = pathToFileURL(file).href;
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('PageRenderPool', () => {
  it('renders the page into the template in a process other than the server’s', async () => {
    const pool = await start(1);
    const html = await render(pool, 'home');
    expect(html).toMatch(/^<!doctype html><html lang="en"><head><title>/);
    expect(html).toContain('<div id="root"><p>home</p>');
    expect(html).toContain('<script type="application/json" id="page-data">{"page":"not-found"');
    expect(processOf(html)).not.toBe(process.pid);
  });

  it('compresses with brotli when asked, with the hash of the bytes sent', async () => {
    const pool = await start(1);
    const plain = await pool.renderPage(page('home'));
    expect(plain.br).toBeUndefined();
    const compressed = await pool.renderPage(page('home', true));
    expect(compressed.br).toBeInstanceOf(Buffer);
    expect(zlib.brotliDecompressSync(compressed.br as Buffer).equals(compressed.identity)).toBe(true);
    expect(compressed.br?.length).toBeLessThan(compressed.identity.length / 4);
    expect(compressed.hash).toBe(plain.hash);
  });

  it('sends a render to the process with the fewest in flight', async () => {
    const pool = await start(2);
    // Asked together, before either answers: the first leaves its process one in flight, so the
    // second goes to the other; no render needs to be slow for it.
    const [first, second] = await Promise.all([render(pool, 'first'), render(pool, 'second')]);
    expect(processOf(first)).not.toBe(processOf(second));
  });

  it('fails a render that throws, with its reason, and goes on rendering', async () => {
    const pool = await start(1);
    await expect(render(pool, 'throw')).rejects.toThrow(/no such page/);
    expect(await render(pool, 'after')).toContain('<p>after</p>');
  });

  it('replaces a process that exits: its renders fail, the next ones work', async () => {
    const pool = await start(1);
    const first = processOf(await render(pool, 'before'));
    await expect(render(pool, 'exit')).rejects.toThrow(/exited/);
    const after = processOf(await render(pool, 'after'));
    expect(after).not.toBe(first);
  });

  it('replaces a process stuck past the deadline', async () => {
    const pool = await start(1, 500);
    await expect(render(pool, 'spin')).rejects.toThrow(/deadline/);
    expect(await render(pool, 'after')).toContain('<p>after</p>');
  });

  it('refuses to start on a bundle that cannot load', async () => {
    const missing = pathToFileURL(path.join(folder, 'missing.mjs')).href;
    await expect(
      PageRenderPool.start({ bundleUrl: missing, template: TEMPLATE }, { processes: 1 }, log),
    ).rejects.toThrow();
  });
});
