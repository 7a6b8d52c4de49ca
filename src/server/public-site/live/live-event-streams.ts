import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { LiveEvent } from '../../../shared/live-events.js';
import { ServiceUnavailableError, TooManyRequestsError } from '../../errors.js';

export interface LiveEventsOptions {
  /** Proxies and browsers drop a silent connection; a comment line this often keeps it open. */
  heartbeatMs: number;
  /** Each stream holds a socket; past this many, new readers get a 503 and fall back to polling. */
  maxStreams: number;
  /** So that one client cannot take every stream (TRUST_PROXY-aware client addresses). */
  maxStreamsPerAddress: number;
  /** A stream ends after this long (±10%); the browser reconnects with Last-Event-ID and misses nothing. */
  lifetimeMs: number;
  /** How many recent events a reconnecting page can be given; further back it resynchronises. */
  replaySize: number;
}

export const LIVE_EVENTS_DEFAULTS: LiveEventsOptions = {
  heartbeatMs: 25_000,
  maxStreams: 10_000,
  maxStreamsPerAddress: 20,
  lifetimeMs: 60 * 60 * 1000,
  replaySize: 2000,
};

/** How long a browser waits before reconnecting a dropped stream. */
const RETRY_MS = 3000;
/**
 * A reader with this much unsent (its socket's buffer full: a stalled phone, or a client that never
 * reads) is dropped; a real page reconnects and catches up from its id. Small, because every open
 * stream may hold this much: thousands of readers that never read must not exhaust the process.
 */
export const MAX_BUFFERED_BYTES = 32 * 1024;

interface Stream {
  response: ServerResponse;
  address: string;
  endsAt: number;
}

/** Encoded once, written to every stream as is. */
const message = (id: number, event: LiveEvent) =>
  Buffer.from(`id: ${id}\ndata: ${JSON.stringify(event)}\n\n`);
const HEARTBEAT = Buffer.from(': heartbeat\n\n');

/**
 * Server-sent events for the public pages. Every event carries the data it changed and the change's id
 * in the change log; the last `replaySize` events are kept so that a page reconnecting with
 * Last-Event-ID (or opening with ?since= the version it was rendered at) gets exactly what it missed,
 * or one "resync" when that is more than is kept.
 */
export class LiveEvents {
  private readonly streams = new Set<Stream>();
  private readonly perAddress = new Map<string, number>();
  private readonly replay: Array<{ id: number; bytes: Buffer }> = [];
  /** Every event after this id is in `replay`. */
  private coveredFrom = 0;
  private latest = 0;
  /** The latest change known to be on its way (its event is being built): pages may already show it. */
  private announced = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: LiveEventsOptions = LIVE_EVENTS_DEFAULTS) {}

  /** Starts the replay after `latestId`: what came before is in the pages built from the database. */
  start(latestId: number): void {
    this.coveredFrom = latestId;
    this.latest = latestId;
    this.announced = latestId;
  }

  /** A change whose event will follow: a page built from it may open its stream before it is sent. */
  announce(id: number): void {
    this.announced = Math.max(this.announced, id);
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** The id of the latest event sent. */
  get latestId(): number {
    return this.latest;
  }

  /**
   * Opens a stream for a client address. `since` is the last event the page has (Last-Event-ID, or
   * the version it was rendered at); undefined means it has nothing to catch up on.
   */
  open(reply: FastifyReply, address: string, since: number | undefined): void {
    if (this.streams.size >= this.options.maxStreams) {
      throw new ServiceUnavailableError('Too many live readers', 30);
    }
    if ((this.perAddress.get(address) ?? 0) >= this.options.maxStreamsPerAddress) {
      throw new TooManyRequestsError('Too many live streams from this address', 60);
    }
    // Written by hand: no serializer, no compression (each message must flush).
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    response.write(Buffer.concat([Buffer.from(`retry: ${RETRY_MS}\n: connected\n\n`), this.catchUp(since)]));
    const jitter = 0.9 + Math.random() * 0.2;
    const stream: Stream = { response, address, endsAt: Date.now() + this.options.lifetimeMs * jitter };
    this.streams.add(stream);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    this.startTimer();
    let forgotten = false;
    const forget = () => {
      if (forgotten) return;
      forgotten = true;
      this.streams.delete(stream);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
      if (this.streams.size === 0) this.stopTimer();
    };
    response.on('close', forget);
  }

  /** Sends an event to every open stream and keeps it for reconnecting pages. */
  publish(id: number, event: LiveEvent): void {
    const bytes = message(id, event);
    this.latest = id;
    this.announce(id);
    this.replay.push({ id, bytes });
    if (this.replay.length > this.options.replaySize) {
      const dropped = this.replay.splice(0, this.replay.length - this.options.replaySize);
      this.coveredFrom = dropped[dropped.length - 1]?.id ?? this.coveredFrom;
    }
    for (const stream of this.streams) this.write(stream, bytes);
  }

  /** Ends every stream, so that the server can close (an open stream would hold it forever). */
  closeAll(): void {
    this.stopTimer();
    for (const stream of this.streams) this.end(stream);
    this.streams.clear();
    this.perAddress.clear();
  }

  /**
   * What a page that has seen `since` needs: the events after it, or one resync when they are gone or
   * would be more than a stream may hold unsent (the page then reloads its data in one request).
   */
  private catchUp(since: number | undefined): Buffer {
    if (since === undefined || since === this.latest) return Buffer.alloc(0);
    // Ahead of what was sent, but not of what is on its way: the coming events will reach this stream.
    if (since > this.latest && since <= this.announced) return Buffer.alloc(0);
    const resync = message(this.latest, { kind: 'resync' });
    if (since < this.coveredFrom || since > this.latest) return resync;
    const missed = this.replay.filter((kept) => kept.id > since).map((kept) => kept.bytes);
    const bytes = missed.reduce((total, kept) => total + kept.length, 0);
    return bytes > MAX_BUFFERED_BYTES ? resync : Buffer.concat(missed, bytes);
  }

  private write(stream: Stream, bytes: Buffer): void {
    // Dropped, not ended: end() would keep the unsent bytes until a reader that never reads takes them.
    if (stream.response.writableLength > MAX_BUFFERED_BYTES) stream.response.destroy();
    else stream.response.write(bytes);
  }

  /** Ends a stream: politely when it has nothing unsent, else at once, freeing what it held. */
  private end(stream: Stream): void {
    if (stream.response.writableLength > 0) stream.response.destroy();
    else stream.response.end();
  }

  /** One timer for all streams: the heartbeat, and the end of streams past their lifetime. */
  private startTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const stream of this.streams) {
        if (stream.endsAt <= now) this.end(stream);
        else this.write(stream, HEARTBEAT);
      }
    }, this.options.heartbeatMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
