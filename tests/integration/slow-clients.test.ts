import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { fetchRaw, listen } from '../support/http.js';
import { testConfig } from '../support/test-app.js';

/**
 * Node enforces these limits on its own clock, which no test can move: the app is built with limits of
 * a few hundred milliseconds (BuildOptions.serverTimeouts), and each check waits at most a few times
 * that for the server to act.
 */
const TIMEOUTS = { headersMs: 300, requestMs: 800, checkEveryMs: 50 };
const ACT_WITHIN_MS = 3000;

/** A connection that sends `start` and then whatever `trickle` says, until the server closes it. */
function slowClient(
  port: number,
  start: string,
): { closed: Promise<{ afterMs: number; answer: string }>; socket: net.Socket } {
  const socket = net.connect(port, '127.0.0.1');
  const opened = Date.now();
  let answer = '';
  socket.on('data', (chunk) => {
    answer += chunk.toString();
  });
  socket.on('error', () => {});
  socket.write(start);
  const closed = new Promise<{ afterMs: number; answer: string }>((resolve) => {
    socket.on('close', () => resolve({ afterMs: Date.now() - opened, answer }));
  });
  return { closed, socket };
}

describe('slow clients', () => {
  let app: FastifyInstance;
  let base = '';
  let port = 0;

  beforeAll(async () => {
    app = await buildApp(testConfig(), { logger: false, serveWebApp: false, serverTimeouts: TIMEOUTS });
    base = await listen(app);
    port = Number(new URL(base).port);
  });
  afterAll(() => app.close());

  it('cuts off connections whose headers never end, and serves everyone else meanwhile', async () => {
    const clients = Array.from({ length: 200 }, () =>
      slowClient(port, 'GET /api/ghadis HTTP/1.1\r\nHost: x\r\n'),
    );
    const read = await fetchRaw(base, '/api/ghadis');
    expect(read.status).toBe(200);
    const closings = await Promise.all(clients.map((client) => client.closed));
    for (const { afterMs, answer } of closings) {
      expect(afterMs).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 50);
      expect(afterMs).toBeLessThan(ACT_WITHIN_MS);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    }
  });

  it('cuts off a request whose body trickles in, after the request timeout', async () => {
    const client = slowClient(
      port,
      'POST /api/users/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    const trickle = setInterval(() => client.socket.write(' '), 100);
    try {
      const { afterMs, answer } = await client.closed;
      expect(afterMs).toBeGreaterThanOrEqual(TIMEOUTS.requestMs - 50);
      expect(afterMs).toBeLessThan(TIMEOUTS.requestMs + ACT_WITHIN_MS);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(trickle);
    }
  });
});
