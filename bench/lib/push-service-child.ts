/**
 * The bench's side of push-service-process.ts: forks it (under tsx), pins it to `cpus` when asked,
 * and asks it over IPC, one answer per request.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PushBehaviour, TestSubscription } from './push-service.js';
import type { Arrivals, Flaws, PushAnswer, PushRequest, Tally } from './push-service-process.js';

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'push-service-process.ts');

export class PushServiceChild {
  private nextId = 0;
  private readonly waiting = new Map<number, (result: unknown) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly origin: string,
    /** The certificate the server must trust (NODE_EXTRA_CA_CERTS). */
    readonly caFile: string,
  ) {
    child.on('message', (message: PushAnswer) => {
      if (message.kind !== 'answer') return;
      this.waiting.get(message.id)?.(message.result);
      this.waiting.delete(message.id);
    });
  }

  /** Starts the service with its certificate in `tlsDir` (made once, reused). */
  static async start(tlsDir: string, cpus: string | null): Promise<PushServiceChild> {
    const child = fork(ENTRY, [tlsDir], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(`the push service exited with ${String(code)} before it was ready`);
    });
    const ready = new Promise<PushAnswer & { kind: 'ready' }>((resolve) =>
      child.on('message', (message: PushAnswer) => {
        if (message.kind === 'ready') resolve(message);
      }),
    );
    const { origin, caFile } = await Promise.race([ready, exited]);
    exited.catch(() => undefined);
    if (cpus !== null && os.availableParallelism() > 1 && child.pid)
      execFileSync('taskset', ['-a', '-p', '-c', cpus, String(child.pid)], { stdio: 'ignore' });
    return new PushServiceChild(child, origin, caFile);
  }

  private ask<T>(request: PushRequest): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, (result) => resolve(result as T));
      this.child.send({ id, request }, (error) => {
        if (error) reject(error);
      });
    });
  }

  subscriptions(count: number, applicationServerKey: string): Promise<TestSubscription[]> {
    return this.ask({ kind: 'subscribe', count, applicationServerKey });
  }

  behave(ids: string[], behaviour: PushBehaviour | null): Promise<void> {
    return this.ask({ kind: 'behave', ids, behaviour });
  }

  /** How many subscriptions got `value` (a 201), and how many messages carried it. */
  tally(value: string): Promise<Tally> {
    return this.ask({ kind: 'tally', value });
  }

  /** Per subscription, what arrived carrying `value`; and the messages that failed their checks. */
  arrivals(value: string): Promise<{ arrivals: Record<string, Arrivals>; flaws: Flaws }> {
    return this.ask({ kind: 'arrivals', value });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    await this.ask({ kind: 'close' });
    await exited;
  }
}
