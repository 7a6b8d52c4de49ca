import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { PublicPageData } from '../../../shared/public-page-data.js';
import type { EncodedBody } from './cached-answer.js';

/** What a render thread is started with: the built server bundle and the page template. */
export interface RenderWorkerData {
  bundleUrl: string;
  template: string;
}
/** A page to render: its data, PUBLIC_URL or null, and whether to compress it. */
export interface PageToRender {
  data: PublicPageData;
  origin: string | null;
  compress: boolean;
}
export interface RenderAsk {
  id: number;
  page: PageToRender;
}
export type RenderAnswer =
  | { id: number; identity: Uint8Array; hash: string; br: Uint8Array | undefined }
  | { id: number; error: string };

/** Renders, assembles and encodes a page, here or on another thread. */
export interface PageRenderer {
  renderPage(page: PageToRender): Promise<EncodedBody>;
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A render taking longer than this means a stuck thread: it is replaced and its renders fail. */
const RENDER_DEADLINE_MS = 10_000;

export interface RenderPoolOptions {
  threads: number;
  /** RENDER_DEADLINE_MS, shortened by tests. */
  deadlineMs?: number;
}

interface Pending {
  resolve: (body: EncodedBody) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The built thread script next to this module, or, run from the TypeScript sources (the tests, the
 * development server), the source through tsx's loader, which a thread does not inherit.
 */
function threadScript(): { script: URL | string; eval: boolean } {
  const built = new URL('./page-render-worker.js', import.meta.url);
  if (fs.existsSync(built)) return { script: built, eval: false };
  const source = new URL('./page-render-worker.ts', import.meta.url).href;
  return {
    script: `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`,
    eval: true,
  };
}

class RenderThread {
  private readonly pending = new Map<number, Pending>();
  private worker: Worker;
  private stopping = false;
  /** Until the bundle has loaded, a failure is the start's (ready), not one to replace the thread for. */
  private started = false;

  constructor(
    private readonly workerData: RenderWorkerData,
    private readonly deadlineMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.worker = this.spawn();
  }

  get busy(): number {
    return this.pending.size;
  }

  /** Resolves once the thread has loaded the bundle; rejects if it cannot. */
  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        this.worker.off('error', reject);
        this.worker.off('message', onMessage);
        this.started = true;
        resolve();
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', reject);
    });
  }

  render(id: number, page: PageToRender): Promise<EncodedBody> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.replace(new Error('a page render ran past its deadline')),
        this.deadlineMs,
      );
      this.pending.set(id, { resolve, reject, timer });
      this.worker.postMessage({ id, page } satisfies RenderAsk);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.failAll(new Error('the server is stopping'));
    await this.worker.terminate();
  }

  private spawn(): Worker {
    const { script, eval: evaluate } = threadScript();
    const worker = new Worker(script, {
      eval: evaluate,
      workerData: this.workerData,
      name: 'page-render',
    });
    // Renders in flight come from requests, which keep the process alive themselves.
    worker.unref();
    worker.on('message', (answer: RenderAnswer | { ready: true }) => {
      if (!('id' in answer)) return;
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
    worker.on('error', (error) => {
      if (this.started) this.replace(error);
    });
    worker.on('exit', (code) => {
      if (this.started && worker === this.worker)
        this.replace(new Error(`the render thread exited (${code})`));
    });
    return worker;
  }

  /** A thread that failed, exited or hangs: its renders fail (their readers get a 5xx), a new one starts. */
  private replace(error: Error): void {
    if (this.stopping) return;
    this.log.error({ err: error }, 'page render thread replaced');
    this.failAll(error);
    const old = this.worker;
    this.worker = this.spawn();
    void old.terminate();
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
 * Threads that render, assemble and compress the public pages (RENDER_THREADS), at the lowest
 * priority, so that rebuilding what a declaration dropped never holds up the event loop that answers
 * the kept pages (decision record 0017). A render goes to the thread with the fewest in flight.
 */
export class PageRenderPool implements PageRenderer {
  private nextId = 1;

  private constructor(private readonly threads: readonly RenderThread[]) {}

  static async start(
    workerData: RenderWorkerData,
    options: RenderPoolOptions,
    log: FastifyBaseLogger,
  ): Promise<PageRenderPool> {
    const deadline = options.deadlineMs ?? RENDER_DEADLINE_MS;
    const threads = Array.from(
      { length: options.threads },
      () => new RenderThread(workerData, deadline, log),
    );
    try {
      await Promise.all(threads.map((thread) => thread.ready()));
    } catch (error) {
      await Promise.all(threads.map((thread) => thread.stop()));
      throw error;
    }
    return new PageRenderPool(threads);
  }

  renderPage(page: PageToRender): Promise<EncodedBody> {
    let chosen = this.threads[0] as RenderThread;
    for (const thread of this.threads) if (thread.busy < chosen.busy) chosen = thread;
    const id = this.nextId++;
    return chosen.render(id, page);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.stop()));
  }
}
