import https from 'node:https';
import webPush, { WebPushError } from 'web-push';
import {
  checkPushEndpoint,
  type EndpointPolicy,
  publicOnlyLookup,
  RefusedAddressError,
} from '../../lib/push-endpoint.js';
import type { VapidKeys } from '../push/vapid-key-store.js';
import type { ClaimedDelivery } from './notification-deliveries-repository.js';
import { pushPayloadOf, topicOf } from './notification-payload.js';
import { retryAfterMs, type SendOutcome } from './send-outcome.js';

/** A result is news for a few hours: a device offline longer gets the page, not the notification. */
export const PUSH_TTL_SECONDS = 3 * 60 * 60;
/** One push request, connection included: well within a graceful stop's time limit. */
const PUSH_TIMEOUT_MS = 5000;

export interface PushChannelOptions {
  vapid: VapidKeys;
  subject: string;
  publicUrl: string;
  timeZone: string;
  policy: EndpointPolicy;
  /** More TLS options for the push requests' agent (tests: the CA of a local push service). */
  tls?: Pick<https.AgentOptions, 'ca'>;
  /** Sockets open at once, per push service host. */
  maxSockets: number;
}

/** Sends deliveries through web-push (RFC 8030, 8291 encryption, 8292 VAPID). */
export class PushChannel {
  private readonly agent: https.Agent;

  constructor(private readonly options: PushChannelOptions) {
    this.agent = new https.Agent({
      ...options.tls,
      keepAlive: true,
      maxSockets: options.maxSockets,
      // Every name is resolved when its connection is made, and refused if it points inside.
      lookup: publicOnlyLookup(options.policy),
    });
  }

  async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    const subscription = delivery.subscription;
    if (!subscription) return { kind: 'failed', reason: 'the subscription is gone' };
    // Checked again: PUSH_ALLOW_LOOPBACK may have been on when it was stored.
    const checked = checkPushEndpoint(subscription.endpoint, this.options.policy);
    if (!checked.ok) return { kind: 'failed', reason: `endpoint ${checked.reason}` };
    const payload = pushPayloadOf(delivery, subscription.lang, this.options);
    try {
      await webPush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: {
            subject: this.options.subject,
            publicKey: this.options.vapid.publicKey,
            privateKey: this.options.vapid.privateKey,
          },
          TTL: PUSH_TTL_SECONDS,
          urgency: 'high',
          topic: topicOf(delivery.gid),
          agent: this.agent,
          timeout: PUSH_TIMEOUT_MS,
        },
      );
      return { kind: 'sent' };
    } catch (error) {
      return outcomeOf(error);
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

function outcomeOf(error: unknown): SendOutcome {
  if (error instanceof WebPushError) {
    const status = error.statusCode;
    if (status === 404 || status === 410) return { kind: 'gone' };
    if (status === 429)
      return { kind: 'retry', reason: 'HTTP 429', afterMs: retryAfterMs(error.headers['retry-after']) };
    if (status >= 500 || status === 408) return { kind: 'retry', reason: `HTTP ${status}` };
    return { kind: 'failed', reason: `HTTP ${status}` };
  }
  if (error instanceof RefusedAddressError) return { kind: 'failed', reason: error.message };
  return { kind: 'retry', reason: error instanceof Error ? error.message : String(error) };
}
