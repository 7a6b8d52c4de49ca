import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramStandIn, type TelegramStandIn } from '../../bench/lib/telegram-stand-in.js';
import { timeInZone } from '../../src/shared/dates.js';
import { dayLabel } from '../support/day-label.js';
import {
  createGhadi,
  daysFromToday,
  expectStatus,
  importResults,
  loginAdmin,
  postResult,
  today,
} from '../support/factories.js';
import { pollUntil } from '../support/poll-until.js';
import { createTestApp, DIALECTS, SITE_TIMEZONE, type TestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

const TOKEN = '123456:test-token_ABC';
const CHAT = '-1001234567';
const BOUND_MS = 10_000;

describe.each(DIALECTS)('Telegram notifications [%s]', (dialect) => {
  const clock = new TestClock();
  let bot: TelegramStandIn;
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    bot = await startTelegramStandIn();
    // No PUBLIC_URL: Telegram does without push.
    t = await createTestApp(dialect, {
      env: { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: CHAT, TELEGRAM_API_URL: bot.url },
      now: clock.now,
      notifications: { pollMs: 20 },
    });
    adminToken = await loginAdmin(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await bot?.close();
  });

  const declare = async (gid: number, result: string, date = today()) =>
    expectStatus(await postResult(t.app, adminToken, { ghadiId: gid, result, dateTime: date }), 200);
  const declaredAt = async (gid: number, value: string) => {
    const row = await t.database.db
      .selectFrom('notifications')
      .select('declared_at')
      .where('gid', '=', gid)
      .where('value', '=', value)
      .executeTakeFirstOrThrow();
    return timeInZone(row.declared_at, SITE_TIMEZONE);
  };
  const telegramDelivery = (gid: number, value: string) =>
    t.database.db
      .selectFrom('notification_deliveries as d')
      .innerJoin('notifications as n', 'n.notification_id', 'd.notification_id')
      .select(['d.state', 'd.attempts', 'd.next_attempt_at', 'd.lease_until'])
      .where('n.gid', '=', gid)
      .where('n.value', '=', value)
      .where('d.channel', '=', 'telegram')
      .executeTakeFirst();
  /** The `count`-th call the bot received (1-based). */
  const nthCall = (count: number) =>
    pollUntil(`Telegram call ${count}`, BOUND_MS, async () => bot.calls[count - 1]);
  const sent = (gid: number, value: string) =>
    pollUntil(`the Telegram delivery of ${value} to end`, BOUND_MS, async () => {
      const row = await telegramDelivery(gid, value);
      return row && row.state !== 'pending' ? row : undefined;
    });

  it('sends a declaration, then edits that message when it is corrected', async () => {
    const ghadi = await createGhadi(t.app, adminToken, { NameEn: `Gali ${Date.now()}`, NameHn: 'गली' });
    const before = bot.calls.length;
    await declare(ghadi.GID, '45');
    const declared = await nthCall(before + 1);
    expect(declared.method).toBe('sendMessage');
    expect(declared.token).toBe(TOKEN);
    expect(declared.body).toEqual({
      chat_id: CHAT,
      text: `${ghadi.NameEn} (गली): 45 — ${dayLabel(today())}, ${await declaredAt(ghadi.GID, '45')}`,
    });
    expect((await sent(ghadi.GID, '45')).state).toBe('sent');
    const messageId = await t.database.db
      .selectFrom('telegram_messages')
      .select('message_id')
      .where('gid', '=', ghadi.GID)
      .executeTakeFirstOrThrow();

    await declare(ghadi.GID, '54');
    const corrected = await nthCall(before + 2);
    expect(corrected.method).toBe('editMessageText');
    expect(corrected.body).toEqual({
      chat_id: CHAT,
      message_id: Number(messageId.message_id),
      text: `${ghadi.NameEn} (गली): 54 — ${dayLabel(today())}, ${await declaredAt(ghadi.GID, '54')} (corrected)`,
    });
    expect((await sent(ghadi.GID, '54')).state).toBe('sent');
    expect(bot.calls).toHaveLength(before + 2);
    expect(bot.messages.get(Number(messageId.message_id))).toMatch(/: 54 — .* \(corrected\)$/);
  });

  it('waits as long as a 429’s retry_after asks, then sends', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const before = bot.calls.length;
    bot.refuseNext(1, 30);
    await declare(ghadi.GID, '67', daysFromToday(-1));
    expect((await nthCall(before + 1)).status).toBe(429);
    const postponed = await pollUntil('the throttled delivery to be let go', BOUND_MS, async () => {
      const row = await telegramDelivery(ghadi.GID, '67');
      return row && row.attempts === 1 && row.lease_until === null ? row : undefined;
    });
    expect(Date.parse(postponed.next_attempt_at)).toBe(clock.now() + 30_000);
    clock.advance(30_000);
    const retried = await nthCall(before + 2);
    expect(retried.method).toBe('sendMessage');
    expect(retried.status).toBe(200);
    expect((await sent(ghadi.GID, '67')).state).toBe('sent');
  });

  it('waits no longer than a short retry_after asks (not the back-off)', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    const before = bot.calls.length;
    bot.refuseNext(1, 2);
    await declare(ghadi.GID, '68', daysFromToday(-1));
    expect((await nthCall(before + 1)).status).toBe(429);
    const postponed = await pollUntil('the throttled delivery to be let go', BOUND_MS, async () => {
      const row = await telegramDelivery(ghadi.GID, '68');
      return row && row.attempts === 1 && row.lease_until === null ? row : undefined;
    });
    expect(Date.parse(postponed.next_attempt_at)).toBe(clock.now() + 2000);
    clock.advance(2000);
    expect((await nthCall(before + 2)).status).toBe(200);
  });

  it('sends nothing for a CSV import or an older date', async () => {
    const ghadi = await createGhadi(t.app, adminToken);
    await importResults(t.app, adminToken, [[today(), ghadi.GID, '11']]);
    await declare(ghadi.GID, '22', daysFromToday(-3));
    const queued = await t.database.db
      .selectFrom('notifications')
      .select('notification_id')
      .where('gid', '=', ghadi.GID)
      .execute();
    expect(queued).toEqual([]);
  });
});
