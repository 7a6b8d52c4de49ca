import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Now } from '../../lib/clock.js';
import type {
  Channel,
  ClaimedDelivery,
  FinishedState,
  NotificationDeliveriesRepository,
} from './notification-deliveries-repository.js';
import type { NotificationsRepository } from './notifications-repository.js';
import type { SendOutcome } from './send-outcome.js';

/** Attempts at one delivery, the first included (decision 0025). */
export const MAX_ATTEMPTS = 5;
/** No attempt is made this long after the notification was fanned out: the news is stale. */
export const RETRY_WINDOW_MS = 10 * 60 * 1000;
/** Waits after the first, second, … failed attempt: the fifth attempt comes 400 s after the first. */
export const BACK_OFF_MS = [10_000, 30_000, 90_000, 270_000];
/** How long a claim is held: a sender that died holding it is taken over after this. */
export const LEASE_MS = 60_000;
/** A Telegram correction whose original is still unsent looks again this soon (any process). */
const WAIT_FOR_EARLIER_MS = 1000;
/** The least wait when a service names its own (a Retry-After of 0 is not a licence to hammer it). */
const MIN_ASKED_WAIT_MS = 1000;
/** Deliveries in flight at once in each process. */
export const DEFAULT_CONCURRENCY = 50;
/** Looked at without being woken: other processes' retries, leases that ran out. */
export const DEFAULT_POLL_MS = 5_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Finished deliveries kept (their notifications' "superseded" check needs the later ones). */
const KEEP_FINISHED_MS = 60 * 60 * 1000;
/** Telegram messages kept for editing: corrections come for today's and yesterday's results only. */
const KEEP_MESSAGES_MS = 3 * 24 * 60 * 60 * 1000;

export interface ChannelSender {
  send(delivery: ClaimedDelivery): Promise<SendOutcome>;
}

export interface DeliveryReports {
  sent(channel: Channel, lagSeconds: number): void;
  failed(channel: Channel): void;
  removed(channel: Channel): void;
}

export interface DispatcherOptions {
  repository: NotificationsRepository;
  deliveries: NotificationDeliveriesRepository;
  channels: Partial<Record<Channel, ChannelSender>>;
  now: Now;
  log: FastifyBaseLogger;
  reports: DeliveryReports;
  concurrency?: number;
  pollMs?: number;
  /** Told once claiming has stopped, before the sends in flight are waited for. */
  onStopping?: () => void;
}

/**
 * The one sender of each process (decision 0025): fans pending notifications out into deliveries,
 * claims due deliveries with a lease, sends at most `concurrency` at a time, and records each outcome.
 * Woken when a result change is heard of (this process's or another's), by its own finished sends,
 * and by a timer (the next retry, or the poll interval). Stopping stops claiming and waits for the
 * sends in flight, which record their outcome: nothing claimed is left held.
 */
export class NotificationDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly concurrency: number;
  private readonly refillAt: number;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private lastPrune = 0;
  /** Deliveries ended in this turn, by state, and the write that will record them. */
  private readonly finishing = new Map<FinishedState, number[]>();
  private flushed: Promise<void> | undefined;

  constructor(private readonly options: DispatcherOptions) {
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.refillAt = Math.floor(this.concurrency / 2);
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Looks for work now (coalesced: a wake during a round makes one more round). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.round()
      .catch((error: unknown) => {
        this.options.log.error({ err: error }, 'notifications: a dispatch round failed; trying again');
        // The round ended before it set its timer (the database did not answer, say).
        if (!this.stopped && !this.timer) {
          this.timer = setTimeout(() => {
            this.timer = undefined;
            this.wake();
          }, this.pollMs);
          this.timer.unref();
        }
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Stops claiming, then waits for the sends in flight to finish and record their outcome. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    this.options.onStopping?.();
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private iso(offsetMs = 0): string {
    return new Date(this.options.now() + offsetMs).toISOString();
  }

  private async round(): Promise<void> {
    const { repository, deliveries, channels } = this.options;
    const fanOut = { push: channels.push !== undefined, telegram: channels.telegram !== undefined };
    while (!this.stopped && (await repository.hasPendingNotifications())) {
      if ((await repository.fanOutStep(fanOut, this.iso())) === 0) break;
      await yieldToOthers();
    }
    while (!this.stopped && this.inFlight.size < this.concurrency) {
      const next = await deliveries.nextDue();
      if (next === null || next > this.iso()) break;
      const claimed = await deliveries.claim(
        this.concurrency - this.inFlight.size,
        this.iso(),
        this.iso(LEASE_MS),
      );
      if (claimed.length === 0) break;
      let started = 0;
      for (const delivery of claimed) {
        // A Telegram correction waits for its declaration's message (it edits it): let go, due still.
        if (delivery.waitsForEarlier) {
          await deliveries.postpone(delivery.deliveryId, delivery.attempts, this.iso(WAIT_FOR_EARLIER_MS));
          continue;
        }
        started++;
        this.track(this.deliver(delivery));
        // Each send encrypts on this thread: let readers' requests in between, at result time above all.
        await yieldToOthers();
      }
      if (started === 0) break;
    }
    await this.pruneNow();
    if (!this.stopped) await this.schedule();
  }

  private track(sending: Promise<void>): void {
    const tracked = sending
      .catch((error: unknown) =>
        this.options.log.error({ err: error }, 'notifications: recording a delivery failed'),
      )
      .finally(() => {
        this.inFlight.delete(tracked);
        // Claimed again in batches, once half the places are free: a round per send would read the
        // queue's head 10 000 times for 10 000 subscribers.
        if (this.inFlight.size <= this.refillAt) this.wake();
      });
    this.inFlight.add(tracked);
  }

  /** Sleeps until the next delivery is due, or the poll interval, whichever comes first. */
  private async schedule(): Promise<void> {
    if (this.inFlight.size >= this.concurrency) return;
    const next = await this.options.deliveries.nextDue();
    const dueIn = next === null ? this.pollMs : Date.parse(next) - this.options.now();
    const waitMs = Math.max(1, Math.min(this.pollMs, dueIn));
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wake();
    }, waitMs);
    this.timer.unref();
  }

  private async pruneNow(): Promise<void> {
    const now = this.options.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.options.repository.prune(this.iso(-KEEP_FINISHED_MS), this.iso(-KEEP_MESSAGES_MS));
  }

  /**
   * Records a delivery's end together with the others ended in the same turn of the event loop: one
   * statement for a batch of answers rather than one each, at result time when thousands arrive.
   * Resolves once written (a graceful stop waits for it).
   */
  private finish(deliveryId: number, state: FinishedState): Promise<void> {
    let ids = this.finishing.get(state);
    if (!ids) {
      ids = [];
      this.finishing.set(state, ids);
    }
    ids.push(deliveryId);
    this.flushed ??= yieldToOthers().then(() => {
      const batches = [...this.finishing];
      this.finishing.clear();
      this.flushed = undefined;
      const now = this.iso();
      return Promise.all(
        batches.map(([batchState, batch]) => this.options.deliveries.finish(batch, batchState, now)),
      ).then(() => {});
    });
    return this.flushed;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { deliveries: repository, reports, log } = this.options;
    const channel = this.options.channels[delivery.channel];
    // A later notification of the same result replaces this one on the device (same tag and Topic).
    if (delivery.channel === 'push' && delivery.superseded) {
      await this.finish(delivery.deliveryId, 'superseded');
      return;
    }
    if (!channel || (delivery.channel === 'push' && !delivery.subscription)) {
      await this.finish(delivery.deliveryId, 'failed');
      return;
    }
    const outcome = await channel.send(delivery).catch(
      (error: unknown): SendOutcome => ({
        kind: 'retry',
        reason: error instanceof Error ? error.message : String(error),
      }),
    );
    const now = this.options.now();
    if (outcome.kind === 'sent') {
      await this.finish(delivery.deliveryId, 'sent');
      reports.sent(delivery.channel, Math.max(0, (now - Date.parse(delivery.declaredAt)) / 1000));
      return;
    }
    if (outcome.kind === 'gone' && delivery.subscription) {
      await repository.gone(delivery.deliveryId, delivery.subscription.id, this.iso());
      reports.removed(delivery.channel);
      return;
    }
    const attempts = delivery.attempts + 1;
    const reason = outcome.kind === 'gone' ? 'gone' : outcome.reason;
    // A service that says when to come back (Retry-After, Telegram's retry_after) knows its own
    // limits better than our back-off does; result time is no time to wait longer than asked.
    const askedMs = outcome.kind === 'retry' ? outcome.afterMs : undefined;
    const waitMs =
      askedMs === undefined
        ? (BACK_OFF_MS[attempts - 1] ?? Number.POSITIVE_INFINITY)
        : Math.max(askedMs, MIN_ASKED_WAIT_MS);
    const deadline = Date.parse(delivery.createdAt) + RETRY_WINDOW_MS;
    if (outcome.kind === 'retry' && attempts < MAX_ATTEMPTS && now + waitMs <= deadline) {
      log.info(
        { delivery: delivery.deliveryId, channel: delivery.channel, attempts, reason, waitMs },
        'notifications: will try again',
      );
      await repository.postpone(delivery.deliveryId, attempts, this.iso(waitMs));
      return;
    }
    log.warn(
      { delivery: delivery.deliveryId, channel: delivery.channel, attempts, reason },
      'notifications: gave up on a delivery',
    );
    await this.finish(delivery.deliveryId, 'failed');
    reports.failed(delivery.channel);
  }
}
