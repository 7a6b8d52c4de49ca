import type { ChildProcess } from 'node:child_process';
import type https from 'node:https';
import { forkNiced } from '../../lib/niced-child-process.js';
import type { EndpointPolicy } from '../../lib/push-endpoint.js';
import type { SendOutcome } from './send-outcome.js';

/** One message, encrypted and sent by the process: everything it needs, already worded and signed. */
export interface PushToSend {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The JSON the service worker shows. */
  payload: string;
  topic: string;
  ttl: number;
  /** The VAPID header (signed once per push service, push-channel.ts). */
  authorization: string;
}
export interface PushSenderSetup {
  policy: EndpointPolicy;
  /** More certificate authorities to trust (tests: a local push service's). */
  ca?: https.AgentOptions['ca'];
  maxSockets: number;
  timeoutMs: number;
}
export type PushSendMessage = { init: PushSenderSetup } | { id: number; push: PushToSend };
export type PushSendAnswer = { id: number; outcome: SendOutcome };

/**
 * The sending process's niceness, as the render processes' (decision 0018): below the server's, so
 * readers' requests go first at result time, while its share of a busy core still sends 10 000
 * messages well within their minute.
 */
export const PUSH_SENDER_NICENESS = 10;
/** A send unanswered this long means a stuck process: it is ended, and its sends are tried again. */
const ANSWER_DEADLINE_MS = 30_000;

interface Pending {
  resolve: (outcome: SendOutcome) => void;
  timer: NodeJS.Timeout;
}

/**
 * Sends Web Push messages through a process of its own (decision 0026), started at the first send
 * and again after it failed; a send whose process failed comes back as one to try again.
 */
export class PushSendPool {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly setup: PushSenderSetup) {}

  send(push: PushToSend): Promise<SendOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'retry', reason: 'the server is stopping' });
    const child = this.child ?? this.spawn();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => this.fail(child, 'the push sender did not answer in time'),
        ANSWER_DEADLINE_MS,
      );
      this.pending.set(id, { resolve, timer });
      child.send({ id, push } satisfies PushSendMessage);
    });
  }

  /** Ends the process: called once no send is in flight (the dispatcher waited for them). */
  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    this.child = null;
    this.failAll('the server is stopping');
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.disconnect();
    await exited;
  }

  private spawn(): ChildProcess {
    // Sends in flight come from the dispatcher, which keeps the server alive itself.
    const child = forkNiced(import.meta.url, 'push-send-process', PUSH_SENDER_NICENESS);
    this.child = child;
    child.on('message', ({ id, outcome }: PushSendAnswer) => {
      const waiting = this.pending.get(id);
      if (!waiting) return;
      this.pending.delete(id);
      clearTimeout(waiting.timer);
      waiting.resolve(outcome);
    });
    child.on('error', (error) => this.fail(child, error.message));
    child.on('exit', (code, signal) => this.fail(child, `the push sender exited (${code ?? signal})`));
    child.send({ init: this.setup } satisfies PushSendMessage);
    return child;
  }

  /** The process failed, exited or hangs: its sends are to be tried again, by the next process. */
  private fail(child: ChildProcess, reason: string): void {
    if (child !== this.child) return;
    this.child = null;
    this.failAll(reason);
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }

  private failAll(reason: string): void {
    for (const { resolve, timer } of this.pending.values()) {
      clearTimeout(timer);
      resolve({ kind: 'retry', reason });
    }
    this.pending.clear();
  }
}
