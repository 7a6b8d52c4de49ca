import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../src/shared/live-events.js';
import type { ContentBlockRecord } from '../../src/shared/schemas/content-blocks.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../src/shared/schemas/results.js';
import {
  call,
  createContentBlock,
  createGhadi,
  daysFromToday,
  expectStatus,
  type List,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { type EventStream, listen, openEvents, type ReceivedEvent } from '../support/http.js';
import { pollUntil } from '../support/poll-until.js';
import { createTestApp, DIALECTS, type TestApp } from '../support/test-app.js';

const kindOf = (event: ReceivedEvent) => (event.data as LiveEvent).kind;
const hasKind = (kind: LiveEvent['kind']) => (events: ReceivedEvent[]) =>
  events.some((e) => kindOf(e) === kind);
const last = <T>(events: ReceivedEvent[]) => events[events.length - 1]?.data as T;
/** A result event of this ghadi with this value (events of earlier writes may still be on their way). */
const resultEvent = (gid: number, value: string) => (event: ReceivedEvent) => {
  const data = event.data as LiveEvent;
  return data.kind === 'result' && data.gid === gid && data.result?.Result === value;
};

describe.each(DIALECTS)('live events [%s]', (dialect) => {
  let own: TestApp;
  let base: string;
  let adminToken: string;
  const streams: EventStream[] = [];
  const open = async (options: Parameters<typeof openEvents>[1] = {}) => {
    const stream = await openEvents(base, options);
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    own = await createTestApp(dialect);
    base = await listen(own.app);
    adminToken = await loginAdmin(own.app);
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await own?.close();
  });

  const publicRow = async (app: FastifyInstance, gid: number) =>
    expectStatus<List<GhadiRecord>>(await call(app, { url: '/api/ghadis' }), 200).data.find(
      (g) => g.GID === gid,
    );

  it('a declared result arrives with the ghadi’s row and the result, as the public API now shows them', async () => {
    const ghadi = await createGhadi(own.app, adminToken);
    await submitResult(own.app, adminToken, {
      ghadiId: ghadi.GID,
      result: '18',
      dateTime: daysFromToday(-1),
    });
    const stream = await open();
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers['content-encoding']).toBeUndefined();
    await submitResult(own.app, adminToken, { ghadiId: ghadi.GID, result: '27', dateTime: today() });
    const isIt = resultEvent(ghadi.GID, '27');
    const event = (await stream.waitFor((events) => events.some(isIt))).find(isIt);
    const data = event?.data as Extract<LiveEvent, { kind: 'result' }>;
    expect(data.ghadi).toEqual(await publicRow(own.app, ghadi.GID));
    expect(data.ghadi).toMatchObject({ TodayResult: '27', YesterdayResult: '18' });
    const listed = expectStatus<List<PublicResultRecord>>(
      await call(own.app, { url: `/api/results?month=${today().slice(0, 7)}` }),
      200,
    ).data.find((row) => row.GID === ghadi.GID && row.Date === today());
    expect(data.result).toEqual(listed);
    expect(event?.id).toBeGreaterThan(0);
  });

  it('ghadi and content changes carry their rows, and their removal as null', async () => {
    const stream = await open();
    // An event carries what the API shows when it is built, which may be after a later change: each
    // change waits for its event, so that every event shows its own change.
    const changed = (count: number) =>
      stream.waitFor((received) => received.filter((e) => kindOf(e) !== 'result').length >= count);
    const ghadi = await createGhadi(own.app, adminToken, { NameEn: unique('Live ') });
    await changed(1);
    await call(own.app, {
      method: 'PUT',
      url: `/api/ghadis/${ghadi._id}`,
      token: adminToken,
      body: {
        NameEn: `${ghadi.NameEn} Two`,
        NameHn: ghadi.NameHn,
        RTime: ghadi.RTime,
        OrderId: ghadi.OrderId,
      },
    });
    await changed(2);
    await call(own.app, { method: 'DELETE', url: `/api/ghadis/${ghadi._id}`, token: adminToken });
    await changed(3);
    const slug = unique('live-');
    const block = await createContentBlock(own.app, adminToken, { Slug: slug, Content: '<p>hi</p>' });
    await changed(4);
    await call(own.app, { method: 'DELETE', url: `/api/contentblocks/${block._id}`, token: adminToken });

    const events = await changed(5);
    const data = events.map((event) => event.data as LiveEvent);
    expect(data.slice(0, 5).map((event) => event.kind)).toEqual([
      'ghadi',
      'ghadi',
      'ghadi',
      'content',
      'content',
    ]);
    expect(data[0]).toMatchObject({ kind: 'ghadi', gid: ghadi.GID, ghadi: { NameEn: ghadi.NameEn } });
    expect(data[1]).toMatchObject({ ghadi: { NameEn: `${ghadi.NameEn} Two` } });
    expect(data[2]).toEqual({ kind: 'ghadi', gid: ghadi.GID, ghadi: null });
    const created = data[3] as Extract<LiveEvent, { kind: 'content' }>;
    const answer = expectStatus<{ data: ContentBlockRecord }>(
      await call(own.app, { url: `/api/contentblocks/slug/${slug}` }),
      404,
    );
    expect(answer).toMatchObject({ success: false });
    expect(created.block).toMatchObject({ Slug: slug, Content: '<p>hi</p>' });
    expect(data[4]).toEqual({ kind: 'content', slug, block: null });
    // Ids grow with every change.
    const ids = events.map((event) => event.id ?? 0);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a page reconnecting with Last-Event-ID, or opening at its version, gets exactly what it missed', async () => {
    const ghadi = await createGhadi(own.app, adminToken);
    const first = await open();
    await submitResult(own.app, adminToken, { ghadiId: ghadi.GID, result: '01', dateTime: today() });
    const isFirst = resultEvent(ghadi.GID, '01');
    const seen = (await first.waitFor((events) => events.some(isFirst))).find(isFirst);
    first.close();
    await submitResult(own.app, adminToken, { ghadiId: ghadi.GID, result: '02', dateTime: today() });
    await submitResult(own.app, adminToken, { ghadiId: ghadi.GID, result: '03', dateTime: today() });

    for (const options of [
      { headers: { 'last-event-id': String(seen?.id) } },
      { query: `since=${seen?.id}` },
    ]) {
      const back = await open(options);
      const missed = await back.waitFor((events) => events.length >= 2);
      expect(missed.map((event) => (event.data as { ghadi: GhadiRecord }).ghadi.TodayResult)).toEqual([
        '02',
        '03',
      ]);
      expect(missed.map((event) => event.id)).toEqual([(seen?.id ?? 0) + 1, (seen?.id ?? 0) + 2]);
    }
    // Up to date: nothing to replay. The first event it gets is the next change, whose id follows.
    const current = await open({ query: `since=${(seen?.id ?? 0) + 2}` });
    await submitResult(own.app, adminToken, { ghadiId: ghadi.GID, result: '04', dateTime: today() });
    const [next] = await current.waitFor((events) => events.length >= 1);
    expect(next?.id).toBe((seen?.id ?? 0) + 3);
    expect((next?.data as { ghadi?: GhadiRecord } | undefined)?.ghadi?.TodayResult).toBe('04');
  });

  it('a page further behind than the server remembers (or with an id it never gave) gets one resync', async () => {
    const ghadi = await createGhadi(own.app, adminToken);
    await submitResult(own.app, adminToken, { ghadiId: ghadi.GID, result: '04', dateTime: today() });
    // A restarted server remembers nothing before its start.
    await own.restart();
    base = await listen(own.app);
    adminToken = await loginAdmin(own.app);
    for (const options of [{ query: 'since=1' }, { headers: { 'last-event-id': 'not-a-number' } }]) {
      const behind = await open(options);
      const [event] = await behind.waitFor((events) => events.length >= 1);
      expect(event?.data).toEqual({ kind: 'resync' });
      behind.close();
    }
  });

  it('answers a client address’s 21st stream with 429 and Retry-After; other addresses still get theirs', async () => {
    const localAddress = '127.0.0.21';
    const held: EventStream[] = [];
    try {
      for (let index = 0; index < 20; index++) held.push(await openEvents(base, { localAddress }));
      const refused = await openEvents(base, { localAddress }).catch(
        (error: { status: number; headers: Record<string, string> }) => error,
      );
      expect(refused).toMatchObject({ status: 429 });
      expect((refused as { headers: Record<string, string> }).headers['retry-after']).toBe('60');
      const other = await openEvents(base, { localAddress: '127.0.0.22' });
      other.close();
      // A stream closed frees its place (once the server has seen it close).
      held.pop()?.close();
      const reopened = await pollUntil('a place freed by a closed stream', 3000, () =>
        openEvents(base, { localAddress }).catch(() => undefined),
      );
      reopened.close();
    } finally {
      for (const stream of held) stream.close();
    }
  });

  it('the new day goes out as an event with today, every ghadi’s row and the record month', async () => {
    const ghadi = await createGhadi(own.app, adminToken);
    await submitResult(own.app, adminToken, { ghadiId: ghadi.GID, result: '55', dateTime: today() });
    const stream = await open();
    try {
      // Only Date is faked: the database drivers keep their real timers.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 60 * 60 * 1000 });
      await call(own.app, { url: '/api/ghadis' });
      const events = await stream.waitFor(hasKind('day'));
      const day = last<Extract<LiveEvent, { kind: 'day' }>>(events.filter((e) => kindOf(e) === 'day'));
      expect(day.today).toBe(today());
      expect(day.recordMonth).toBe(new Date().toISOString().slice(0, 7));
      expect(day.ghadis.find((row) => row.GID === ghadi.GID)).toMatchObject({
        TodayResult: '',
        YesterdayResult: '55',
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.each(DIALECTS)('live streams behind a proxy [%s]', (dialect) => {
  const PROXY = '127.0.0.1';

  it('count the address the proxy appended, not what the client wrote before it', async () => {
    const own = await createTestApp(dialect, { env: { TRUST_PROXY: PROXY } });
    const held: EventStream[] = [];
    /** 200 for a stream opened (and held), else the status it was refused with. */
    const statusOf = (opening: Promise<EventStream>) =>
      opening.then(
        (stream) => {
          held.push(stream);
          return 200;
        },
        (error: { status: number }) => error.status,
      );
    try {
      const base = await listen(own.app);
      // As a proxy that appends to the client's X-Forwarded-For (nginx's $proxy_add_x_forwarded_for).
      const viaProxy = (written: string, client: string) =>
        statusOf(
          openEvents(base, { localAddress: PROXY, headers: { 'x-forwarded-for': `${written}, ${client}` } }),
        );
      for (let index = 1; index <= 20; index++) {
        expect(await viaProxy(`198.51.100.${index}`, '203.0.113.31')).toBe(200);
      }
      expect(await viaProxy('198.51.100.99', '203.0.113.31')).toBe(429);
      // Another client behind the same proxy has streams of its own.
      expect(await viaProxy('198.51.100.1', '203.0.113.32')).toBe(200);

      // A client that reaches the app without the proxy is its socket's address, whatever it writes.
      const direct = (written: string) =>
        statusOf(openEvents(base, { localAddress: '127.0.0.33', headers: { 'x-forwarded-for': written } }));
      for (let index = 1; index <= 20; index++) expect(await direct(`198.51.100.${index}`)).toBe(200);
      expect(await direct('198.51.100.99')).toBe(429);
    } finally {
      for (const stream of held) stream.close();
      await own.close();
    }
  });
});

describe.each(DIALECTS)('live stream lifetime and shutdown [%s]', (dialect) => {
  it('a stream ends after its lifetime (the browser then reconnects with Last-Event-ID)', async () => {
    const own = await createTestApp(dialect, { liveEvents: { lifetimeMs: 300, heartbeatMs: 100 } });
    try {
      const base = await listen(own.app);
      const token = await loginAdmin(own.app);
      const ghadi = await createGhadi(own.app, token);
      const short = await openEvents(base);
      await submitResult(own.app, token, { ghadiId: ghadi.GID, result: '07', dateTime: today() });
      const seen = (await short.waitFor((events) => events.some(resultEvent(ghadi.GID, '07')))).find(
        resultEvent(ghadi.GID, '07'),
      );
      // The server ends it (a test whose stream never ended would time out here), cleanly, after it
      // had lived past heartbeats: its lifetime, not a failure.
      await short.ended;
      expect(short.response.complete).toBe(true);
      expect(short.heartbeats).toBeGreaterThan(0);
      // What came after the end reaches the browser that reconnects with the last id it saw.
      await submitResult(own.app, token, { ghadiId: ghadi.GID, result: '08', dateTime: today() });
      const back = await openEvents(base, { headers: { 'last-event-id': String(seen?.id) } });
      try {
        const [missed] = await back.waitFor((events) => events.length >= 1);
        expect(missed?.id).toBe((seen?.id ?? 0) + 1);
        expect((missed?.data as { ghadi?: GhadiRecord } | undefined)?.ghadi?.TodayResult).toBe('08');
      } finally {
        back.close();
      }
    } finally {
      await own.close();
    }
  });

  it('app.close() ends open streams at once instead of waiting for them', async () => {
    const own = await createTestApp(dialect);
    let closed = false;
    try {
      const lingering = await openEvents(await listen(own.app), { query: 'since=0' });
      const started = Date.now();
      await own.close();
      closed = true;
      await lingering.ended;
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      if (!closed) await own.close();
    }
  });
});
