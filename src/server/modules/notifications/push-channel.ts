import type https from 'node:https';
import webPush from 'web-push';
import type { Language } from '../../../shared/page-language.js';
import type { EndpointPolicy } from '../../lib/push-endpoint.js';
import type { VapidKeys } from '../push/vapid-key-store.js';
import type { ClaimedDelivery } from './notification-deliveries-repository.js';
import { pushPayloadOf, topicOf } from './notification-payload.js';
import { PushSendPool } from './push-send-pool.js';
import type { SendOutcome } from './send-outcome.js';

/** A result is news for a few hours: a device offline longer gets the page, not the notification. */
export const PUSH_TTL_SECONDS = 3 * 60 * 60;
/** A VAPID token's lifetime (RFC 8292 allows 24 h) and how long one is sent before a fresh one is signed. */
const VAPID_LIFETIME_SECONDS = 12 * 60 * 60;
const VAPID_REUSE_SECONDS = 11 * 60 * 60;
/** Payloads kept: a notification in two languages, for the few notifications sent at once. */
const PAYLOADS_KEPT = 64;
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

/**
 * Words each delivery in its subscriber's language and hands it to the sending process (RFC 8030,
 * 8291 encryption, 8292 VAPID through web-push; push-send-process.ts), which does the costly part.
 */
export class PushChannel {
  private readonly sender: PushSendPool;
  private readonly vapidHeaders = new Map<string, { authorization: string; until: number }>();
  private readonly payloads = new Map<string, string>();

  constructor(private readonly options: PushChannelOptions) {
    this.sender = new PushSendPool({
      policy: options.policy,
      ...(options.tls?.ca ? { ca: options.tls.ca } : {}),
      maxSockets: options.maxSockets,
      timeoutMs: PUSH_TIMEOUT_MS,
    });
  }

  /**
   * The VAPID header for a push service (RFC 8292: its audience is the service's origin), signed once
   * and kept for hours rather than signed again for each of 10 000 messages to that service.
   */
  private authorizationFor(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const kept = this.vapidHeaders.get(audience);
    if (kept && kept.until > nowSeconds) return kept.authorization;
    const { Authorization } = webPush.getVapidHeaders(
      audience,
      this.options.subject,
      this.options.vapid.publicKey,
      this.options.vapid.privateKey,
      'aes128gcm',
      nowSeconds + VAPID_LIFETIME_SECONDS,
    );
    this.vapidHeaders.set(audience, {
      authorization: Authorization,
      until: nowSeconds + VAPID_REUSE_SECONDS,
    });
    return Authorization;
  }

  /**
   * A notification's words in a language, made once for all its subscribers in that language (the
   * last few kept): 10 000 subscribers would otherwise each format the same date and name.
   */
  private payloadOf(delivery: ClaimedDelivery, lang: Language): string {
    const key = `${delivery.notificationId}:${lang}`;
    let payload = this.payloads.get(key);
    if (payload === undefined) {
      payload = JSON.stringify(pushPayloadOf(delivery, lang, this.options));
      this.payloads.set(key, payload);
      const oldest = this.payloads.keys().next().value;
      if (this.payloads.size > PAYLOADS_KEPT && oldest !== undefined) this.payloads.delete(oldest);
    }
    return payload;
  }

  async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    const subscription = delivery.subscription;
    if (!subscription) return { kind: 'failed', reason: 'the subscription is gone' };
    return this.sender.send({
      endpoint: subscription.endpoint,
      keys: { p256dh: subscription.p256dh, auth: subscription.auth },
      payload: this.payloadOf(delivery, subscription.lang),
      topic: topicOf(delivery.gid),
      ttl: PUSH_TTL_SECONDS,
      authorization: this.authorizationFor(subscription.endpoint),
    });
  }

  close(): Promise<void> {
    return this.sender.close();
  }
}
