import type { ChildProcess } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import type { PublicPageData } from '../../../shared/public-page-data.js';
import { forkNiced } from '../../lib/niced-child-process.js';
import type { EncodedBody } from '../model/cached-answer.js';

/** What a render process is told first: the built server bundle and the page template. */
export interface RenderSetup {
  bundleUrl: string;
  template: string;
}
/** A page to render: its data, PUBLIC_URL or null, and whether to compress it. */
export interface PageToRender {
  data: PublicPageData;
  origin: string | null;
  compress: boolean;
}
export type RenderMessage = { init: RenderSetup } | { id: number; page: PageToRender };
export type RenderAnswer =
  | { id: number; identity: Uint8Array; hash: string; br: Uint8Array | undefined }
  | { id: number; error: string };

/** Renders, assembles and encodes a page, here or in another process. */
export interface PageRenderer {
  renderPage(page: PageToRender): Promise<EncodedBody>;
}

/** A buffer of this process's own, whatever the channel handed over. */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes);
}

/**
 * The render processes' niceness: below the server's, so that the event loop answering kept pages
 * goes first, but not the lowest (19), whose share of a core the servers keep busy is ~1.5 %: a page
 * not yet built during a burst then waited for the render deadline. At 10 it gets ~10 %.
 */
export const RENDER_NICENESS = 10;

/**
 * A render taking longer than this means a stuck process: it is ended and its renders fail. It counts
 * from when the process is ready: loading the bundle takes a busy machine seconds of its own.
 */
const RENDER_DEADLINE_MS = 10_000;
/** A process that has not loaded the bundle by then is stuck loading it. */
const LOAD_DEADLINE_MS = 60_000;

export interface RenderPoolOptions {
  processes: number;
  /** RENDER_DEADLINE_MS, shortened by tests. */
  deadlineMs?: number;
}

interface Pending {
  resolve: (body: EncodedBody) => void;
  reject: (error: Error) => void;
  /** Set once the process is ready: a render waiting for it to load is not yet late. */
  timer?: NodeJS.Timeout;
}

/**
 * One render process, started when a render needs it (or by the check at start) and started again
 * after it fails. A process rather than a worker thread: a second V8 isolate in the server's process
 * made every kept page it answered cost more CPU (the `hot` bench, bench/README.md).
 */
class RenderProcess {
  private readonly pending = new Map<number, Pending>();
  private child: ChildProcess | null = null;
  /** Whether the current process has loaded the bundle. */
  private ready = false;
  private loadTimer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    private readonly setup: RenderSetup,
    private readonly deadlineMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  get busy(): number {
    return this.pending.size;
  }

  /** Starts the process and resolves once it has loaded the bundle, or rejects: the check at start. */
  check(): Promise<void> {
    const child = this.spawn();
    // Until it answers, the start waits on it alone: its channel must keep this process running.
    child.channel?.ref();
    return new Promise<void>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the render process exited (${code})`));
      const onMessage = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        child.off('message', onMessage).off('error', reject).off('exit', onExit);
        child.channel?.unref();
        resolve();
      };
      child.on('message', onMessage).once('error', reject).once('exit', onExit);
    });
  }

  render(id: number, page: PageToRender): Promise<EncodedBody> {
    const child = this.child ?? this.spawn();
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject };
      if (this.ready) this.watch(child, pending);
      this.pending.set(id, pending);
      child.send({ id, page } satisfies RenderMessage);
    });
  }

  private watch(child: ChildProcess, pending: Pending): void {
    pending.timer = setTimeout(
      () => this.fail(child, new Error('a page render ran past its deadline')),
      this.deadlineMs,
    );
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.loadTimer);
    this.failAll(new Error('the server is stopping'));
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  }

  private spawn(): ChildProcess {
    // Renders in flight come from requests, which keep the server alive themselves.
    const child = forkNiced(import.meta.url, 'page-render-process', RENDER_NICENESS);
    this.child = child;
    this.ready = false;
    this.loadTimer = setTimeout(
      () => this.fail(child, new Error('the render process did not load its bundle in time')),
      Math.max(this.deadlineMs, LOAD_DEADLINE_MS),
    );
    this.loadTimer.unref();
    child.on('message', (answer: RenderAnswer | { ready: true }) => {
      if (!('id' in answer)) {
        if (child !== this.child) return;
        clearTimeout(this.loadTimer);
        this.ready = true;
        for (const pending of this.pending.values()) this.watch(child, pending);
        return;
      }
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      clearTimeout(waiting.timer);
      if ('hash' in answer)
        waiting.resolve({
          identity: bufferOf(answer.identity),
          hash: answer.hash,
          br: answer.br && bufferOf(answer.br),
        });
      else waiting.reject(new Error(`a page render failed: ${answer.error}`));
    });
    child.on('error', (error) => this.fail(child, error));
    child.on('exit', (code, signal) =>
      this.fail(child, new Error(`the render process exited (${code ?? signal})`)),
    );
    child.send({ init: this.setup } satisfies RenderMessage);
    return child;
  }

  /**
   * The current process failed, exited or hangs: its renders fail (their readers get a 5xx) and it
   * ends; the next render starts another. One already ended or replaced is no longer watched.
   */
  private fail(child: ChildProcess, error: Error): void {
    if (this.stopping || child !== this.child) return;
    this.log.error({ err: error }, 'page render process failed; the next render starts another');
    this.child = null;
    clearTimeout(this.loadTimer);
    this.failAll(error);
    child.kill('SIGKILL');
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    this.pending.clear();
  }
}

/**
 * Processes that render, assemble and compress the public pages (RENDER_PROCESSES), at a lower
 * priority, so that rebuilding what a declaration dropped never holds up the event loop that answers
 * the kept pages (decision record 0017). A render goes to the process with the fewest in flight.
 */
export class PageRenderPool implements PageRenderer {
  private nextId = 1;

  private constructor(private readonly processes: readonly RenderProcess[]) {}

  static async start(
    setup: RenderSetup,
    options: RenderPoolOptions,
    log: FastifyBaseLogger,
  ): Promise<PageRenderPool> {
    const deadline = options.deadlineMs ?? RENDER_DEADLINE_MS;
    const processes = Array.from(
      { length: options.processes },
      () => new RenderProcess(setup, deadline, log),
    );
    try {
      await Promise.all(processes.map((renderer) => renderer.check()));
    } catch (error) {
      await Promise.all(processes.map((renderer) => renderer.stop()));
      throw error;
    }
    return new PageRenderPool(processes);
  }

  renderPage(page: PageToRender): Promise<EncodedBody> {
    let chosen = this.processes[0] as RenderProcess;
    for (const renderer of this.processes) if (renderer.busy < chosen.busy) chosen = renderer;
    const id = this.nextId++;
    return chosen.render(id, page);
  }

  async close(): Promise<void> {
    await Promise.all(this.processes.map((renderer) => renderer.stop()));
  }
}
