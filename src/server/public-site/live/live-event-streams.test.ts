import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../errors.js';
import { LIVE_EVENTS_DEFAULTS, LiveEvents, MAX_BUFFERED_BYTES } from './live-event-streams.js';

/** A response whose client never reads: everything written stays unsent. */
class StalledResponse extends EventEmitter {
  writableLength = 0;
  written: Buffer[] = [];
  ended = false;
  destroyed = false;
  writeHead() {
    return this;
  }
  write(bytes: Buffer) {
    this.written.push(bytes);
    this.writableLength += bytes.length;
    return false;
  }
  end() {
    this.ended = true;
  }
  destroy() {
    this.destroyed = true;
    this.writableLength = 0;
    this.written = [];
    this.emit('close');
  }
}

function replyFor(response: StalledResponse): FastifyReply {
  return { hijack: () => {}, raw: response } as unknown as FastifyReply;
}

const bigEvent = (index: number) => ({
  kind: 'content' as const,
  slug: `slug-${index}`,
  block: null,
  pad: 'x'.repeat(2000),
});

describe('live event streams and readers that do not read', () => {
  it('drops a stream once its unsent bytes pass the bound, freeing them', () => {
    const events = new LiveEvents(LIVE_EVENTS_DEFAULTS);
    events.start(0);
    const response = new StalledResponse();
    events.open(replyFor(response), '192.0.2.1', undefined);
    expect(events.openStreams).toBe(1);
    let id = 0;
    while (!response.destroyed && id < 1000) events.publish(++id, bigEvent(id));
    expect(response.destroyed).toBe(true);
    expect(events.openStreams).toBe(0);
    // It was dropped as soon as it held more than the bound, not later.
    expect(id * 2100).toBeLessThan(MAX_BUFFERED_BYTES + 3 * 2100);
  });

  it('sends one resync instead of a catch-up larger than a stream may hold', () => {
    const events = new LiveEvents(LIVE_EVENTS_DEFAULTS);
    events.start(0);
    for (let id = 1; id <= 40; id++) events.publish(id, bigEvent(id));
    const behind = new StalledResponse();
    events.open(replyFor(behind), '192.0.2.2', 0);
    const text = Buffer.concat(behind.written).toString();
    expect(text).toContain('"kind":"resync"');
    expect(behind.writableLength).toBeLessThan(1000);
    const recent = new StalledResponse();
    events.open(replyFor(recent), '192.0.2.3', 38);
    expect(Buffer.concat(recent.written).toString()).toContain('"slug":"slug-40"');
  });

  it('ends a stream at the end of its life by dropping it when it holds unsent bytes', () => {
    const events = new LiveEvents(LIVE_EVENTS_DEFAULTS);
    events.start(0);
    const idle = new StalledResponse();
    const stalled = new StalledResponse();
    events.open(replyFor(idle), '192.0.2.4', undefined);
    events.open(replyFor(stalled), '192.0.2.5', undefined);
    idle.writableLength = 0;
    events.closeAll();
    expect(idle.ended).toBe(true);
    expect(idle.destroyed).toBe(false);
    expect(stalled.destroyed).toBe(true);
  });

  it('refuses a stream past the process-wide cap with 503 and Retry-After, through the error hierarchy', () => {
    const events = new LiveEvents({ ...LIVE_EVENTS_DEFAULTS, maxStreams: 1 });
    events.start(0);
    events.open(replyFor(new StalledResponse()), '192.0.2.6', undefined);
    let refused: unknown;
    try {
      events.open(replyFor(new StalledResponse()), '192.0.2.7', undefined);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ServiceUnavailableError);
    expect((refused as ServiceUnavailableError).retryAfterSeconds).toBe(30);
    expect(events.openStreams).toBe(1);
  });
});
