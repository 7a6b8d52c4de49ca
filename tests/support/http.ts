import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** What came back over a real socket: status, headers and the raw (possibly compressed) body. */
export interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RawOptions {
  method?: string;
  /** An array value sends the header once per item (a name given twice). */
  headers?: Record<string, string | string[]>;
  /** The client's own address (any 127.x.y.z on Linux), to be another client. */
  localAddress?: string;
  /** Sent as it is (with its Content-Length); a JSON body needs its content-type in `headers`. */
  body?: string;
}

/** Listens on a free port of 127.0.0.1 and answers the base address. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** A request over a real socket, so that it meets the server's fast path (app.inject enters Fastify). */
export function fetchRaw(base: string, path: string, options: RawOptions = {}): Promise<Raw> {
  return new Promise<Raw>((resolve, reject) => {
    const request = http.request(
      `${base}${path}`,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

export function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

/** One server-sent event as it arrived. */
export interface ReceivedEvent {
  id: number | undefined;
  data: unknown;
}

/** An open event stream: what has arrived so far, and a way to wait for more. */
export interface EventStream {
  response: http.IncomingMessage;
  events: ReceivedEvent[];
  /** Comment blocks received (the server's heartbeats). */
  readonly heartbeats: number;
  /** Resolves with every event so far once `until` holds for them (rejects after `timeoutMs`). */
  waitFor(until: (events: ReceivedEvent[]) => boolean, timeoutMs?: number): Promise<ReceivedEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

function parseEvents(text: string): { events: ReceivedEvent[]; comments: number; rest: string } {
  const events: ReceivedEvent[] = [];
  let comments = 0;
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let id: number | undefined;
    let data: string | undefined;
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = Number(line.slice(4));
      else if (line.startsWith('data: ')) data = line.slice(6);
    }
    if (data !== undefined) events.push({ id, data: JSON.parse(data) });
    else if (block.startsWith(':')) comments += 1;
  }
  return { events, comments, rest };
}

/**
 * Opens GET /api/events (with `query` and `headers`) and collects its events. Rejects when the
 * server answers with anything but a stream (the status is on the error's `status`).
 */
export function openEvents(
  base: string,
  options: { query?: string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}/api/events${options.query ? `?${options.query}` : ''}`,
      { headers: options.headers, ...(options.localAddress ? { localAddress: options.localAddress } : {}) },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(
            Object.assign(new Error(`status ${response.statusCode}`), {
              status: response.statusCode,
              headers: response.headers,
            }),
          );
          return;
        }
        const events: ReceivedEvent[] = [];
        const waiters = new Set<() => void>();
        let buffer = '';
        let heartbeats = 0;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const parsed = parseEvents(buffer + chunk);
          buffer = parsed.rest;
          heartbeats += parsed.comments;
          events.push(...parsed.events);
          for (const wake of waiters) wake();
        });
        const ended = new Promise<void>((done) => response.on('close', () => done()));
        resolve({
          response,
          events,
          get heartbeats() {
            return heartbeats;
          },
          ended,
          close: () => request.destroy(),
          waitFor: (until, timeoutMs = 3000) =>
            new Promise((done, fail) => {
              const check = () => {
                if (!until(events)) return;
                waiters.delete(check);
                clearTimeout(timer);
                done(events);
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(
                  new Error(
                    `The expected events did not arrive within ${timeoutMs} ms; got ${JSON.stringify(events)}`,
                  ),
                );
              }, timeoutMs);
              waiters.add(check);
              check();
            }),
        });
      },
    );
    request.on('error', reject);
  });
}
