import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Channel } from './notification-deliveries-repository.js';
import type { DeliveryReports } from './notification-dispatcher.js';

/** Seconds from a declaration to its delivery: most within seconds, retries within minutes. */
const LAG_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600];

/**
 * How long a scrape waits for the subscriptions' count before it shows the last one: a healthy
 * database counts them in a few milliseconds; a stuck one must not hold the scrape.
 */
const COUNT_WAIT_MS = 25;

/** The notifications' metrics, registered on the app's registry (decision 0025). */
export class NotificationMetrics implements DeliveryReports {
  private readonly sentCount: Counter<'channel'>;
  private readonly failedCount: Counter<'channel'>;
  private readonly removedCount: Counter<'channel'>;
  private readonly lag: Histogram<'channel'>;

  constructor(registry: Registry, countSubscriptions: () => Promise<number>) {
    const registers = [registry];
    let counting: Promise<void> | undefined;
    new Gauge({
      name: 'push_subscriptions',
      help: 'Web Push subscriptions stored (the database’s count: the same in every process)',
      registers,
      // Every worker reads the same table: the cluster's figure is one of theirs, not their sum.
      aggregator: 'max',
      async collect() {
        // A database that does not answer (or answers slowly) keeps the last count: the scrape must
        // neither fail nor wait on it, since /metrics is how an operator sees the database is stuck;
        // and one count at a time, so a stuck database is not asked again at every scrape.
        counting ??= countSubscriptions()
          .then((count) => {
            this.set(count);
          })
          .catch(() => {})
          .finally(() => {
            counting = undefined;
          });
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, COUNT_WAIT_MS);
        });
        await Promise.race([counting, late]);
        clearTimeout(timer);
      },
    });
    this.sentCount = new Counter({
      name: 'notifications_sent_total',
      help: 'Notifications delivered, by channel (push: one per subscription)',
      labelNames: ['channel'] as const,
      registers,
    });
    this.failedCount = new Counter({
      name: 'notifications_failed_total',
      help: 'Notifications given up on after their attempts, or refused for good, by channel',
      labelNames: ['channel'] as const,
      registers,
    });
    this.removedCount = new Counter({
      name: 'notifications_removed_total',
      help: 'Subscriptions removed because the push service answered 404 or 410, by channel',
      labelNames: ['channel'] as const,
      registers,
    });
    this.lag = new Histogram({
      name: 'notification_delivery_lag_seconds',
      help: 'Seconds from a result’s declaration to its notification’s delivery, by channel',
      labelNames: ['channel'] as const,
      buckets: LAG_BUCKETS,
      registers,
    });
  }

  sent(channel: Channel, lagSeconds: number): void {
    this.sentCount.inc({ channel });
    this.lag.observe({ channel }, lagSeconds);
  }

  failed(channel: Channel): void {
    this.failedCount.inc({ channel });
  }

  removed(channel: Channel): void {
    this.removedCount.inc({ channel });
  }
}
