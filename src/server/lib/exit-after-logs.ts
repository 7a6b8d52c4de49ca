import pino from 'pino';

/** Past this, the process exits even if the log has not finished writing (stdout blocked by a reader). */
const LOG_DRAIN_LIMIT_MS = 2000;

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
 * Exits once every line logged so far has been written, in order.
 *
 * Why not `process.exit` at once: pino's default destination writes to stdout asynchronously, one
 * write in libuv's thread pool at a time. On exit it writes what is still queued synchronously, and
 * that lands before a write the pool has not finished: the last lines of a shutdown came out in the
 * wrong order (seen in CI, reproduced with the pool kept busy). Ending the stream lets the write under
 * way finish first, then writes the rest. `log` is a pino logger (Fastify's `app.log` is one).
 */
export function exitAfterLogs(log: object, code: number): void {
  const stream: unknown = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (!isEndable(stream)) process.exit(code);
  // Logging after this point would throw (the stream is ended): only the exit follows.
  process.exitCode = code;
  setTimeout(() => process.exit(code), LOG_DRAIN_LIMIT_MS).unref();
  stream.once('close', () => process.exit(code));
  stream.end();
}
