import type https from 'node:https';
import type { Registry } from 'prom-client';
import type { ModuleContext } from '../module-context.js';
import { pushModule } from '../push/push-module.js';
import { type Channel, NotificationDeliveriesRepository } from './notification-deliveries-repository.js';
import { NotificationDispatcher } from './notification-dispatcher.js';
import { NotificationMetrics } from './notification-metrics.js';
import { NotificationOutbox } from './notification-outbox.js';
import { NotificationsRepository } from './notifications-repository.js';
import { PushChannel } from './push-channel.js';
import { TelegramChannel } from './telegram-channel.js';

/** What tests tune: a short poll, a small concurrency, the CA of a local push service. */
export interface NotificationOptions {
  pollMs?: number;
  concurrency?: number;
  pushTls?: Pick<https.AgentOptions, 'ca'>;
  /** Told when the sender has stopped claiming (tests: a stop under way, the sends in flight still held). */
  onStopping?: () => void;
}

/**
 * Notifications of declared results (decision 0025): the outbox the results' writes enqueue into,
 * the push subscriptions' routes, and the dispatcher that sends through Web Push and Telegram.
 * `start` once the app is up; `stop` before the database closes.
 */
export async function notificationsModule(
  context: ModuleContext,
  needs: { registry: Registry; options?: NotificationOptions },
) {
  const { database, config, log, now, changes } = context;
  const push = await pushModule(context);
  const repository = new NotificationsRepository(database);
  const metrics = new NotificationMetrics(needs.registry, () => push.repository.count());
  const telegram = config.telegram;
  if (telegram) log.info({ chat: telegram.chatId }, 'Telegram notifications are on');

  const concurrency = needs.options?.concurrency;
  const pushChannel =
    push.vapid && config.publicUrl && config.push.vapidSubject
      ? new PushChannel({
          vapid: push.vapid,
          subject: config.push.vapidSubject,
          publicUrl: config.publicUrl,
          timeZone: config.siteTimezone,
          policy: push.policy,
          tls: needs.options?.pushTls,
          maxSockets: concurrency ?? 50,
        })
      : undefined;
  const telegramChannel = telegram
    ? new TelegramChannel({ ...telegram, timeZone: config.siteTimezone }, repository, now)
    : undefined;
  const channels: Partial<Record<Channel, PushChannel | TelegramChannel>> = {};
  if (pushChannel) channels.push = pushChannel;
  if (telegramChannel) channels.telegram = telegramChannel;
  const enabled = pushChannel !== undefined || telegramChannel !== undefined;

  const outbox = new NotificationOutbox(repository, { enabled, timeZone: config.siteTimezone, now });
  const dispatcher = enabled
    ? new NotificationDispatcher({
        repository,
        deliveries: new NotificationDeliveriesRepository(database),
        channels,
        now,
        log,
        reports: metrics,
        concurrency,
        pollMs: needs.options?.pollMs,
        onStopping: needs.options?.onStopping,
      })
    : undefined;
  let unsubscribe: (() => void) | undefined;
  return {
    outbox,
    routes: push.routes,
    /** Starts sending; every result change (this process's or, through the bus, another's) wakes it. */
    start(): void {
      if (!dispatcher) return;
      unsubscribe = changes.subscribe((logged) => {
        if (logged.change.kind === 'result') dispatcher.wake();
      });
      dispatcher.start();
    },
    /** Stops claiming and waits for the sends in flight (a graceful stop leaves none held). */
    async stop(): Promise<void> {
      unsubscribe?.();
      await dispatcher?.stop();
      await pushChannel?.close();
    },
  };
}
