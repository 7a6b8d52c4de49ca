import http, { type RequestListener } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import type { ServerTimeouts } from '../../lib/server-timeouts.js';
import type { FastPath } from './fast-path.js';

/** What is sent instead of Fastify's answer while the server closes. */
export interface ClosingAnswer {
  headers: Record<string, string>;
  body: Buffer;
}

const CLOSING_BODY = Buffer.from(
  JSON.stringify({ success: false, message: 'The server is restarting; try again in a moment' }),
);
const CLOSING_HEADERS: Record<string, string> = {
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(CLOSING_BODY.length),
  'cache-control': 'no-store',
  'retry-after': '2',
  connection: 'close',
};

/** The API's 503 during a stop, with the site's security headers: Fastify's own would lack both. */
export function closingAnswer(securityHeaders: Record<string, string>): ClosingAnswer {
  return { headers: { ...securityHeaders, ...CLOSING_HEADERS }, body: CLOSING_BODY };
}

/**
 * Fastify's serverFactory: Node's HTTP server set up as Fastify sets up its own, with its timeouts
 * (the headers' one Fastify has no option for), and the fast path offered each request before
 * Fastify. While `closing()` answers, a request the fast path does not serve gets that answer.
 */
export function fastPathServer(
  fastPath: FastPath,
  timeouts: ServerTimeouts,
  closing: () => ClosingAnswer | null,
) {
  return (handler: RequestListener, options: FastifyServerOptions): http.Server => {
    const server = http.createServer(
      { connectionsCheckingInterval: timeouts.checkEveryMs },
      (request, response) => {
        if (fastPath.serve(request, response)) return;
        const refusal = closing();
        if (refusal) response.writeHead(503, refusal.headers).end(refusal.body);
        else handler(request, response);
      },
    );
    server.keepAliveTimeout = options.keepAliveTimeout ?? timeouts.keepAliveMs;
    server.requestTimeout = options.requestTimeout ?? timeouts.requestMs;
    server.headersTimeout = Math.min(timeouts.headersMs, server.requestTimeout || Number.POSITIVE_INFINITY);
    server.setTimeout(options.connectionTimeout ?? 0);
    return server;
  };
}
