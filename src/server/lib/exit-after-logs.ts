import pino from 'pino';

/**
 * Past this, the process exits without waiting any longer for the log stream's close (should it never
 * come). A write still under way in libuv's thread pool is waited for by the exit itself.
 */
export const LOG_DRAIN_LIMIT_MS = 2000;

let exiting = false;

/** Whether the exit has begun: the log may be closed, so nothing more may be logged. */
export function isExiting(): boolean {
  return exiting;
}

interface EndableStream {
  end(): void;
  once(event: 'close', listener: () => void): unknown;
}

function isEndable(stream: unknown): stream is EndableStream {
  const candidate = stream as (Partial<EndableStream> & { flushSync?: unknown }) | null;
  // pino's own destination (sonic-boom) is the one that writes asynchronously; a stream of another
  // kind (a test's, process.stdout) is left alone.
  return (
    typeof candidate?.end === 'function' &&
    typeof candidate.once === 'function' &&
    typeof candidate.flushSync === 'function'
  );
}

/**
 * A pino logger's own asynchronous destination, or undefined for any other logger or stream. Found by
 * pino's symbol: the logger must come from the same copy of pino as this module (Fastify's does).
 */
export function endableStreamOf(log: object): EndableStream | undefined {
  const stream: unknown = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  return isEndable(stream) ? stream : undefined;
}

/**
 * Exits once every line logged so far has been written, in order.
 *
 * Why not `process.exit` at once: pino's default destination writes to stdout asynchronously, one
 * write in libuv's thread pool at a time. On exit it writes what is still queued synchronously, and
 * that lands before a write the pool has not finished: the last lines of a shutdown came out in the
 * wrong order (seen in CI, reproduced with the pool kept busy). Ending the stream lets the write under
 * way finish first, then writes the rest. `log` is a pino logger (Fastify's `app.log` is one). Only
 * the first call counts; callers check `isExiting()` before logging anything more.
 */
export function exitAfterLogs(log: object, code: number): void {
  // The first exit wins: a second (a time limit firing meanwhile) would log to a closed stream.
  if (exiting) return;
  exiting = true;
  const stream = endableStreamOf(log);
  if (!stream) {
    process.exit(code);
    return;
  }
  process.exitCode = code;
  setTimeout(() => process.exit(code), LOG_DRAIN_LIMIT_MS).unref();
  stream.once('close', () => process.exit(code));
  stream.end();
}
