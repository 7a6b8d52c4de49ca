import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainChecker } from '../../src/server/modules/declarations/log-verification.js';
import type { LiveEvent } from '../../src/shared/live-events.js';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  MISMATCH_MESSAGE,
  PENDING_MESSAGE,
  type PendingDeclaration,
} from '../../src/shared/schemas/pending.js';
import type { PublicResultRecord } from '../../src/shared/schemas/results.js';
import {
  assignGhadis,
  call,
  createAgentWithToken,
  createGhadi,
  expectStatus,
  type Failure,
  type Item,
  type List,
  loginAdmin,
  postResult,
  today,
  valuesDeep,
} from '../support/factories.js';
import { type EventStream, listen, openEvents } from '../support/http.js';
import { createTestApp, DIALECTS, type TestApp } from '../support/test-app.js';

describe.each(DIALECTS)('two-person results [%s]', (dialect) => {
  let t: TestApp;
  let base: string;
  let adminToken: string;
  const streams: EventStream[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    base = await listen(t.app);
    adminToken = await loginAdmin(t.app);
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  /** A ghadi needing two people, and two agents assigned to it. */
  async function twoPersonGhadi(overrides: { Kind?: 'open-close'; OpenTime?: string; RTime?: string } = {}) {
    const ghadi = await createGhadi(t.app, adminToken, { Confirmations: 2, ...overrides });
    const a = await createAgentWithToken(t.app, adminToken);
    const b = await createAgentWithToken(t.app, adminToken);
    await assignGhadis(t.app, adminToken, a.user.User_Id, ghadi.GID);
    await assignGhadis(t.app, adminToken, b.user.User_Id, ghadi.GID);
    return { ghadi, a, b };
  }

  const submit = (token: string, gid: number, result: string, extra: { Expected?: string | null } = {}) =>
    postResult(t.app, token, { ghadiId: gid, result, dateTime: today(), ...extra });

  const pendingAs = async (token: string) =>
    expectStatus<List<PendingDeclaration>>(await call(t.app, { url: '/api/pending', token }), 200).data;

  const logOf = async (gid: number) =>
    expectStatus<List<DeclarationEntry>>(await call(t.app, { url: `/api/declarations?gid=${gid}` }), 200)
      .data;

  const publicRow = async (gid: number) =>
    expectStatus<List<GhadiRecord>>(await call(t.app, { url: '/api/ghadis' }), 200).data.find(
      (row) => row.GID === gid,
    );

  /** GET /api/results/{name}: its values, or null while it has none (a 404). */
  const publicResults = async (name: string) => {
    const response = await call(t.app, { url: `/api/results/${encodeURIComponent(name)}` });
    if (response.statusCode === 404) return null;
    return expectStatus<List<PublicResultRecord>>(response, 200).data.map((row) => row.Result);
  };

  const resultEvents = (stream: EventStream, gid: number) =>
    stream.events
      .map((event) => event.data as LiveEvent)
      .filter(
        (data): data is Extract<LiveEvent, { kind: 'result' }> => data.kind === 'result' && data.gid === gid,
      );

  /** Waits for a later write's event: any event the writes before it caused has arrived by then. */
  async function settle(stream: EventStream) {
    const marker = await createGhadi(t.app, adminToken);
    expectStatus(
      await postResult(t.app, adminToken, { ghadiId: marker.GID, result: '1', dateTime: today() }),
      200,
    );
    await stream.waitFor(() => resultEvents(stream, marker.GID).length > 0);
  }

  it('sets Confirmations on a ghadi, keeps it on a PUT without it, and refuses anything but 1 or 2', async () => {
    const plain = await createGhadi(t.app, adminToken);
    expect(plain.Confirmations).toBe(1);
    const two = await createGhadi(t.app, adminToken, { Confirmations: 2 });
    expect(two.Confirmations).toBe(2);
    const { Confirmations: _, ...fields } = { ...two, Confirmations: undefined };
    const put = await call(t.app, {
      method: 'PUT',
      url: `/api/ghadis/${two.GID}`,
      token: adminToken,
      body: { NameEn: fields.NameEn, NameHn: fields.NameHn, RTime: '7:00 PM', OrderId: fields.OrderId },
    });
    expect(expectStatus<Item<GhadiRecord>>(put, 200).data.Confirmations).toBe(2);
    const bad = await call(t.app, {
      method: 'POST',
      url: '/api/ghadis',
      token: adminToken,
      body: { NameEn: 'Three people', NameHn: 'तीन', RTime: '1:00 PM', OrderId: 1, Confirmations: 3 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Failure>().message).toContain('Confirmations');
  });

  it('holds the first entry unseen, refuses a different second one blind, and publishes a match once', async () => {
    const { ghadi, a, b } = await twoPersonGhadi();
    const stream = await openEvents(base);
    streams.push(stream);
    const headBefore = (await logOf(ghadi.GID)).length;

    const first = await submit(a.token, ghadi.GID, '47');
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ success: true, pending: true, message: PENDING_MESSAGE });
    expect((await publicRow(ghadi.GID))?.TodayResult).toBe('');
    expect(await publicResults(ghadi.NameEn)).toBeNull();
    expect(await logOf(ghadi.GID)).toHaveLength(headBefore);

    // B enters another value: refused without a word of A's.
    const other = await submit(b.token, ghadi.GID, '74');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ success: false, mismatch: true, message: MISMATCH_MESSAGE });
    expect(other.body).not.toContain('47');
    const seenByB = await pendingAs(b.token);
    expect(seenByB).toEqual([
      expect.objectContaining({
        GID: ghadi.GID,
        Mismatch: true,
        Current: null,
        Entries: [expect.objectContaining({ UserId: b.user.User_Id, Result: '74' })],
      }),
    ]);
    // Value by value, not as text: a SubmittedAt at minute 47 contains "47".
    expect(valuesDeep(seenByB)).not.toContain('47');
    // The admin sees both, and the mismatch.
    const seenByAdmin = (await pendingAs(adminToken)).find((day) => day.GID === ghadi.GID);
    expect(seenByAdmin?.Mismatch).toBe(true);
    expect(seenByAdmin?.Entries.map((entry) => [entry.UserId, entry.Result])).toEqual([
      [a.user.User_Id, '47'],
      [b.user.User_Id, '74'],
    ]);

    await settle(stream);
    expect(resultEvents(stream, ghadi.GID)).toEqual([]);

    // B enters A's value: published once, as B's declaration.
    const confirmed = await submit(b.token, ghadi.GID, '47');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json<Item<PublicResultRecord>>().data).toMatchObject({ Result: '47', Previous: null });
    expect((await publicRow(ghadi.GID))?.TodayResult).toBe('47');
    expect(await publicResults(ghadi.NameEn)).toEqual(['47']);
    const log = await logOf(ghadi.GID);
    expect(log.map((entry) => [entry.Result, entry.Previous])).toEqual([['47', null]]);
    await settle(stream);
    expect(resultEvents(stream, ghadi.GID).map((event) => event.result?.Result)).toEqual(['47']);
    expect((await pendingAs(adminToken)).some((day) => day.GID === ghadi.GID)).toBe(false);

    // The whole log still chains, the published entry included.
    const checker = new ChainChecker();
    for (const entry of expectStatus<List<DeclarationEntry>>(
      await call(t.app, { url: '/api/declarations?limit=1000' }),
      200,
    ).data)
      expect(checker.add(entry), checker.problem ?? '').toBe(true);
  });

  it('never publishes on one person: the same agent twice replaces their own entry', async () => {
    const { ghadi, a } = await twoPersonGhadi();
    expect((await submit(a.token, ghadi.GID, '12')).statusCode).toBe(202);
    expect((await submit(a.token, ghadi.GID, '12')).statusCode).toBe(202);
    expect((await submit(a.token, ghadi.GID, '21')).statusCode).toBe(202);
    expect(await logOf(ghadi.GID)).toEqual([]);
    const mine = await pendingAs(a.token);
    expect(mine.find((day) => day.GID === ghadi.GID)).toMatchObject({
      Mismatch: false,
      Entries: [expect.objectContaining({ Result: '21' })],
    });
    // An admin alone is one person too, and the first admin entry is held as well.
    const admin = await submit(adminToken, ghadi.GID, '33');
    expect(admin.statusCode).toBe(409);
    expect(admin.json<{ mismatch: boolean }>().mismatch).toBe(true);
  });

  it('needs two people for a correction, and answers the same value again as unchanged', async () => {
    const { ghadi, a, b } = await twoPersonGhadi();
    await submit(a.token, ghadi.GID, '55');
    expect((await submit(b.token, ghadi.GID, '55')).statusCode).toBe(200);
    // The published value again changes nothing and holds nothing.
    expect((await submit(a.token, ghadi.GID, '55')).statusCode).toBe(200);
    expect((await pendingAs(a.token)).some((day) => day.GID === ghadi.GID)).toBe(false);

    expect((await submit(a.token, ghadi.GID, '56')).statusCode).toBe(202);
    expect((await publicRow(ghadi.GID))?.TodayResult).toBe('55');
    const held = (await pendingAs(adminToken)).find((day) => day.GID === ghadi.GID);
    expect(held).toMatchObject({ Current: '55', Mismatch: false });
    const corrected = await submit(b.token, ghadi.GID, '56');
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json<Item<PublicResultRecord>>().data).toMatchObject({
      Result: '56',
      Previous: '55',
      Corrected: true,
    });
    expect((await logOf(ghadi.GID)).map((entry) => [entry.Result, entry.Previous])).toEqual([
      ['55', null],
      ['56', '55'],
    ]);
  });

  it('confirms a market step by step: the open half, then the whole day', async () => {
    const { ghadi, a, b } = await twoPersonGhadi({
      Kind: 'open-close',
      OpenTime: '10:00 AM',
      RTime: '12:00 PM',
    });
    expect((await submit(a.token, ghadi.GID, '123')).statusCode).toBe(202);
    expect((await submit(b.token, ghadi.GID, '123')).statusCode).toBe(200);
    expect((await submit(b.token, ghadi.GID, '459')).statusCode).toBe(202);
    expect((await publicRow(ghadi.GID))?.TodayResult).toBe('123-6');
    const close = await submit(a.token, ghadi.GID, '459');
    expect(close.statusCode).toBe(200);
    expect((await logOf(ghadi.GID)).map((entry) => [entry.Result, entry.Step])).toEqual([
      ['123-6', 'open'],
      ['123-68-459', 'close'],
    ]);
  });

  it('lets an admin resolve a mismatch by declaring one of the entries, or by discarding them', async () => {
    const { ghadi, a, b } = await twoPersonGhadi();
    await submit(a.token, ghadi.GID, '81');
    expect((await submit(b.token, ghadi.GID, '18')).statusCode).toBe(409);
    const resolved = await submit(adminToken, ghadi.GID, '18');
    expect(resolved.statusCode).toBe(200);
    expect((await logOf(ghadi.GID)).map((entry) => entry.Result)).toEqual(['18']);
    expect((await pendingAs(adminToken)).some((day) => day.GID === ghadi.GID)).toBe(false);

    const second = await twoPersonGhadi();
    await submit(second.a.token, second.ghadi.GID, '90');
    await submit(second.b.token, second.ghadi.GID, '09');
    const url = `/api/pending/${second.ghadi.GID}/${today()}`;
    expect((await call(t.app, { method: 'DELETE', url, token: second.a.token })).statusCode).toBe(403);
    const discarded = await call(t.app, { method: 'DELETE', url, token: adminToken });
    expect(expectStatus<{ message: string }>(discarded, 200).message).toBe('Discarded 2 pending entries');
    expect((await call(t.app, { method: 'DELETE', url, token: adminToken })).statusCode).toBe(404);
    expect(await pendingAs(second.a.token)).toEqual([]);
    expect(await logOf(second.ghadi.GID)).toEqual([]);
    const activity = expectStatus<List<{ Action: string; Target: { Name: string } }>>(
      await call(t.app, {
        url: `/api/activity?q=${encodeURIComponent(second.ghadi.NameEn)}`,
        token: adminToken,
      }),
      200,
    ).data.map((entry) => entry.Action);
    expect(activity).toEqual(expect.arrayContaining(['result_hold', 'result_mismatch', 'pending_discard']));
  });

  it('answers a held submission the same again to a retry with its key', async () => {
    const { ghadi, a, b } = await twoPersonGhadi();
    const key = randomUUID();
    const body = { ghadiId: ghadi.GID, result: '64', dateTime: today() };
    const headers = { 'idempotency-key': key };
    const first = await call(t.app, {
      method: 'POST',
      url: '/api/agent/my-ghadi/update-result',
      token: a.token,
      body,
      headers,
    });
    expect(first.statusCode).toBe(202);
    expect((await submit(b.token, ghadi.GID, '64')).statusCode).toBe(200);
    const retry = await call(t.app, {
      method: 'POST',
      url: '/api/agent/my-ghadi/update-result',
      token: a.token,
      body,
      headers,
    });
    expect(retry.statusCode).toBe(202);
    expect(retry.body).toBe(first.body);
    expect(await pendingAs(a.token)).toEqual([]);
  });

  it('drops held entries when the ghadi goes back to one person, who then publishes alone', async () => {
    const { ghadi, a } = await twoPersonGhadi();
    expect((await submit(a.token, ghadi.GID, '70')).statusCode).toBe(202);
    const put = await call(t.app, {
      method: 'PUT',
      url: `/api/ghadis/${ghadi.GID}`,
      token: adminToken,
      body: {
        NameEn: ghadi.NameEn,
        NameHn: ghadi.NameHn,
        RTime: ghadi.RTime,
        OrderId: ghadi.OrderId,
        Confirmations: 1,
      },
    });
    expect(put.statusCode).toBe(200);
    expect(await pendingAs(adminToken)).not.toContainEqual(expect.objectContaining({ GID: ghadi.GID }));
    const alone = await submit(a.token, ghadi.GID, '71');
    expect(alone.statusCode).toBe(200);
    expect((await logOf(ghadi.GID)).map((entry) => entry.Result)).toEqual(['71']);
  });
});
