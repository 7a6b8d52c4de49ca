import { beforeAll, describe, expect, it } from 'vitest';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createGhadi,
  loginAdmin,
  type Response,
  submitResult,
  today,
  unique,
  uniqueAddress,
} from '../support/factories.js';
import { sample } from '../support/prometheus-text.js';
import { DIALECTS, noteUnbuilt, useTestApp, WEB_BUILT } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

noteUnbuilt('public-cache-keys.test.ts');

const TOKEN = 'metrics-token-for-the-cache-key-tests';
const PER_MINUTE = 5;

/** The name with each letter's case chosen by the bits of `variant`. */
function respelled(name: string, variant: number): string {
  return [...name].map((letter, index) => ((variant >> index) & 1 ? letter.toUpperCase() : letter)).join('');
}

/**
 * What the public site keeps is named by what it is, not by how an address spelled it, and anything
 * built for one request goes through the per-address limit (PUBLIC_QUERIES_PER_MINUTE).
 */
describe.each(DIALECTS)('public answers kept under canonical keys [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, {
    env: { METRICS_TOKEN: TOKEN, PUBLIC_QUERIES_PER_MINUTE: String(PER_MINUTE) },
    now: clock.now,
    serveWebApp: WEB_BUILT,
  });
  let ghadi: GhadiRecord;
  let name: string;
  /** A ghadi of three words, and its name as the site spells it (lower case, spaces). */
  let words: GhadiRecord;
  let spaced: string;

  beforeAll(async () => {
    const token = await loginAdmin(t.app);
    ghadi = await createGhadi(t.app, token, { NameEn: unique('Spelling') });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '42', dateTime: today() });
    name = ghadi.NameEn.toLowerCase();
    words = await createGhadi(t.app, token, { NameEn: unique('Three Word ') });
    await submitResult(t.app, token, { ghadiId: words.GID, result: '43', dateTime: today() });
    spaced = words.NameEn.toLowerCase();
  });

  /** The name with each space a hyphen or not, by the bits of `variant`, and each letter's case by its index. */
  const hyphenated = (variant: number) => {
    let space = 0;
    return respelled(
      [...spaced].map((letter) => (letter === ' ' && (variant >> space++) & 1 ? '-' : letter)).join(''),
      variant * 7,
    );
  };

  const lookups = async (route: string) => {
    const text = (await call(t.app, { url: '/metrics', token: TOKEN })).body;
    const of = (outcome: string) => sample(text, 'public_read_cache_lookups_total', { route, outcome });
    return { hit: of('hit'), miss: of('miss') };
  };
  const expect429 = (response: Response) => {
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  };

  it("keeps one answer for every spelling of a ghadi's name", async () => {
    const route = '/api/results/:name';
    const first = await call(t.app, { url: `/api/results/${encodeURIComponent(name)}` });
    expect(first.statusCode).toBe(200);
    const before = await lookups(route);
    for (let variant = 1; variant <= 40; variant++) {
      const answer = await call(t.app, {
        url: `/api/results/${encodeURIComponent(respelled(name, variant))}`,
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(first.body);
    }
    const after = await lookups(route);
    expect(after.miss).toBe(before.miss);
    expect(after.hit).toBe(before.hit + 40);
  });

  it('keeps one answer for a ghadi whatever the spelling, hyphens for spaces included', async () => {
    const year = today().slice(0, 4);
    for (const [route, at] of [
      ['/api/results/:name', (spelling: string) => `/api/results/${encodeURIComponent(spelling)}`],
      [
        '/api/charts/:name/:year',
        (spelling: string) => `/api/charts/${encodeURIComponent(spelling)}/${year}`,
      ],
    ] as const) {
      const first = await call(t.app, { url: at(spaced) });
      expect(first.statusCode).toBe(200);
      const before = await lookups(route);
      for (let variant = 1; variant <= 12; variant++) {
        const answer = await call(t.app, { url: at(hyphenated(variant)) });
        expect(answer.statusCode, hyphenated(variant)).toBe(200);
        expect(answer.body).toBe(first.body);
      }
      const after = await lookups(route);
      expect(after.miss, route).toBe(before.miss);
      expect(after.hit, route).toBe(before.hit + 12);
    }
  });

  it("answers an unknown name per request, within the address's minute; known names stay unlimited", async () => {
    clock.toNextMinute();
    const address = uniqueAddress();
    const route = '/api/results/:name';
    const before = await lookups(route);
    for (let index = 0; index < PER_MINUTE; index++) {
      const answer = await call(t.app, { url: `/api/results/${unique('nobody')}`, remoteAddress: address });
      expect(answer.statusCode).toBe(404);
    }
    expect429(await call(t.app, { url: `/api/results/${unique('nobody')}`, remoteAddress: address }));
    // Made-up names were never looked up in (nor added to) the cache.
    expect(await lookups(route)).toEqual(before);
    expect(
      (await call(t.app, { url: `/api/results/${unique('nobody')}`, remoteAddress: uniqueAddress() }))
        .statusCode,
    ).toBe(404);
    for (let index = 0; index < PER_MINUTE + 2; index++) {
      const known = await call(t.app, {
        url: `/api/results/${encodeURIComponent(name)}`,
        remoteAddress: address,
      });
      expect(known.statusCode).toBe(200);
    }
    clock.toNextMinute();
    expect(
      (await call(t.app, { url: `/api/results/${unique('nobody')}`, remoteAddress: address })).statusCode,
    ).toBe(404);
  });

  it('keeps the windows of the declaration log a reader walks it by, and answers others per request', async () => {
    clock.toNextMinute();
    const address = uniqueAddress();
    const route = '/api/declarations';
    const aligned = await call(t.app, { url: '/api/declarations?after=0&limit=100', remoteAddress: address });
    expect(aligned.statusCode).toBe(200);
    const before = await lookups(route);
    for (let index = 0; index < PER_MINUTE + 2; index++) {
      const again = await call(t.app, { url: '/api/declarations?after=0&limit=100', remoteAddress: address });
      expect(again.body).toBe(aligned.body);
    }
    expect((await lookups(route)).hit).toBe(before.hit + PER_MINUTE + 2);

    const unaligned = [`after=7`, `after=0&limit=7`, `after=0&gid=${ghadi.GID}`, `after=0&date=2026-01-01`];
    for (const query of unaligned) {
      const answer = await call(t.app, { url: `/api/declarations?${query}`, remoteAddress: address });
      expect(answer.statusCode).toBe(200);
      expect(answer.json<{ head: { seq: number } }>().head.seq).toBe(
        aligned.json<{ head: { seq: number } }>().head.seq,
      );
    }
    expect(await lookups(route)).toEqual({ hit: before.hit + PER_MINUTE + 2, miss: before.miss });
    await call(t.app, { url: '/api/declarations?after=8', remoteAddress: address });
    expect429(await call(t.app, { url: '/api/declarations?after=9', remoteAddress: address }));
  });

  it.runIf(WEB_BUILT)(
    'redirects any other spelling of a ghadi page to the address the site links to',
    async () => {
      clock.toNextMinute();
      const canonical = `/satta-results/${encodeURIComponent(name)}`;
      expect((await call(t.app, { url: canonical })).statusCode).toBe(200);
      const moved = await call(t.app, {
        url: `/satta-results/${encodeURIComponent(respelled(name, 5))}?month=1&year=2026`,
      });
      expect(moved.statusCode).toBe(301);
      expect(moved.headers.location).toBe(`${canonical}?month=1&year=2026`);
      // Hyphens for spaces: the page, in both languages, and its year chart.
      const spacedPath = `/satta-results/${encodeURIComponent(spaced)}`;
      const year = today().slice(0, 4);
      for (const [asked, moved] of [
        [`/satta-results/${hyphenated(3)}`, spacedPath],
        [`/hi/satta-results/${hyphenated(1)}`, `/hi${spacedPath}`],
        [`/satta-results/${hyphenated(2)}/${year}`, `${spacedPath}/${year}`],
      ] as const) {
        const answer = await call(t.app, { url: asked });
        expect(answer.statusCode, asked).toBe(301);
        expect(answer.headers.location, asked).toBe(moved);
      }
      clock.toNextMinute();
      const unknown = await call(t.app, { url: `/satta-results/${unique('nobody')}` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.headers['content-type']).toMatch(/^text\/html/);
      // Far pages of the declaration log are made per request: a page past the end is a 404 page.
      expect((await call(t.app, { url: '/declarations?page=25' })).statusCode).toBe(404);
      expect((await call(t.app, { url: '/declarations?page=1' })).statusCode).toBe(200);
    },
  );

  it.runIf(WEB_BUILT)(
    'answers an address no route serves with a 404 page made per request, within the address’s minute',
    async () => {
      clock.toNextMinute();
      const address = uniqueAddress();
      for (let index = 0; index < PER_MINUTE; index++) {
        const answer = await call(t.app, { url: `/${unique('nowhere-')}`, remoteAddress: address });
        expect(answer.statusCode).toBe(404);
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
      }
      expect429(await call(t.app, { url: `/hi/${unique('nowhere-')}`, remoteAddress: address }));
      // The app's own addresses get its page, which is built once: never limited.
      const admin = await call(t.app, { url: '/admin/dashboard', remoteAddress: address });
      expect(admin.statusCode).toBe(200);
      expect(
        (await call(t.app, { url: `/${unique('nowhere-')}`, remoteAddress: uniqueAddress() })).statusCode,
      ).toBe(404);
    },
  );
});
