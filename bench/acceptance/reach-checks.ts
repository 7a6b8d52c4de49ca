/**
 * Issue 44's "Done when", from outside, on a site of its own (SQLite, PUBLIC_URL set): the checker's
 * own push service on loopback (RFC 8030, decrypting RFC 8291, checking RFC 8292; bench/lib/push-service.ts)
 * and its own stand-in of the Telegram Bot API; subscriptions through the API in both languages;
 * declarations and corrections, each notification's payload, topic, urgency, TTL and count; 410s
 * removed; a restart mid-delivery (reach-push.ts); the channel's messages (reach-telegram.ts); the
 * calendars and feeds (reach-calendars.ts); the embed in a cross-origin iframe in Chromium (reach-embed.ts).
 */
import { type PushService, pushTls, startPushService } from '../lib/push-service.js';
import { startTelegramStandIn, type TelegramStandIn } from '../lib/telegram-stand-in.js';
import { calendarChecks, feedChecks } from './reach-calendars.js';
import { embedChecks } from './reach-embed.js';
import { LOOPBACK_ENDPOINTS, pushChecks } from './reach-push.js';
import { type ReachGhadi, type ReachSite, startReachSite } from './reach-site.js';
import { RETRY_AFTER_SECONDS, TELEGRAM_CHAT, TELEGRAM_TOKEN, telegramChecks } from './reach-telegram.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

const daysBefore = (today: string, days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

/** Two daily ghadis and a market open Monday to Saturday. */
async function makeGhadis(site: ReachSite): Promise<ReachGhadi[]> {
  const jodi = { Kind: 'jodi', OpenTime: null, Days: EVERY_DAY };
  return [
    await site.createGhadi({
      NameEn: 'Reach Daily',
      NameHn: 'रीच डेली',
      RTime: '05:15 PM',
      OrderId: 1,
      ...jodi,
    }),
    await site.createGhadi({
      NameEn: 'Reach Market',
      NameHn: 'रीच मार्केट',
      RTime: '05:30 PM',
      Kind: 'open-close',
      OpenTime: '03:30 PM',
      Days: [1, 2, 3, 4, 5, 6],
      OrderId: 2,
    }),
    await site.createGhadi({
      NameEn: 'Reach Night',
      NameHn: 'रीच नाइट',
      RTime: '11:40 PM',
      OrderId: 3,
      ...jodi,
    }),
  ];
}

/** With PUSH_ALLOW_LOOPBACK off (the default), loopback in every spelling is refused. */
async function loopbackCheck(site: ReachSite, push: PushService, ghadi: ReachGhadi): Promise<CheckResult> {
  const keys = push.subscription().keys;
  const answers: string[] = [];
  for (const endpoint of LOOPBACK_ENDPOINTS) {
    const answer = await site.call('POST', '/api/push/subscriptions', {
      subscription: { endpoint, keys },
      ghadis: [ghadi.GID],
      lang: 'en',
    });
    answers.push(`${endpoint.replace('https://', '').replace('/p', '')} ${answer.status}`);
  }
  return {
    name: 'PUSH_ALLOW_LOOPBACK off: loopback endpoints in every spelling answer 400',
    ok: answers.every((line) => line.endsWith(' 400')),
    detail: answers.join(', '),
  };
}

export const reachChecks: StandaloneChecks = async (settings: CheckSettings) => {
  let site: ReachSite | undefined;
  let push: PushService | undefined;
  let telegram: TelegramStandIn | undefined;
  try {
    const tls = pushTls();
    push = await startPushService({ tls });
    telegram = await startTelegramStandIn();
    site = await startReachSite(settings, {
      PUSH_ALLOW_LOOPBACK: 'true',
      NODE_EXTRA_CA_CERTS: tls.caFile,
      // PUBLIC_URL is http://127.0.0.1: VAPID needs an https: or mailto: subject of its own.
      VAPID_SUBJECT: 'mailto:operator@example.com',
      TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
      TELEGRAM_CHAT_ID: TELEGRAM_CHAT,
      TELEGRAM_API_URL: telegram.url,
      LOG_LEVEL: 'info',
    });
    const running = site;
    const ghadis = await makeGhadis(site);
    const [daily, , night] = ghadis as [ReachGhadi, ReachGhadi, ReachGhadi];
    // Old days' values and a correction: the feeds' entries (nothing notifies for them).
    for (const [value, days] of [
      ['11', 5],
      ['12', 4],
      ['13', 3],
      ['31', 3],
    ] as const)
      await site.declare(daily.GID, value, daysBefore(site.today, days));
    const results: CheckResult[] = [
      ...(await calendarChecks(site, ghadis, settings.siteTimezone)),
      ...(await feedChecks(site, daily, await site.log(daily.GID))),
    ];
    telegram.refuseNext(1, RETRY_AFTER_SECONDS);
    results.push(
      ...(await pushChecks({
        site,
        push,
        daily,
        night,
        today: site.today,
        yesterday: daysBefore(site.today, 1),
        longAgo: daysBefore(site.today, 5),
        declare: (gid, value, date) => running.declare(gid, value, date),
        removedSubscriptions: async (count, ms) => {
          const deadline = Date.now() + ms;
          let removed = 0;
          while (Date.now() < deadline) {
            removed = await running.metric('notifications_removed_total', 'channel="push"');
            if (removed >= count) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return removed;
        },
      })),
    );
    results.push(...(await telegramChecks(telegram, site.output())));
    results.push(
      ...(await embedChecks(site, daily, (value) => running.declare(daily.GID, value, running.today))),
    );
    await site.restart({ PUSH_ALLOW_LOOPBACK: 'false' });
    results.push(await loopbackCheck(site, push, daily));
    return results;
  } catch (error) {
    return [
      {
        name: 'the reach site',
        ok: false,
        detail: `${(error as Error).stack}; the server's last output: ${site?.output().slice(-1500) ?? 'none'}`,
      },
    ];
  } finally {
    await site?.stop();
    await push?.close();
    await telegram?.close();
  }
};
