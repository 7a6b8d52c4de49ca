import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { PublicPageRenderer } from '../../../shared/public-page-data.js';
import { encodeBodyNow } from './cached-answer.js';
import { PageDocument } from './page-document.js';
import type { RenderAnswer, RenderAsk, RenderWorkerData } from './page-render-pool.js';

/*
 * A thread that renders public pages with the built server bundle (dist/ssr/entry-server.js), puts
 * them in the template and compresses them, so that none of it holds the event loop that answers
 * the kept pages (page-render-pool.ts, decision record 0017).
 */
/**
 * The lowest priority for this thread alone (Linux: setpriority on the thread's id, which
 * /proc/thread-self names), so that on a busy core the event loop answering kept pages goes first.
 * Elsewhere the thread keeps the process's priority.
 */
function yieldToTheEventLoop(): void {
  try {
    const threadIdInKernel = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadIdInKernel))
      os.setPriority(threadIdInKernel, os.constants.priority.PRIORITY_LOW);
  } catch {
    // Not Linux, or not allowed: the thread keeps its priority.
  }
}

yieldToTheEventLoop();
const port = parentPort;
if (!port) throw new Error('page-render-worker.ts runs as a worker thread');
const { bundleUrl, template } = workerData as RenderWorkerData;
const renderer = (await import(bundleUrl)) as PublicPageRenderer;
const document = new PageDocument(template);

port.on('message', ({ id, page }: RenderAsk) => {
  let answer: RenderAnswer;
  try {
    const { data, origin, compress } = page;
    const body = encodeBodyNow(document.html(data, origin, renderer.renderPage(data)), compress);
    answer = { id, ...body };
  } catch (error) {
    answer = { id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(answer);
});
port.postMessage({ ready: true });
