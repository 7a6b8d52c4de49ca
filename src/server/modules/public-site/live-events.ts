import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LiveChange } from '../../../shared/public-pages.js';

/** Proxies and browsers drop a silent connection; a comment line this often keeps it open. */
const HEARTBEAT_MS = 25_000;
/** Each stream holds a socket; past this many, new readers get a 503 and fall back to polling. */
const MAX_STREAMS = 10_000;
/** How long a browser waits before reconnecting a dropped stream. */
const RETRY_MS = 3000;

/**
 * Server-sent events for the public pages: one `data:` message per change (ghadi, result, content or
 * the site's new day), so open pages refetch the cached answers instead of polling.
 */
export class LiveEvents {
  private readonly streams = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly heartbeatMs = HEARTBEAT_MS) {}

  get openStreams(): number {
    return this.streams.size;
  }

  open(request: FastifyRequest, reply: FastifyReply): void {
    if (this.streams.size >= MAX_STREAMS) {
      reply.code(503).header('retry-after', '30').send({ success: false, message: 'Too many live readers' });
      return;
    }
    // The stream is written by hand: no serializer, no compression (it must flush each message).
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    response.write(`retry: ${RETRY_MS}\n: connected\n\n`);
    this.streams.add(response);
    this.startHeartbeat();
    const forget = () => {
      this.streams.delete(response);
      if (this.streams.size === 0) this.stopHeartbeat();
    };
    request.raw.on('close', forget);
    response.on('close', forget);
  }

  broadcast(change: LiveChange): void {
    if (this.streams.size === 0) return;
    const message = `data: ${JSON.stringify(change)}\n\n`;
    for (const stream of this.streams) stream.write(message);
  }

  /** Ends every stream, so that the server can close (an open stream would hold it forever). */
  closeAll(): void {
    this.stopHeartbeat();
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const stream of this.streams) stream.write(': heartbeat\n\n');
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
