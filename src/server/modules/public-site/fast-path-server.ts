import http, { type RequestListener } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import type { FastPath } from './fast-path.js';

/**
 * Fastify's serverFactory: Node's HTTP server with the fast path before Fastify's handler, set up as
 * Fastify sets up its own server.
 */
export function serverWithFastPath(fastPath: () => FastPath | undefined) {
  return (handler: RequestListener, options: FastifyServerOptions): http.Server => {
    const server = http.createServer((request, response) => {
      if (!fastPath()?.serve(request, response)) handler(request, response);
    });
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    return server;
  };
}
