import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import { IDEMPOTENCY_KEY_TTL_MS } from '../../src/server/modules/idempotency/idempotency-keys.js';
import type { LiveEvent } from '../../src/shared/live-events.js';
import type { DeclarationEntry, ResultHistoryEntry } from '../../src/shared/schemas/declarations.js';
import type { PublicResultRecord, ResultRecord } from '../../src/shared/schemas/results.js';
import {
  assignGhadis,
  call,
  createAgentWithToken,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  type Item,
  type List,
  loginAdmin,
  type Response,
  today,
  unique,
} from '../support/factories.js';
import { type EventStream, listen, openEvents, type ReceivedEvent } from '../support/http.js';
import { createTestApp, DIALECTS, type TestApp, tempDir } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

interface Body {
  ghadiId: number | string;
  result: string;
  dateTime: string;
}

const SAME_MOMENT = 10;

describe.each(DIALECTS)('idempotent submissions [%s]', (dialect) => {
  const clock = new TestClock();
  let t: TestApp;
  let base: string;
  let adminToken: string;
  const streams: EventStream[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { now: clock.now });
    base = await listen(t.app);
    adminToken = await loginAdmin(t.app);
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  const submit = (token: string, body: Body, key?: string): Promise<Response> =>
    call(t.app, {
      method: 'POST',
      url: '/api/agent/my-ghadi/update-result',
      token,
      body,
      ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
    });

  /** One result's declarations with who made each: GET /api/result-history, as the admin sees it. */
  const history = async (gid: number, date: string) =>
    expectStatus<List<ResultHistoryEntry>>(
      await call(t.app, { url: `/api/result-history?gid=${gid}&date=${date}`, token: adminToken }),
      200,
    ).data;

  /** The public declaration log's entries of one ghadi. */
  const logOf = async (gid: number) =>
    expectStatus<List<DeclarationEntry>>(await call(t.app, { url: `/api/declarations?gid=${gid}` }), 200)
      .data;

  /** result_history: one row per correction. */
  const corrections = async (gid: number, date: string) =>
    t.database.db
      .selectFrom('result_history as h')
      .innerJoin('results as r', 'r.result_id', 'h.result_id')
      .select(['h.old_value', 'h.new_value'])
      .where('r.gid', '=', gid)
      .where('r.result_date', '=', date)
      .orderBy('h.history_id')
      .execute();

  const storedKeys = () =>
    t.database.db.selectFrom('idempotency_keys').select(['user_id', 'key', 'created_at']).execute();

  async function assignedGhadi() {
    const ghadi = await createGhadi(t.app, adminToken);
    const agent = await createAgentWithToken(t.app, adminToken);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, ghadi.GID);
    return { ghadi, agent };
  }

  const resultEventsOf = (gid: number) => (events: ReceivedEvent[]) =>
    events
      .map((event) => event.data as LiveEvent)
      .filter((data): data is Extract<LiveEvent, { kind: 'result' }> => data.kind === 'result')
      .filter((data) => data.gid === gid)
      .map((data) => data.result?.Result);

  it('the same key with the same body answers the stored status and body again, and writes nothing', async () => {
    const { ghadi, agent } = await assignedGhadi();
    const marker = await createGhadi(t.app, adminToken);
    const date = today();
    const key = randomUUID();
    const stream = await openEvents(base);
    streams.push(stream);

    const first = await submit(agent.token, { ghadiId: ghadi.GID, result: '11', dateTime: date }, key);
    expect(first.statusCode).toBe(200);
    expect(first.json<Item<PublicResultRecord>>().data).toMatchObject({ Result: '11', Previous: null });
    await stream.waitFor((events) => resultEventsOf(ghadi.GID)(events).includes('11'));
    // Someone corrects it meanwhile: a retry that ran again would now write 11 over 22.
    const corrected = await submit(adminToken, { ghadiId: ghadi.GID, result: '22', dateTime: date });
    expect(corrected.statusCode).toBe(200);

    // The same body, spaced and typed otherwise: the same request once validated.
    const retries = [
      { ghadiId: ghadi.GID, result: '11', dateTime: date },
      { ghadiId: String(ghadi.GID), result: ' 11 ', dateTime: ` ${date}` },
    ];
    for (const body of retries) {
      const again = await submit(agent.token, body, key);
      expect(again.statusCode).toBe(first.statusCode);
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(again.body).toBe(first.body);
    }

    expect((await history(ghadi.GID, date)).map((entry) => [entry.Result, entry.DeclaredById])).toEqual([
      ['11', agent.user.User_Id],
      ['22', expect.any(Number)],
    ]);
    expect((await logOf(ghadi.GID)).map((entry) => entry.Result)).toEqual(['11', '22']);
    expect(await corrections(ghadi.GID, date)).toEqual([{ old_value: '11', new_value: '22' }]);
    // A later write's event arrives after any the retries could have caused: they caused none.
    await submit(adminToken, { ghadiId: marker.GID, result: '1', dateTime: date });
    await stream.waitFor((events) => resultEventsOf(marker.GID)(events).length > 0);
    expect(resultEventsOf(ghadi.GID)(stream.events)).toEqual(['11', '22']);
  });

  it('the same key with another body answers 422 naming the conflict, and writes nothing', async () => {
    const { ghadi, agent } = await assignedGhadi();
    const date = daysFromToday(-1);
    const key = unique('key-');
    expectStatus(await submit(agent.token, { ghadiId: ghadi.GID, result: '31', dateTime: date }, key), 200);
    const others: Body[] = [
      { ghadiId: ghadi.GID, result: '32', dateTime: date },
      { ghadiId: ghadi.GID, result: '31', dateTime: today() },
    ];
    for (const body of others) {
      const refused = expectStatus<Failure>(await submit(agent.token, body, key), 422);
      expect(refused).toEqual({
        success: false,
        message: expect.stringMatching(/^Idempotency-Key: .*different/),
      });
    }
    expect((await history(ghadi.GID, date)).map((entry) => entry.Result)).toEqual(['31']);
    expect(await history(ghadi.GID, today())).toEqual([]);
    expect((await logOf(ghadi.GID)).map((entry) => entry.Result)).toEqual(['31']);
  });

  it(`${SAME_MOMENT} identical submissions at once without a key append one entry, first or correction`, async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const date = daysFromToday(-1);
    const atOnce = (result: string) =>
      Promise.all(
        Array.from({ length: SAME_MOMENT }, () =>
          submit(adminToken, { ghadiId: ghadi.GID, result, dateTime: date }),
        ),
      );

    const declared = await atOnce('41');
    expect(declared.map((response) => response.statusCode)).toEqual(Array(SAME_MOMENT).fill(200));
    expect((await history(ghadi.GID, date)).map((entry) => [entry.Result, entry.Previous])).toEqual([
      ['41', null],
    ]);

    const corrected = await atOnce('42');
    expect(corrected.map((response) => response.statusCode)).toEqual(Array(SAME_MOMENT).fill(200));
    for (const response of corrected)
      expect(response.json<Item<ResultRecord>>().data).toMatchObject({ Result: '42', Previous: '41' });
    expect((await history(ghadi.GID, date)).map((entry) => [entry.Result, entry.Previous])).toEqual([
      ['41', null],
      ['42', '41'],
    ]);
    expect((await logOf(ghadi.GID)).map((entry) => entry.Result)).toEqual(['41', '42']);
    expect(await corrections(ghadi.GID, date)).toEqual([{ old_value: '41', new_value: '42' }]);
  });

  it(`${SAME_MOMENT} submissions at once with one key write once; the others wait and answer the same`, async () => {
    const { ghadi, agent } = await assignedGhadi();
    const date = today();
    const key = randomUUID();
    await submit(adminToken, { ghadiId: ghadi.GID, result: '50', dateTime: date });
    const responses = await Promise.all(
      Array.from({ length: SAME_MOMENT }, () =>
        submit(agent.token, { ghadiId: ghadi.GID, result: '51', dateTime: date }, key),
      ),
    );
    // No 409: a request that meets its key's first one mid-write waits for it (decision 0010).
    expect(responses.map((response) => response.statusCode)).toEqual(Array(SAME_MOMENT).fill(200));
    const [answered] = responses;
    for (const response of responses) expect(response.body).toBe(answered?.body);
    expect(answered?.json<Item<PublicResultRecord>>().data).toMatchObject({ Result: '51', Previous: '50' });
    expect((await history(ghadi.GID, date)).map((entry) => entry.Result)).toEqual(['50', '51']);
    expect(await corrections(ghadi.GID, date)).toHaveLength(1);
    // The key holds that one answer: after a correction, a retry still gets it and writes nothing.
    expect((await storedKeys()).filter((row) => row.key === key)).toHaveLength(1);
    expectStatus(await submit(adminToken, { ghadiId: ghadi.GID, result: '52', dateTime: date }), 200);
    const retry = await submit(agent.token, { ghadiId: ghadi.GID, result: '51', dateTime: date }, key);
    expect(retry.body).toBe(answered?.body);
    expect((await history(ghadi.GID, date)).map((entry) => entry.Result)).toEqual(['50', '51', '52']);
  });

  it('submissions at once with one key and two bodies: one body is written, the other answers 422', async () => {
    const agent = await createAgentWithToken(t.app, adminToken);
    const sides = [(await createGhadi(t.app, adminToken)).GID, (await createGhadi(t.app, adminToken)).GID];
    await assignGhadis(t.app, adminToken, agent.user.User_Id, sides);
    const date = today();
    const key = unique('key-');
    const sideOf = (index: number) => sides[index % 2] ?? 0;
    const responses = await Promise.all(
      Array.from({ length: SAME_MOMENT }, (_, index) =>
        submit(agent.token, { ghadiId: sideOf(index), result: '61', dateTime: date }, key),
      ),
    );
    const statuses = sides.map((gid) =>
      responses.filter((_, index) => sideOf(index) === gid).map((response) => response.statusCode),
    );
    const half = SAME_MOMENT / 2;
    const winner = statuses[0]?.[0] === 200 ? 0 : 1;
    expect(statuses[winner]).toEqual(Array(half).fill(200));
    expect(statuses[1 - winner]).toEqual(Array(half).fill(422));
    expect((await history(sides[winner] ?? 0, date)).map((entry) => entry.Result)).toEqual(['61']);
    expect(await history(sides[1 - winner] ?? 0, date)).toEqual([]);
  });

  it('a key is kept at least 72 hours by the app’s clock (the agent’s window and a day); after that it is a new one', async () => {
    const { ghadi, agent } = await assignedGhadi();
    const date = today();
    const key = unique('key-');
    const body = { ghadiId: ghadi.GID, result: '71', dateTime: date };
    const first = await submit(agent.token, body, key);
    expectStatus(first, 200);
    expectStatus(await submit(adminToken, { ghadiId: ghadi.GID, result: '72', dateTime: date }), 200);

    expect(IDEMPOTENCY_KEY_TTL_MS).toBeGreaterThanOrEqual(72 * 60 * 60 * 1000);
    // A phone replays it 25 hours on, after the correction: the stored answer, and no write.
    clock.advance(25 * 60 * 60 * 1000);
    expect((await submit(agent.token, body, key)).body).toBe(first.body);
    clock.advance(IDEMPOTENCY_KEY_TTL_MS - 25 * 60 * 60 * 1000);
    const kept = await submit(agent.token, body, key);
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe(first.body);
    expect((await history(ghadi.GID, date)).map((entry) => entry.Result)).toEqual(['71', '72']);

    clock.advance(1);
    const renewed = await submit(agent.token, body, key);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json<Item<PublicResultRecord>>().data).toMatchObject({ Result: '71', Previous: '72' });
    expect((await history(ghadi.GID, date)).map((entry) => entry.Result)).toEqual(['71', '72', '71']);
    // Stored afresh: another body with it is now the conflict.
    expectStatus(await submit(agent.token, { ...body, result: '73' }, key), 422);
  });

  it('keys older than 72 hours are pruned by later keyed writes', async () => {
    const { ghadi, agent } = await assignedGhadi();
    const date = today();
    const keys = [unique('old-'), unique('old-'), unique('old-')];
    for (const [index, key] of keys.entries())
      expectStatus(
        await submit(agent.token, { ghadiId: ghadi.GID, result: `8${index}`, dateTime: date }, key),
        200,
      );
    const stored = () => storedKeys().then((rows) => rows.map((row) => row.key));
    expect(await stored()).toEqual(expect.arrayContaining(keys));

    clock.advance(IDEMPOTENCY_KEY_TTL_MS + 1);
    // Any keyed write prunes them, whoever sends it.
    const fresh = unique('new-');
    expectStatus(await submit(adminToken, { ghadiId: ghadi.GID, result: '89', dateTime: date }, fresh), 200);
    const left = await stored();
    for (const key of keys) expect(left).not.toContain(key);
    expect(left).toContain(fresh);
  });

  it('keys are per user: another agent sending the same key writes its own', async () => {
    const one = await assignedGhadi();
    const other = await assignedGhadi();
    const date = today();
    const key = unique('shared-');
    const mine = await submit(one.agent.token, { ghadiId: one.ghadi.GID, result: '91', dateTime: date }, key);
    const theirs = await submit(
      other.agent.token,
      { ghadiId: other.ghadi.GID, result: '92', dateTime: date },
      key,
    );
    expect(mine.json<Item<PublicResultRecord>>().data).toMatchObject({ GID: one.ghadi.GID, Result: '91' });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json<Item<PublicResultRecord>>().data).toMatchObject({
      GID: other.ghadi.GID,
      Result: '92',
    });
    expect((await history(one.ghadi.GID, date)).map((entry) => entry.Result)).toEqual(['91']);
    expect((await history(other.ghadi.GID, date)).map((entry) => entry.Result)).toEqual(['92']);
    const rows = (await storedKeys()).filter((row) => row.key === key).map((row) => row.user_id);
    expect(rows.sort()).toEqual([one.agent.user.User_Id, other.agent.user.User_Id].sort());
  });

  it('a refused submission stores nothing: its retry with the same key is judged again', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const agent = await createAgentWithToken(t.app, adminToken);
    const key = unique('key-');
    const body = { ghadiId: ghadi.GID, result: '95', dateTime: today() };
    expectStatus(await submit(agent.token, body, key), 403);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, ghadi.GID);
    const accepted = await submit(agent.token, body, key);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json<Item<PublicResultRecord>>().data).toMatchObject({ Result: '95' });
    expect((await history(ghadi.GID, today())).map((entry) => entry.Result)).toEqual(['95']);
  });

  it('refuses a malformed Idempotency-Key with 400 naming it, and writes nothing', async () => {
    const { ghadi, agent } = await assignedGhadi();
    const date = today();
    const body = { ghadiId: ghadi.GID, result: '99', dateTime: date };
    for (const key of ['', 'k'.repeat(129), 'clé', 'tab\there', 'line\u0001feed']) {
      const refused = expectStatus<Failure>(await submit(agent.token, body, key), 400);
      expect(refused.message).toMatch(/^idempotency-key: /);
    }
    expect(await history(ghadi.GID, date)).toEqual([]);
    // The longest allowed, every printable character.
    const printable = Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index)).join('');
    for (const key of ['k'.repeat(128), printable.trim()])
      expectStatus(await submit(agent.token, body, key), 200);
    expect((await history(ghadi.GID, date)).map((entry) => entry.Result)).toEqual(['99']);
  });
});

/**
 * One more process on the pair's database whose first look for an Idempotency-Key that finds none
 * waits for `before` (another process's request with that key) before it goes on.
 */
async function raceOnLookup(pair: TestApp) {
  const own = openDatabase(
    pair.config.database,
    pair.database.pgSchema ? { pgSchema: pair.database.pgSchema } : {},
  );
  const lookups = new WeakSet<object>();
  const rival: {
    app: FastifyInstance;
    database: Database;
    before: (() => Promise<Response[]>) | undefined;
    raced: Promise<Response[]> | undefined;
  } = { app: undefined as unknown as FastifyInstance, database: own, before: undefined, raced: undefined };
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node).includes('"idempotency_keys"'))
        lookups.add(args.queryId);
      return args.node;
    },
    async transformResult(args) {
      const before = rival.before;
      if (before && lookups.has(args.queryId) && args.result.rows.length === 0) {
        rival.before = undefined;
        rival.raced = before();
        await rival.raced;
      }
      return args.result;
    },
  };
  rival.app = await buildApp(pair.config, {
    database: { ...own, db: own.db.withPlugin(plugin) },
    logger: false,
    serveWebApp: false,
  });
  return rival;
}

describe.each(DIALECTS)('idempotent submissions across processes [%s]', (dialect) => {
  const dir = tempDir();
  let pair: TestApp;
  let apps: FastifyInstance[];
  let adminToken: string;

  beforeAll(async () => {
    pair = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'shared.db') });
    apps = [pair.app, await pair.startAnother({ ownConnection: true })];
    adminToken = await loginAdmin(pair.app);
  });
  afterAll(async () => {
    await pair?.close();
  });

  /** `count` submissions of `body` at once, alternately to each process (each on its own connection). */
  const acrossBoth = (count: number, body: Body, key?: string) =>
    Promise.all(
      Array.from({ length: count }, (_, index) =>
        call(apps[index % apps.length] as FastifyInstance, {
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: adminToken,
          body,
          ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
        }),
      ),
    );

  const entries = async (gid: number) =>
    expectStatus<List<DeclarationEntry>>(await call(pair.app, { url: `/api/declarations?gid=${gid}` }), 200)
      .data;

  it('the same key sent to two processes at once is written once and answered the same by both', async () => {
    const ghadi = await createGhadi(pair.app, adminToken);
    const date = today();
    await acrossBoth(1, { ghadiId: ghadi.GID, result: '10', dateTime: date });
    const responses = await acrossBoth(
      SAME_MOMENT,
      { ghadiId: ghadi.GID, result: '20', dateTime: date },
      randomUUID(),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(SAME_MOMENT).fill(200));
    expect(new Set(responses.map((response) => response.body)).size).toBe(1);
    expect((await entries(ghadi.GID)).map((entry) => [entry.Result, entry.Previous])).toEqual([
      ['10', null],
      ['20', '10'],
    ]);
  });

  it('a request that finds no key, then loses the race to store it, answers as the winner did or 422', async () => {
    const date = today();
    const rival = await raceOnLookup(pair);
    try {
      for (const [winner, loser, expected] of [
        ['51', '51', 200],
        ['52', '53', 422],
      ] as const) {
        const ghadi = await createGhadi(pair.app, adminToken);
        const key = randomUUID();
        // The loser's look for its key finds none; right then the winner, in another process, stores it.
        rival.before = () => acrossBoth(1, { ghadiId: ghadi.GID, result: winner, dateTime: date }, key);
        const lost = await call(rival.app, {
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: adminToken,
          body: { ghadiId: ghadi.GID, result: loser, dateTime: date },
          headers: { 'idempotency-key': key },
        });
        const [won] = (await rival.raced) ?? [];
        expect(won?.statusCode).toBe(200);
        expect(lost.statusCode).toBe(expected);
        if (expected === 200) expect(lost.body).toBe(won?.body);
        else expect(lost.json<Failure>().message).toMatch(/^Idempotency-Key: /);
        // The loser's own writes were rolled back: the winner's value is the only entry.
        expect((await entries(ghadi.GID)).map((entry) => entry.Result)).toEqual([winner]);
      }
    } finally {
      await rival.app.close();
      await rival.database.close();
    }
  });

  it('identical submissions without a key, to two processes at once, append one entry', async () => {
    const ghadi = await createGhadi(pair.app, adminToken);
    const date = today();
    await acrossBoth(1, { ghadiId: ghadi.GID, result: '30', dateTime: date });
    const responses = await acrossBoth(SAME_MOMENT, { ghadiId: ghadi.GID, result: '40', dateTime: date });
    expect(responses.map((response) => response.statusCode)).toEqual(Array(SAME_MOMENT).fill(200));
    expect((await entries(ghadi.GID)).map((entry) => [entry.Result, entry.Previous])).toEqual([
      ['30', null],
      ['40', '30'],
    ]);
  });
});
