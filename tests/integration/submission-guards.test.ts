import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_KEYS_PER_USER_PER_DAY } from '../../src/server/modules/idempotency/idempotency-keys.js';
import type { PublicResultRecord } from '../../src/shared/schemas/results.js';
import {
  assignGhadis,
  call,
  createAgentWithToken,
  createGhadi,
  expectStatus,
  type Failure,
  type Item,
  loginAdmin,
  postResult,
  today,
} from '../support/factories.js';
import { createTestApp, DIALECTS, type TestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

const PER_MINUTE = 5;

describe.each(DIALECTS)('submission guards [%s]', (dialect) => {
  const clock = new TestClock();
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      now: clock.now,
      env: { SUBMISSIONS_PER_USER_PER_MINUTE: String(PER_MINUTE) },
    });
    adminToken = await loginAdmin(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function assignedGhadi() {
    const ghadi = await createGhadi(t.app, adminToken);
    const agent = await createAgentWithToken(t.app, adminToken);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, ghadi.GID);
    return { ghadi, agent };
  }

  it('refuses a submission whose Expected value is no longer the published one, changing nothing', async () => {
    clock.toNextMinute();
    const { ghadi, agent } = await assignedGhadi();
    const send = (result: string, Expected?: string | null) =>
      postResult(t.app, agent.token, { ghadiId: ghadi.GID, result, dateTime: today(), Expected });

    // Expected null: nothing may be published yet.
    expectStatus(await send('10', null), 200);
    const stale = await send('11', null);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ success: false, message: expect.stringContaining('is now 10') });
    expect(stale.json()).not.toHaveProperty('mismatch');
    // An admin corrects it; a late replay expecting the old value cannot undo that.
    expectStatus(
      await postResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '20', dateTime: today() }),
      200,
    );
    const replay = await send('11', '10');
    expect(replay.statusCode).toBe(409);
    expect(replay.json<Failure>().message).toContain('is now 20');
    const changed = await send('21', '20');
    expect(expectStatus<Item<PublicResultRecord>>(changed, 200).data).toMatchObject({
      Result: '21',
      Previous: '20',
    });
    // The published value again is no change, whatever it expected.
    expect((await send('21', '10')).statusCode).toBe(200);
  });

  it('limits each user’s submissions a minute with a clear 429, and others go on', async () => {
    clock.toNextMinute();
    const { ghadi, agent } = await assignedGhadi();
    const other = await assignedGhadi();
    const send = (token: string, gid: number, result: string) =>
      postResult(t.app, token, { ghadiId: gid, result, dateTime: today() });
    for (let i = 0; i < PER_MINUTE; i++) expectStatus(await send(agent.token, ghadi.GID, `3${i}`), 200);
    const refused = await send(agent.token, ghadi.GID, '39');
    expect(refused.statusCode).toBe(429);
    expect(refused.json<Failure>().message).toMatch(/Too many submissions/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectStatus(await send(other.agent.token, other.ghadi.GID, '40'), 200);
    clock.toNextMinute();
    expectStatus(await send(agent.token, ghadi.GID, '39'), 200);
  });

  it('caps the keys a user stores in a day', async () => {
    clock.toNextMinute();
    const { ghadi, agent } = await assignedGhadi();
    const earlier = new Date(clock.now() - 60 * 60 * 1000).toISOString();
    // A day's worth of keys already stored, the oldest an hour ago.
    const rows = Array.from({ length: MAX_KEYS_PER_USER_PER_DAY }, (_, index) => ({
      user_id: agent.user.User_Id,
      key: `filler-${index}`,
      request_hash: 'x',
      status_code: 200,
      answer: '{}',
      created_at: earlier,
    }));
    for (let start = 0; start < rows.length; start += 200)
      await t.database.db
        .insertInto('idempotency_keys')
        .values(rows.slice(start, start + 200))
        .execute();
    const keyed = (key: string) =>
      call(t.app, {
        method: 'POST',
        url: '/api/agent/my-ghadi/update-result',
        token: agent.token,
        body: { ghadiId: ghadi.GID, result: '50', dateTime: today() },
        headers: { 'idempotency-key': key },
      });
    const refused = await keyed(randomUUID());
    expect(refused.statusCode).toBe(429);
    expect(refused.json<Failure>().message).toContain(`${MAX_KEYS_PER_USER_PER_DAY} keyed submissions a day`);
    // Free again once the oldest is a day old: 23 hours on.
    expect(Number(refused.headers['retry-after'])).toBe(23 * 60 * 60);
    clock.advance(23 * 60 * 60 * 1000 + 1000);
    expectStatus(await keyed(randomUUID()), 200);
  });
});
