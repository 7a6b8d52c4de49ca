import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../support/http.js';
import { createTestApp, DIALECTS, type TestApp } from '../support/test-app.js';

/** One HTTP/1.1 response as read off a socket. */
interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits what a socket received into its responses (each with a Content-Length, as the app sends). */
function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const headerEnd = rest.indexOf('\r\n\r\n');
    if (headerEnd < 0) throw new Error(`An incomplete response: ${JSON.stringify(rest)}`);
    const [statusLine = '', ...headerLines] = rest.slice(0, headerEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length']);
    if (!Number.isInteger(length)) throw new Error(`A response without a Content-Length: ${statusLine}`);
    const bodyStart = headerEnd + 4;
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.slice(bodyStart, bodyStart + length),
    });
    rest = rest.slice(bodyStart + length);
  }
  return responses;
}

/**
 * A request that arrives on an open connection while the app closes (the process is stopping) is
 * answered by the server's front door in the API's own shape, not Fastify's: clients of the API read
 * `{ success, message }` whatever goes wrong.
 */
describe.each(DIALECTS)('requests that arrive while the app closes [%s]', (dialect) => {
  let t: TestApp;
  let port: number;
  /** The slow request's handler has started. */
  let arrived: Promise<void>;
  let markArrived: () => void;
  /** Lets the slow request finish. */
  let release: () => void = () => {};

  beforeAll(async () => {
    t = await createTestApp(dialect);
    arrived = new Promise((resolve) => {
      markArrived = resolve;
    });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A request the test holds in flight for as long as it likes: nothing in the app is that slow on cue.
    t.app.get('/test-slow', async () => {
      markArrived();
      await held;
      return { success: true, slow: true };
    });
    port = Number(new URL(await listen(t.app)).port);
  });
  afterAll(async () => {
    release();
    await t?.close();
  });

  it('a request sent on a kept-alive connection during close gets 503 { success: false, message }', async () => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET /test-slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await arrived;

    // Watched, not answered: the server's own listener answers it as always.
    const reached = new Promise<void>((resolve) =>
      t.app.server.on('request', (request: { url?: string }) => {
        if (request.url === '/healthz') resolve();
      }),
    );
    const closing = t.app.close();
    // The next request on the same connection (HTTP/1.1 keeps it open), sent once the close began,
    // and let reach the server before the slow one ends.
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await reached;
    release();
    await closing;
    await ended;

    const [slow, refused, ...more] = parseResponses(received);
    expect(more).toEqual([]);
    // The request in flight when the close began is finished, not cut off.
    expect(slow?.status).toBe(200);
    expect(JSON.parse(slow?.body ?? '')).toEqual({ success: true, slow: true });

    expect(refused?.status).toBe(503);
    expect(refused?.headers['content-type']).toMatch(/^application\/json/);
    const answer = JSON.parse(refused?.body ?? '') as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual(['message', 'success']);
    expect(answer.success).toBe(false);
    expect(typeof answer.message).toBe('string');
    expect(answer.message).not.toBe('');
    expect(refused?.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    // The connection is not kept for more: the server is going.
    expect(refused?.headers.connection).toBe('close');
  });
});
