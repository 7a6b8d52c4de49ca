import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentBlockRecord } from '../../src/shared/schemas/content-blocks.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createContentBlock,
  createGhadi,
  loginAdmin,
  submitResult,
  today,
} from '../support/factories.js';
import { decode, fetchRaw, listen, openEvents, type Raw, type RawOptions } from '../support/http.js';
import { pollUntil } from '../support/poll-until.js';
import { sample } from '../support/prometheus-text.js';
import { freePort } from '../support/tcp-proxy.js';
import { createTestApp, DIALECTS, type TestApp, WEB_BUILT } from '../support/test-app.js';
import {
  documentedVcl,
  isHit,
  pointedAt,
  startVarnish,
  VARNISH_INSTALLED,
  VARNISHD,
  type Varnish,
} from '../support/varnish.js';

if (!VARNISH_INSTALLED) {
  process.stderr.write(
    `\n  varnish-front.test.ts: ${VARNISHD} (or varnishadm) is not installed, so the tests of the ` +
      'documented Varnish front are skipped (apt-get install varnish varnish-modules; .ci/run does).\n\n',
  );
}

const METRICS_TOKEN = 'metrics-token-for-the-varnish-tests';

/** The latest change the app had applied, and how many purges it had sent then. */
interface PurgeMark {
  version: number;
  sent: number;
}

/**
 * Debian's varnishd with the ```vcl block of docs/deployment.md, its backends pointed at the app (the
 * only change), in front of the app on a real port, which purges it (PURGE_URL). What reaches the app
 * is counted on its server (fast path included); what Varnish did is read from its answers.
 */
describe.skipIf(!VARNISH_INSTALLED).each(DIALECTS)(
  'Varnish as docs/deployment.md configures it [%s]',
  (dialect) => {
    let t: TestApp;
    let varnish: Varnish;
    let origin: string;
    let token: string;
    const ghadis: GhadiRecord[] = [];
    let block: ContentBlockRecord;
    /** Requests the app received, by path and query (the fast path's answers included). */
    const asked = new Map<string, number>();
    const forwardedFor = new Map<string, string | undefined>();
    const askedFor = (path: string) => asked.get(path) ?? 0;
    /** Where changes and purges stood when the suite's setup was done. */
    let setUp: PurgeMark;

    const get = (path: string, encoding?: string, options: RawOptions = {}) =>
      fetchRaw(varnish.url, path, {
        ...options,
        headers: { ...(encoding ? { 'accept-encoding': encoding } : {}), ...options.headers },
      });
    const todayOf = (raw: Raw, gid: number) => {
      const home = JSON.parse(decode(raw.body, raw.headers['content-encoding'] as string | undefined));
      return (home.data.ghadis as GhadiRecord[]).find((ghadi) => ghadi.GID === gid)?.TodayResult;
    };
    /** The id of the latest change the app has applied, as its answers say (Varnish strips it). */
    const appVersion = async () => Number((await fetchRaw(origin, '/api/site')).headers['x-change-id']);
    const purge = (keys: string, headers: Record<string, string> = {}, localAddress?: string) =>
      fetchRaw(varnish.url, '/', {
        method: 'PURGE',
        headers: { 'xkey-purge': keys, ...headers },
        ...(localAddress ? { localAddress } : {}),
      });

    const purgesSent = async () =>
      sample(
        (await call(t.app, { url: '/metrics', token: METRICS_TOKEN })).body,
        'public_cache_purges_total',
        { outcome: 'sent' },
      );
    /** Where the app's changes and purges stood; `purgesDelivered(mark)` waits for the ones since. */
    const purgeMark = async (): Promise<PurgeMark> => ({
      version: await appVersion(),
      sent: await purgesSent(),
    });
    /**
     * Resolves once Varnish has taken a purge for every change since `mark` (each change here names
     * keys), so that none of them lands in the middle of a test.
     */
    const purgesDelivered = async (mark: PurgeMark) => {
      const changes = (await appVersion()) - mark.version;
      await pollUntil('the purges of the changes so far', 10_000, async () =>
        (await purgesSent()) - mark.sent >= changes ? true : undefined,
      );
    };

    beforeAll(async () => {
      // Varnish's port is chosen first: the app is told where to purge before it starts.
      const port = await freePort();
      t = await createTestApp(dialect, {
        env: {
          PURGE_URL: `http://127.0.0.1:${port}/`,
          TRUST_PROXY: '127.0.0.1',
          METRICS_TOKEN,
        },
        serveWebApp: WEB_BUILT,
      });
      t.app.server.on('request', (request: IncomingMessage) => {
        const path = request.url ?? '';
        asked.set(path, askedFor(path) + 1);
        forwardedFor.set(path, request.headers['x-forwarded-for'] as string | undefined);
      });
      origin = await listen(t.app);
      // Up before the first write: a purge the cache missed would wait for the sender's back-off.
      varnish = await startVarnish(pointedAt(documentedVcl(), new URL(origin)), port);
      const mark = await purgeMark();
      token = await loginAdmin(t.app);
      for (let made = 0; made < 3; made++) ghadis.push(await createGhadi(t.app, token));
      block = await createContentBlock(t.app, token);
      await purgesDelivered(mark);
      setUp = await purgeMark();
    });

    afterAll(async () => {
      await varnish?.stop();
      await t?.close();
    });

    it('holds a public answer: the second read is a hit, and the cache’s own headers stay inside', async () => {
      const first = await get('/api/ghadis', 'br');
      const second = await get('/api/ghadis', 'br');
      expect([first.status, second.status]).toEqual([200, 200]);
      expect([isHit(first), isHit(second)]).toEqual([false, true]);
      expect(askedFor('/api/ghadis')).toBe(1);
      expect(second.body.equals(first.body)).toBe(true);
      for (const name of ['surrogate-key', 'cache-tag', 'xkey', 'x-change-id'])
        expect(second.headers[name], name).toBeUndefined();
      expect(second.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=/);
      // A browser's revalidation is answered by Varnish.
      const again = await get('/api/ghadis', 'br', {
        headers: { 'if-none-match': String(second.headers.etag) },
      });
      expect(again.status).toBe(304);
      expect(askedFor('/api/ghadis')).toBe(1);
      if (WEB_BUILT) {
        expect((await get('/', 'br')).status).toBe(200);
        expect(isHit(await get('/', 'gzip, deflate, br'))).toBe(true);
        expect(askedFor('/')).toBe(1);
      }
    });

    it('keeps one copy per encoding the app would choose: br, gzip or none', async () => {
      const asks = [
        ['gzip, deflate, br', 'br', false],
        ['br', 'br', true],
        ['gzip', 'gzip', false],
        ['gzip;q=1, br;q=0', 'gzip', true],
        [undefined, undefined, false],
        ['deflate', undefined, true],
      ] as const;
      const bodies = new Set<string>();
      for (const [accept, encoding, hit] of asks) {
        const answer = await get('/api/home', accept);
        expect(answer.headers['content-encoding'], String(accept)).toBe(encoding);
        expect(isHit(answer), String(accept)).toBe(hit);
        bodies.add(decode(answer.body, encoding));
      }
      expect(bodies.size).toBe(1);
      expect(askedFor('/api/home')).toBe(3);
    });

    it('shows a declaration within a second of the write; answers it does not touch stay held', async () => {
      const [ghadi] = ghadis as [GhadiRecord];
      const blockPath = `/api/contentblocks/slug/${block.Slug}`;
      await get(blockPath, 'br');
      expect(todayOf(await get('/api/home', 'br'), ghadi.GID)).not.toBe('57');
      const before = { home: askedFor('/api/home'), block: askedFor(blockPath) };
      await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '57', dateTime: today() });
      const written = performance.now();
      await pollUntil('the new value through Varnish', 1000, async () =>
        todayOf(await get('/api/home', 'br'), ghadi.GID) === '57' ? true : undefined,
      );
      expect(performance.now() - written).toBeLessThan(1000);
      // One request for the purged answer, however many readers asked meanwhile; none for the other.
      expect(askedFor('/api/home')).toBe(before.home + 1);
      const untouched = await get(blockPath, 'br');
      expect(isHit(untouched)).toBe(true);
      expect(askedFor(blockPath)).toBe(before.block);
    });

    it('holds no answer from a process behind the latest purged change', async () => {
      const [, ghadi] = ghadis as [GhadiRecord, GhadiRecord];
      // A purge for a change the app has not applied: as if another process had made it.
      const ahead = (await appVersion()) + 1;
      const purged = await purge('home', { 'x-change-id': String(ahead) });
      expect(purged.status).toBe(200);
      expect(Number(purged.headers['x-purged'])).toBeGreaterThanOrEqual(1);
      const from = askedFor('/api/home');
      // Each answer the app sends (its change id is lower) is served but not held: Varnish keeps asking.
      await pollUntil('three fetches of an answer Varnish does not hold', 10_000, async () => {
        expect((await get('/api/home')).status).toBe(200);
        return askedFor('/api/home') >= from + 3 ? true : undefined;
      });
      // The app's own next change is at least that far: its answers are held again.
      await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '63', dateTime: today() });
      expect(await appVersion()).toBeGreaterThanOrEqual(ahead);
      await pollUntil('the new value', 5000, async () =>
        todayOf(await get('/api/home'), ghadi.GID) === '63' ? true : undefined,
      );
      const held = askedFor('/api/home');
      for (let read = 0; read < 3; read++) expect(isHit(await get('/api/home'))).toBe(true);
      expect(askedFor('/api/home')).toBe(held);
    });

    it('takes purges only from its ACL, never through a proxy, and only with keys', async () => {
      expect((await purge('site', {}, '127.0.0.9')).status).toBe(403);
      expect((await purge('site', { 'x-forwarded-for': '127.0.0.1' })).status).toBe(403);
      const keyless = await fetchRaw(varnish.url, '/', { method: 'PURGE' });
      expect(keyless.status).toBe(400);
      const none = await purge('no-such-key');
      expect([none.status, none.headers['x-purged'], none.body.toString()]).toEqual([
        200,
        '0',
        'Purged 0 objects\n',
      ]);
    });

    it('passes authenticated reads and writes, with the client’s address for the app', async () => {
      const path = '/api/results';
      expect(isHit(await get(path))).toBe(false);
      expect(isHit(await get(path))).toBe(true);
      const from = askedFor(path);
      const authorization = `Bearer ${token}`;
      for (let read = 0; read < 2; read++) {
        const own = await get(path, 'br', { headers: { authorization } });
        expect(own.status).toBe(200);
        expect(own.headers['cache-control']).toBe('private, no-store');
      }
      expect(askedFor(path)).toBe(from + 2);
      // Varnish adds the address it saw to what it got; the app trusts Varnish (TRUST_PROXY) alone.
      const login = await fetchRaw(varnish.url, '/api/users/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
        body: JSON.stringify({ UserName: 'nobody-here', Password: 'not-a-password' }),
        localAddress: '127.0.0.5',
      });
      expect(login.status).toBe(401);
      expect(forwardedFor.get('/api/users/login')).toBe('203.0.113.7, 127.0.0.5');
    });

    it('delivers live events through Varnish as they are sent', async () => {
      const [, , ghadi] = ghadis as [GhadiRecord, GhadiRecord, GhadiRecord];
      const stream = await openEvents(varnish.url);
      try {
        await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '71', dateTime: today() });
        await stream.waitFor(
          (events) =>
            events.some((event) => {
              const data = event.data as { kind?: string; gid?: number };
              return data.kind === 'result' && data.gid === ghadi.GID;
            }),
          10_000,
        );
      } finally {
        stream.close();
      }
    });

    it('serves every answer it has seen while the app is away, and knows it is away', async () => {
      const [ghadi, , last] = ghadis as [GhadiRecord, GhadiRecord, GhadiRecord];
      await purgesDelivered(setUp);
      // Both copies held, with the latest declaration, before the app goes.
      for (const encoding of ['br', 'gzip'])
        await pollUntil(`a held ${encoding} copy`, 5000, async () => {
          const answer = await get('/api/home', encoding);
          return isHit(answer) && todayOf(answer, last.GID) === '71' ? true : undefined;
        });
      await t.app.close();
      // Everything is stale now, and the app cannot be asked again.
      expect((await purge('site')).status).toBe(200);
      const first = await get('/api/home', 'br');
      expect(first.status).toBe(200);
      expect(todayOf(first, ghadi.GID)).toBe('57');
      await pollUntil('the probe marking the app sick', 20_000, async () =>
        /\bsick\b/.test(await varnish.admin('backend.list')) ? true : undefined,
      );
      const later = await get('/api/home', 'gzip');
      expect([later.status, todayOf(later, ghadi.GID)]).toEqual([200, '57']);
      if (WEB_BUILT) expect((await get('/', 'br')).status).toBe(200);
      expect((await get('/api/contentblocks/slug/never-asked-for')).status).toBe(503);
    });
  },
);
