/**
 * The hardening group's slow-client finding (hardening-checks.ts), against the limits of
 * src/server/lib/server-timeouts.ts and docs/operations.md "Slow clients" (10 s for the headers, 60 s
 * for the whole request, checked every second):
 * - 200 connections send "GET / HTTP/1.1\r\nHost: x\r\n" and nothing more; GET /api/ghadis is read
 *   meanwhile (on a thread of its own) and must keep answering; each connection must be closed by the
 *   server within 10 s + 1 s + a 2-s margin of its first byte;
 * - a POST with Content-Length 1000 whose body comes a byte every 500 ms must be cut off within
 *   60 s + 1 s + a 4-s margin, answered 408. It runs in the background while the other checks do.
 */
import net from 'node:net';
import type { ServerProcess } from '../lib/server-process.js';
import { ascending, percentile } from '../lib/stats.js';
import { check } from './check.js';
import { describeLatency, sampleLatency } from './hardening-probes.js';
import type { CheckResult } from './types.js';

const SLOW_CONNECTIONS = 200;
const HEADERS_MS = 10_000;
const REQUEST_MS = 60_000;
const CHECK_EVERY_MS = 1000;
const HEADERS_LIMIT_MS = HEADERS_MS + CHECK_EVERY_MS + 2000;
const REQUEST_LIMIT_MS = REQUEST_MS + CHECK_EVERY_MS + 4000;
const TRICKLE_BYTES = 1000;
const TRICKLE_EVERY_MS = 500;

interface HeldConnection {
  /** ms from the first byte sent to the server's close; undefined if still open. */
  closedAfterMs: number | undefined;
  /** The first line of what the server sent, if anything. */
  answer: string;
  error: string | undefined;
}

/** Connects, sends `head`, then `trickle` (if any) a byte at a time; resolves when the server closes or at `giveUpMs`. */
function holdConnection(
  port: number,
  head: string,
  giveUpMs: number,
  trickle?: { bytes: number; everyMs: number },
): Promise<HeldConnection & { bodyBytesSent: number }> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let firstByteAt = 0;
    let received = '';
    let error: string | undefined;
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({
        closedAfterMs: closed && firstByteAt ? Date.now() - firstByteAt : undefined,
        answer: received.split('\r\n')[0] ?? '',
        error,
        bodyBytesSent: sent,
      });
    };
    const giveUp = setTimeout(() => {
      socket.removeAllListeners('close');
      socket.destroy();
      done(false);
    }, giveUpMs);
    socket.on('connect', () => {
      firstByteAt = Date.now();
      socket.write(head);
      if (!trickle) return;
      timer = setInterval(() => {
        if (sent >= trickle.bytes || socket.destroyed) return clearInterval(timer);
        socket.write('a');
        sent += 1;
      }, trickle.everyMs);
    });
    socket.on('data', (chunk: Buffer) => {
      if (received.length < 1000) received += chunk.toString('latin1');
    });
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error ??= failure.code ?? failure.message;
    });
    socket.on('close', () => done(true));
  });
}

export function startTrickle(site: ServerProcess) {
  const head =
    'POST /api/users/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
    `Content-Length: ${TRICKLE_BYTES}\r\n\r\n`;
  const startedAt = Date.now();
  const outcome = holdConnection(site.port, head, REQUEST_LIMIT_MS + 25_000, {
    bytes: TRICKLE_BYTES,
    everyMs: TRICKLE_EVERY_MS,
  });
  return { startedAt, outcome };
}

export async function trickleCheck(trickle: ReturnType<typeof startTrickle>): Promise<CheckResult> {
  return check(
    `a body trickled a byte every ${TRICKLE_EVERY_MS} ms is cut off within ${REQUEST_LIMIT_MS / 1000} s, answered 408`,
    async () => {
      const held = await trickle.outcome;
      const closed = held.closedAfterMs;
      return {
        ok: closed !== undefined && closed <= REQUEST_LIMIT_MS && held.answer.startsWith('HTTP/1.1 408'),
        detail:
          closed === undefined
            ? `STILL OPEN after ${((Date.now() - trickle.startedAt) / 1000).toFixed(1)} s (${held.bodyBytesSent} body bytes sent)`
            : `closed by the server ${(closed / 1000).toFixed(1)} s after the first byte, ${held.bodyBytesSent} of ${TRICKLE_BYTES} body bytes sent; answer "${held.answer || 'none'}"${held.error ? `; socket ${held.error}` : ''}`,
      };
    },
  );
}

export async function slowHeadersCheck(site: ServerProcess): Promise<CheckResult> {
  return check(
    `${SLOW_CONNECTIONS} slow-header connections: reads go on, each closed within ${HEADERS_LIMIT_MS / 1000} s`,
    async () => {
      const reads = sampleLatency(
        `${site.url}/api/ghadis`,
        { 'x-forwarded-for': '10.81.0.1' },
        { pauseMs: 20 },
      );
      const started = Date.now();
      const held = await Promise.all(
        Array.from({ length: SLOW_CONNECTIONS }, () =>
          holdConnection(site.port, 'GET / HTTP/1.1\r\nHost: x\r\n', HEADERS_LIMIT_MS + 5000),
        ),
      );
      const figures = await reads.stop();
      const closed = ascending(
        held.flatMap((one) => (one.closedAfterMs === undefined ? [] : [one.closedAfterMs])),
      );
      const answers = new Map<string, number>();
      for (const one of held) {
        const answer = one.answer || (one.error ? `no answer (${one.error})` : 'no answer');
        answers.set(answer, (answers.get(answer) ?? 0) + 1);
      }
      const late = closed.filter((after) => after > HEADERS_LIMIT_MS).length;
      const seconds = (value: number | undefined) =>
        value === undefined ? '–' : `${(value / 1000).toFixed(1)} s`;
      return {
        ok:
          closed.length === SLOW_CONNECTIONS &&
          late === 0 &&
          figures.count > 0 &&
          figures.failures === 0 &&
          figures.max < 1000,
        detail:
          `${closed.length}/${SLOW_CONNECTIONS} closed by the server (${late} late), after min ${seconds(closed[0])}, ` +
          `median ${seconds(percentile(closed, 0.5))}, max ${seconds(closed.at(-1))}; ` +
          `what they got: ${[...answers].map(([answer, times]) => `${times}× "${answer}"`).join(', ')}; ` +
          `GET /api/ghadis meanwhile (${((Date.now() - started) / 1000).toFixed(1)} s): ${describeLatency(figures)}`,
      };
    },
  );
}
