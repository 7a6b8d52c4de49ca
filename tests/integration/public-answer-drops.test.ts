import { beforeAll, describe, expect, it } from 'vitest';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createContentBlock,
  createGhadi,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { sample } from '../support/prometheus-text.js';
import { DIALECTS, noteUnbuilt, useTestApp, WEB_BUILT } from '../support/test-app.js';

noteUnbuilt('public-answer-drops.test.ts');

const TOKEN = 'metrics-token-for-the-drop-tests';
/** A past year of results: its answers are a closed period's. */
const PAST = 2004;

/** A read: its address, and its route as the metrics name it. */
type Read = [path: string, route: string];

/**
 * A change drops the answers that show what it changed, and nothing else (answer-keys.ts); what it
 * dropped and readers read is rebuilt before the write answers. Told by the builds the metrics count.
 */
describe.each(DIALECTS)('what a change drops [%s]', (dialect) => {
  const t = useTestApp(dialect, {
    env: { METRICS_TOKEN: TOKEN, PUBLIC_QUERIES_PER_MINUTE: '100000' },
    serveWebApp: WEB_BUILT,
  });
  let token: string;
  let g: GhadiRecord;
  let h: GhadiRecord;
  const year = today().slice(0, 4);
  const month = today().slice(0, 7);
  const monthNumber = Number(month.slice(5));
  const nameOf = (ghadi: GhadiRecord) => encodeURIComponent(ghadi.NameEn.toLowerCase());

  beforeAll(async () => {
    token = await loginAdmin(t.app);
    g = await createGhadi(t.app, token, { NameEn: unique('Dropped G') });
    h = await createGhadi(t.app, token, { NameEn: unique('Kept H') });
    await submitResult(t.app, token, { ghadiId: g.GID, result: '11', dateTime: `${PAST}-03-05` });
    await submitResult(t.app, token, { ghadiId: h.GID, result: '12', dateTime: `${PAST}-05-06` });
    await submitResult(t.app, token, { ghadiId: g.GID, result: '21', dateTime: today() });
    await submitResult(t.app, token, { ghadiId: h.GID, result: '22', dateTime: today() });
  });

  const scrape = async () => (await call(t.app, { url: '/metrics', token: TOKEN })).body;
  /** Builds per route and kind since `before` (a scrape). */
  const builds = (before: string, after: string, route: string, kind: 'reader' | 'rebuild') =>
    sample(after, 'public_answer_builds_total', { route, kind }) -
    sample(before, 'public_answer_builds_total', { route, kind });
  /** Each read twice: built, then read again (so that a change has it rebuilt at once). */
  const readAll = async (reads: Read[]) => {
    const etags = new Map<string, string>();
    for (const [path] of reads) {
      expect((await call(t.app, { url: path })).statusCode, path).toBe(200);
      const again = await call(t.app, { url: path });
      etags.set(path, String(again.headers.etag));
    }
    return etags;
  };
  const expectRebuilt = (before: string, after: string, dropped: Read[], kept: Read[]) => {
    const routes = new Set([...dropped, ...kept].map(([, route]) => route));
    for (const route of routes) {
      const expected = dropped.filter(([, each]) => each === route).length;
      expect(builds(before, after, route, 'rebuild'), route).toBe(expected);
      expect(builds(before, after, route, 'reader'), route).toBe(0);
    }
  };
  const expectUnchanged = async (etags: Map<string, string>, kept: Read[]) => {
    for (const [path] of kept)
      expect(String((await call(t.app, { url: path })).headers.etag), path).toBe(etags.get(path));
  };

  const pages = (reads: Read[]) => (WEB_BUILT ? reads : []);

  it('a declaration for a ghadi on a date drops what shows that ghadi on that date, and nothing else', async () => {
    const dropped: Read[] = [
      [`/api/charts/${nameOf(g)}/${year}`, '/api/charts/:name/:year'],
      [`/api/charts/month/${month}`, '/api/charts/month/:month'],
      [`/api/results/${nameOf(g)}?month=${monthNumber}&year=${year}`, '/api/results/:name'],
      [`/api/results/${nameOf(g)}`, '/api/results/:name'],
      [`/api/results?month=${month}`, '/api/results'],
      ['/api/home', '/api/home'],
      ['/api/ghadis', '/api/ghadis'],
      ['/api/declarations/head', '/api/declarations/head'],
      ...pages([
        ['/', '/'],
        [`/hi/satta-results/${nameOf(g)}`, '/hi/satta-results/:name'],
        [`/satta-results/${nameOf(g)}/${year}`, '/satta-results/:name/:year'],
        [`/chart/${month}`, '/chart/:month'],
      ]),
    ];
    const kept: Read[] = [
      [`/api/charts/${nameOf(g)}/${PAST}`, '/api/charts/:name/:year'],
      [`/api/charts/${nameOf(h)}/${year}`, '/api/charts/:name/:year'],
      [`/api/charts/month/${PAST}-03`, '/api/charts/month/:month'],
      [`/api/results/${nameOf(h)}?month=${monthNumber}&year=${year}`, '/api/results/:name'],
      [`/api/results/${nameOf(h)}`, '/api/results/:name'],
      ['/api/site', '/api/site'],
      ...pages([
        [`/satta-results/${nameOf(g)}/${PAST}`, '/satta-results/:name/:year'],
        [`/satta-results/${nameOf(h)}/${year}`, '/satta-results/:name/:year'],
        [`/hi/chart/${PAST}-05`, '/hi/chart/:month'],
        [`/hi/satta-results/${nameOf(h)}`, '/hi/satta-results/:name'],
      ]),
    ];
    const etags = await readAll([...dropped, ...kept]);
    const before = await scrape();
    await submitResult(t.app, token, { ghadiId: g.GID, result: '77', dateTime: today() });
    const after = await scrape();
    expectRebuilt(before, after, dropped, kept);
    await expectUnchanged(etags, kept);
    // What was rebuilt shows the new value at once, to the writer first.
    const chart = (await call(t.app, { url: `/api/charts/${nameOf(g)}/${year}` })).json<{
      data: { months: Array<Array<{ Result: string } | null>> };
    }>();
    const [, m, d] = today().split('-').map(Number) as [number, number, number];
    expect(chart.data.months[m - 1]?.[d - 1]?.Result).toBe('77');
    const board = (await call(t.app, { url: '/api/ghadis' })).json<{ data: GhadiRecord[] }>();
    expect(board.data.find((row) => row.GID === g.GID)?.TodayResult).toBe('77');
  });

  it('a ghadi’s own fields drop its answers and the board; its place in the order, everything', async () => {
    // A ghadi of its own: what earlier tests read and did not read again since is not rebuilt.
    const k = await createGhadi(t.app, token, { NameEn: unique('Retimed K') });
    await submitResult(t.app, token, { ghadiId: k.GID, result: '31', dateTime: today() });
    const own: Read[] = [
      [`/api/charts/${nameOf(k)}/${year}`, '/api/charts/:name/:year'],
      [`/api/results/${nameOf(k)}`, '/api/results/:name'],
      ['/api/home', '/api/home'],
      ['/api/ghadis', '/api/ghadis'],
      ...pages([[`/satta-results/${nameOf(k)}`, '/satta-results/:name']]),
    ];
    const others: Read[] = [
      [`/api/charts/${nameOf(g)}/${year}`, '/api/charts/:name/:year'],
      [`/api/results/${nameOf(g)}`, '/api/results/:name'],
      [`/api/charts/month/${month}`, '/api/charts/month/:month'],
      ['/api/site', '/api/site'],
      ...pages([[`/satta-results/${nameOf(g)}`, '/satta-results/:name']]),
    ];
    const etags = await readAll([...own, ...others]);
    const fields = { NameEn: k.NameEn, NameHn: k.NameHn, OrderId: k.OrderId };
    let before = await scrape();
    const retimed = await call(t.app, {
      method: 'PUT',
      url: `/api/ghadis/${k.GID}`,
      token,
      body: { ...fields, RTime: '9:09 PM' },
    });
    expect(retimed.statusCode).toBe(200);
    expectRebuilt(before, await scrape(), own, others);
    await expectUnchanged(etags, others);

    await readAll([...own, ...others]);
    before = await scrape();
    const moved = await call(t.app, {
      method: 'PUT',
      url: `/api/ghadis/${k.GID}`,
      token,
      body: { ...fields, RTime: '9:09 PM', OrderId: k.OrderId + 100 },
    });
    expect(moved.statusCode).toBe(200);
    expectRebuilt(before, await scrape(), [...own, ...others], []);
  });

  it('a content block drops its own answer and the home page, nothing else', async () => {
    const block = await createContentBlock(t.app, token, { Slug: unique('drop-'), Content: '<p>one</p>' });
    const own: Read[] = [[`/api/contentblocks/slug/${block.Slug}`, '/api/contentblocks/slug/:slug']];
    const others: Read[] = [
      ['/api/ghadis', '/api/ghadis'],
      [`/api/charts/${nameOf(g)}/${year}`, '/api/charts/:name/:year'],
    ];
    await readAll([...own, ...others]);
    const before = await scrape();
    const saved = await call(t.app, {
      method: 'PUT',
      url: `/api/contentblocks/${block.id}`,
      token,
      body: { Title: block.Title, Slug: block.Slug, Content: '<p>two</p>', isActive: true },
    });
    expect(saved.statusCode).toBe(200);
    expectRebuilt(before, await scrape(), own, others);
    // Looked up in any case: one answer, kept under the slug as stored.
    const shouted = await call(t.app, { url: `/api/contentblocks/slug/${block.Slug.toUpperCase()}` });
    expect(shouted.json<{ data: { Content: string } }>().data.Content).toBe('<p>two</p>');
  });
});
