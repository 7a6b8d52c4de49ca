import { describe, expect, it } from 'vitest';
import { ActivityRepository } from '../../src/server/modules/activity/activity-repository.js';
import { ActivityRetention } from '../../src/server/modules/activity/activity-retention.js';
import type { ActivityAnswer } from '../../src/shared/schemas/activity.js';
import { call, createAgent, expectStatus, loginAdmin } from '../support/factories.js';
import { pollUntil } from '../support/poll-until.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

/** app.inject's own address: the proxy the suite's app trusts, so X-Forwarded-For names the client. */
const PROXY = '127.0.0.1';
const CLIENT_IP = '203.0.113.9';
const CLIENT_AGENT = 'RetentionTest/1.0 (activity-retention.test.ts)';
const FROM_CLIENT = { 'x-forwarded-for': CLIENT_IP, 'user-agent': CLIENT_AGENT };

describe.each(DIALECTS)('the activity trail’s retention [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, { env: { TRUST_PROXY: PROXY }, now: clock.now });
  const DAY = 24 * 60 * 60 * 1000;

  /** The whole trail as stored, oldest first (read without signing in, which would add entries). */
  const stored = () => t.database.db.selectFrom('activity_log').selectAll().orderBy('activity_id').execute();
  const signIn = (UserName: string, Password: string) =>
    call(t.app, {
      method: 'POST',
      url: '/api/users/login',
      body: { UserName, Password },
      headers: FROM_CLIENT,
    });
  const retention = () =>
    new ActivityRetention(
      new ActivityRepository(t.database),
      t.config.activityRetentionDays,
      clock.now,
      t.app.log,
    );

  it('after ACTIVITY_RETENTION_DAYS entries keep their number and action, not the client’s details', async () => {
    expect(t.config.activityRetentionDays).toBe(90);
    const agent = await createAgent(t.app, await loginAdmin(t.app));
    expectStatus(await signIn(agent.user.UserName, agent.password), 200);
    expect((await signIn(agent.user.UserName, 'not-the-password')).statusCode).toBe(401);
    expect((await signIn('Hunter2-in-the-name-box', 'whatever')).statusCode).toBe(401);
    const before = await stored();
    expect(before.some((row) => row.ip === CLIENT_IP && row.user_agent === CLIENT_AGENT)).toBe(true);
    expect(before.some((row) => row.target_name === 'Hu… (23)')).toBe(true);

    // 89 days on, nothing is due.
    clock.advance(89 * DAY);
    expect(await retention().run()).toBe(0);
    expect(await stored()).toEqual(before);

    clock.advance(2 * DAY);
    expect(await retention().run()).toBe(before.length);
    const after = await stored();
    // The same entries, numbered 1, 2, 3… as before, with the same times, authors, actions and summaries.
    expect(after.map((row) => row.activity_id)).toEqual(before.map((_, index) => index + 1));
    expect(after).toEqual(
      before.map((row) => ({
        ...row,
        ip: '',
        user_agent: '',
        target_name: row.action === 'login_failed' && row.target_id === null ? '' : row.target_name,
      })),
    );
    // A failed sign-in of an account keeps the account's name; the masked one is gone.
    const failures = after.filter((row) => row.action === 'login_failed');
    expect(failures.map((row) => row.target_name).sort()).toEqual(['', agent.user.UserName].sort());
    // Done: a run finds nothing more, and the API reads the scrubbed entries.
    expect(await retention().run()).toBe(0);
    const admin = await loginAdmin(t.app);
    const page = expectStatus<ActivityAnswer>(
      await call(t.app, { url: '/api/activity?action=login_failed', token: admin }),
      200,
    );
    expect(page.data.map((entry) => [entry.Ip, entry.UserAgent])).toEqual([
      ['', ''],
      ['', ''],
    ]);
  });

  it('scrubs in batches, each from where the last one stopped', async () => {
    const repository = new ActivityRepository(t.database);
    for (const name of ['batch-one', 'batch-two', 'batch-three']) {
      expect((await signIn(name, 'whatever')).statusCode).toBe(401);
    }
    const pending = (await stored()).filter((row) => row.ip !== '');
    expect(pending.length).toBeGreaterThanOrEqual(3);
    const later = new Date(clock.now() + 91 * DAY).toISOString();
    expect(await repository.scrub(later, 2)).toBe(2);
    // The oldest two of those not yet scrubbed, and only those.
    const kept = (await stored()).filter((row) => row.ip !== '');
    expect(kept.map((row) => row.activity_id)).toEqual(pending.slice(2).map((row) => row.activity_id));
    let reached = 2;
    for (let batch = 2; batch === 2; reached += batch) batch = await repository.scrub(later, 2);
    expect(reached).toBe(pending.length);
    expect((await stored()).every((row) => row.ip === '' && row.user_agent === '')).toBe(true);
  });

  it('is run by the app itself at start, on the app’s clock', async () => {
    expect((await signIn('started-later', 'whatever')).statusCode).toBe(401);
    const newest = (await stored()).at(-1);
    expect(newest).toMatchObject({ action: 'login_failed', ip: CLIENT_IP, target_name: 'st… (13)' });
    clock.advance(91 * DAY);
    await t.restart();
    const scrubbed = await pollUntil('the start’s retention run', 5000, async () => {
      const row = (await stored()).find((entry) => entry.activity_id === newest?.activity_id);
      return row?.ip === '' ? row : undefined;
    });
    expect(scrubbed).toMatchObject({ ip: '', user_agent: '', target_name: '', action: 'login_failed' });
  });
});
