/**
 * The local push service (push-service.ts) in a process of its own, driven over IPC by
 * push-service-child.ts: a bench that times reads must not decrypt thousands of push messages on its
 * own event loop. It makes subscriptions, sets how they answer, and tallies what arrived by the value
 * in the notification's title ("Gali: 45"). Started with the certificate's directory as argument.
 */
import { type PushBehaviour, pushTls, type ReceivedPush, startPushService } from './push-service.js';

/** What one subscription received for one value. */
export interface Arrivals {
  /** Messages answered 201. */
  delivered: number;
  /** Messages answered otherwise (the subscription's behaviour, or a flaw in the message). */
  refused: number;
  /** The first message's receipt (epoch ms). */
  firstAt: number;
}

export type PushRequest =
  | { kind: 'subscribe'; count: number; applicationServerKey: string }
  | { kind: 'behave'; ids: string[]; behaviour: PushBehaviour | null }
  | { kind: 'tally'; value: string }
  | { kind: 'arrivals'; value: string }
  | { kind: 'close' };

export interface Tally {
  /** Subscriptions that got the value at least once with a 201. */
  subscriptions: number;
  messages: number;
}

export interface Flaws {
  /** Messages that failed VAPID or decryption, or had no title. */
  count: number;
  first: string[];
}

export type PushAnswer =
  | { kind: 'ready'; origin: string; caFile: string }
  | { kind: 'answer'; id: number; result: unknown };

const VALUE = /: (\S+)$/;
const FLAWS_KEPT = 5;

async function main() {
  const tlsDir = process.argv[2];
  if (!tlsDir) throw new Error('push-service-process: the certificate directory is missing');
  const service = await startPushService({ tls: pushTls(tlsDir) });
  const byValue = new Map<string, Map<string, Arrivals>>();
  const delivered = new Map<string, number>();
  const flaws: Flaws = { count: 0, first: [] };

  service.on('message', (message: ReceivedPush) => {
    // Kept in the tallies only: 10 000s of decrypted bodies need not stay in memory.
    service.messages.length = 0;
    const title = (message.payload as { title?: unknown } | null)?.title;
    const value = typeof title === 'string' ? VALUE.exec(title)?.[1] : undefined;
    if (message.error !== null || value === undefined) {
      flaws.count++;
      if (flaws.first.length < FLAWS_KEPT) flaws.first.push(message.error ?? `no value in ${String(title)}`);
      if (value === undefined) return;
    }
    let arrivals = byValue.get(value);
    if (!arrivals) {
      arrivals = new Map();
      byValue.set(value, arrivals);
    }
    const entry = arrivals.get(message.subscriptionId) ?? {
      delivered: 0,
      refused: 0,
      firstAt: message.receivedAt.getTime(),
    };
    if (message.status === 201) {
      if (entry.delivered === 0) delivered.set(value, (delivered.get(value) ?? 0) + 1);
      entry.delivered++;
    } else entry.refused++;
    arrivals.set(message.subscriptionId, entry);
  });

  const answer = (request: PushRequest): unknown => {
    switch (request.kind) {
      case 'subscribe':
        return Array.from({ length: request.count }, () =>
          service.subscription({ applicationServerKey: request.applicationServerKey }),
        );
      case 'behave':
        for (const id of request.ids) service.behave(id, request.behaviour);
        return null;
      case 'tally': {
        const arrivals = byValue.get(request.value);
        let messages = 0;
        for (const entry of arrivals?.values() ?? []) messages += entry.delivered + entry.refused;
        return { subscriptions: delivered.get(request.value) ?? 0, messages } satisfies Tally;
      }
      case 'arrivals':
        return { arrivals: Object.fromEntries(byValue.get(request.value) ?? []), flaws };
      case 'close':
        return null;
    }
  };

  process.on('message', (message: { id: number; request: PushRequest }) => {
    const result = answer(message.request);
    process.send?.({ kind: 'answer', id: message.id, result } satisfies PushAnswer, () => {
      if (message.request.kind === 'close') void service.close().then(() => process.exit(0));
    });
  });
  process.on('disconnect', () => void service.close().then(() => process.exit(0)));
  process.send?.({ kind: 'ready', origin: service.origin, caFile: service.caFile } satisfies PushAnswer);
}

main().catch((error: unknown) => {
  process.stderr.write(`push-service-process: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
