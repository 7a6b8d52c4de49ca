import https from 'node:https';
import webPush, { WebPushError } from 'web-push';
import { lowerOwnPriority } from '../../lib/niced-child-process.js';
import {
  checkPushEndpoint,
  type EndpointPolicy,
  publicOnlyLookup,
  RefusedAddressError,
} from '../../lib/push-endpoint.js';
import { PUSH_SENDER_NICENESS, type PushSendAnswer, type PushSendMessage } from './push-send-pool.js';
import { retryAfterMs, type SendOutcome } from './send-outcome.js';

/*
 * The process that sends Web Push messages for a server (push-send-pool.ts, decision 0026): each
 * message's RFC 8291 encryption (a new key pair and an ECDH per message) and its TLS, at a lower
 * priority, so that none of it holds the event loop answering readers while 10 000 go out.
 */
lowerOwnPriority(PUSH_SENDER_NICENESS);

// The server that started this process is gone: nothing is left to send for.
process.on('disconnect', () => process.exit(0));
// A stop is the server's to make: it waits for the sends in flight, then disconnects.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});

let agent: https.Agent | undefined;
let policy: EndpointPolicy = { allowLoopback: false };
let timeoutMs = 5000;

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

process.on('message', (message: PushSendMessage) => {
  if ('init' in message) {
    const { ca, maxSockets } = message.init;
    policy = message.init.policy;
    timeoutMs = message.init.timeoutMs;
    agent = new https.Agent({
      ...(ca ? { ca } : {}),
      keepAlive: true,
      maxSockets,
      // Every name is resolved when its connection is made, and refused if it points inside.
      lookup: publicOnlyLookup(policy),
    });
    return;
  }
  const { id, push } = message;
  // Checked again at each send: PUSH_ALLOW_LOOPBACK may have been on when it was stored.
  const checked = checkPushEndpoint(push.endpoint, policy);
  if (!checked.ok) {
    process.send?.({
      id,
      outcome: { kind: 'failed', reason: `endpoint ${checked.reason}` },
    } satisfies PushSendAnswer);
    return;
  }
  webPush
    .sendNotification({ endpoint: push.endpoint, keys: push.keys }, push.payload, {
      headers: { Authorization: push.authorization },
      TTL: push.ttl,
      urgency: 'high',
      topic: push.topic,
      agent,
      timeout: timeoutMs,
    })
    .then(
      (): SendOutcome => ({ kind: 'sent' }),
      (error: unknown) => outcomeOf(error),
    )
    .then((outcome) => process.send?.({ id, outcome } satisfies PushSendAnswer));
});
