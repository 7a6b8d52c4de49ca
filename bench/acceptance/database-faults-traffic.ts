/**
 * What runs against a server while the database-faults group (database-faults-checks.ts) breaks its
 * database: everything timed, each request on a connection of its own (so that a port that stops
 * accepting shows up as a refused connection, whichever WORKERS process would have taken it):
 * - a writer: an admin declaring results one after another, each for a (ghadi, date) of its own, so
 *   that every acknowledged write (a 200 and the value it names) can be looked for afterwards;
 * - readers: the cached public reads GET /api/ghadis and GET /api/home, one loop each;
 * - probes: GET /healthz and GET /readyz, one loop each;
 * - a live stream (GET /api/events) opened before the faults, reconnected as a browser would (after
 *   the stream's `retry`, with Last-Event-ID) should it end, recording every result event;
 * - optionally, a poller that asks the database itself whether it accepts connections (when it went
 *   away and came back, as the machine sees it).
 * Every loop ends when told or after `maxMs`.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays } from '../../src/shared/dates.js';

export interface Answer {
  start: number;
  end: number;
  ms: number;
  /** The HTTP status, or 0 when the request failed (then `error`). */
  status: number;
  /** A socket error's code (ECONNREFUSED, ECONNRESET…) or "timeout". */
  error?: string;
  retryAfter?: string;
  body: string;
}

const REQUEST_TIMEOUT_MS = 20_000;

/** One request on a connection of its own; never rejects: a failure is an answer with status 0. */
export function ask(
  url: string,
  options: { method?: 'GET' | 'POST'; json?: unknown; token?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  const payload = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json));
  const start = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<Answer, 'start' | 'end' | 'ms'>) => {
      if (settled) return;
      settled = true;
      const end = Date.now();
      resolve({ start, end, ms: end - start, ...answer });
    };
    const request = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(payload.length) }
            : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          finish({
            status: response.statusCode ?? 0,
            ...(response.headers['retry-after']
              ? { retryAfter: String(response.headers['retry-after']) }
              : {}),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', (error: NodeJS.ErrnoException) =>
          finish({ status: 0, error: error.code ?? error.message, body: '' }),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ status: 0, error: error.code ?? error.message, body: '' }),
    );
    request.setTimeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS, () => {
      finish({ status: 0, error: 'timeout', body: '' });
      request.destroy();
    });
    request.end(payload);
  });
}

/** A 503 as the API documents it: Retry-After and `{ success: false, message }`. */
export function isDocumented503(answer: Answer): boolean {
  if (answer.status !== 503 || !answer.retryAfter) return false;
  try {
    const body = JSON.parse(answer.body) as { success?: unknown; message?: unknown };
    return body.success === false && typeof body.message === 'string' && body.message.length > 0;
  } catch {
    return false;
  }
}

export interface WriteRecord extends Answer {
  n: number;
  gid: number;
  date: string;
  value: string;
  /** A 200 whose answer names the value sent. */
  acknowledged: boolean;
}

export interface Probe extends Answer {
  path: string;
}

export interface StreamEvent {
  at: number;
  id: string;
  kind: string;
  gid?: number;
  date?: string;
  value?: string;
}

export interface DatabasePoll {
  start: number;
  end: number;
  up: boolean;
}

export interface TrafficOptions {
  baseUrl: string;
  token: string;
  gids: number[];
  /** The first date written to; each write takes the next (ghadi, date). Far from the seeded days. */
  firstDate?: string;
  writePauseMs?: number;
  readPauseMs?: number;
  probePauseMs?: number;
  /** Asks the database itself whether it answers (the poller), when given. */
  databaseAnswers?: (timeoutMs: number) => Promise<boolean>;
  maxMs?: number;
}

export interface Traffic {
  writes: WriteRecord[];
  reads: Probe[];
  probes: Probe[];
  events: StreamEvent[];
  /** Each time the stream was (re)opened: its status, or the error. */
  streamOpens: Array<{ at: number; status: number; error?: string }>;
  polls: DatabasePoll[];
  /** Stops every loop and waits for them. */
  stop(): Promise<void>;
}

const STREAM_RETRY_MS = 3000;
const STREAM_MAX_OPENS = 100;

export async function startTraffic(options: TrafficOptions): Promise<Traffic> {
  const until = Date.now() + (options.maxMs ?? 300_000);
  let stopped = false;
  const going = () => !stopped && Date.now() < until;
  const writes: WriteRecord[] = [];
  const reads: Probe[] = [];
  const probes: Probe[] = [];
  const events: StreamEvent[] = [];
  const streamOpens: Traffic['streamOpens'] = [];
  const polls: DatabasePoll[] = [];
  const firstDate = options.firstDate ?? '2003-01-01';

  const writer = async () => {
    for (let n = 0; going(); n++) {
      const gid = options.gids[n % options.gids.length] ?? 0;
      const date = addDays(firstDate, Math.floor(n / options.gids.length));
      const value = `w${n}`;
      const answer = await ask(`${options.baseUrl}/api/agent/my-ghadi/update-result`, {
        method: 'POST',
        token: options.token,
        json: { ghadiId: gid, result: value, dateTime: date },
      });
      let acknowledged = false;
      if (answer.status === 200) {
        try {
          const body = JSON.parse(answer.body) as { data?: { Result?: string; GID?: number; Date?: string } };
          acknowledged = body.data?.Result === value && body.data.GID === gid && body.data.Date === date;
        } catch {
          acknowledged = false;
        }
      }
      writes.push({ ...answer, n, gid, date, value, acknowledged });
      await sleep(options.writePauseMs ?? 100);
    }
  };
  const loop = (path: string, into: Probe[], pauseMs: number) => async () => {
    while (going()) {
      into.push({ ...(await ask(`${options.baseUrl}${path}`)), path });
      await sleep(pauseMs);
    }
  };

  // The live stream: opened now, before any fault; reopened after `retry` should it end.
  let lastEventId: string | undefined;
  let current: http.ClientRequest | undefined;
  const streamOnce = () =>
    new Promise<void>((resolve) => {
      const request = http.get(
        `${options.baseUrl}/api/events`,
        { agent: false, headers: lastEventId ? { 'last-event-id': lastEventId } : {} },
        (response) => {
          streamOpens.push({ at: Date.now(), status: response.statusCode ?? 0 });
          if (response.statusCode !== 200) {
            response.resume();
            response.on('end', resolve);
            return;
          }
          response.setEncoding('utf8');
          let buffered = '';
          response.on('data', (chunk: string) => {
            buffered += chunk;
            for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
              const message = buffered.slice(0, end);
              buffered = buffered.slice(end + 2);
              const id = /^id: (.*)$/m.exec(message)?.[1];
              const data = /^data: (.*)$/m.exec(message)?.[1];
              if (id) lastEventId = id;
              if (!data) continue;
              try {
                const event = JSON.parse(data) as {
                  kind: string;
                  gid?: number;
                  date?: string;
                  result?: { Result?: string } | null;
                };
                events.push({
                  at: Date.now(),
                  id: id ?? '',
                  kind: event.kind,
                  ...(event.gid === undefined ? {} : { gid: event.gid }),
                  ...(event.date === undefined ? {} : { date: event.date }),
                  ...(event.result?.Result === undefined ? {} : { value: event.result.Result }),
                });
              } catch {
                events.push({ at: Date.now(), id: id ?? '', kind: 'unreadable' });
              }
            }
          });
          response.on('close', resolve);
          response.on('error', () => resolve());
        },
      );
      current = request;
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (!stopped) streamOpens.push({ at: Date.now(), status: 0, error: error.code ?? error.message });
        resolve();
      });
    });
  const firstOpen = new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const wait = () => {
      if (streamOpens.length > 0) resolve();
      else if (Date.now() - started > 10_000) reject(new Error('GET /api/events did not answer in 10 s'));
      else setTimeout(wait, 20);
    };
    wait();
  });
  const stream = async () => {
    for (let opens = 0; going() && opens < STREAM_MAX_OPENS; opens++) {
      await streamOnce();
      if (going()) await sleep(STREAM_RETRY_MS);
    }
  };

  const poller = async () => {
    const answers = options.databaseAnswers;
    if (!answers) return;
    while (going()) {
      const start = Date.now();
      const up = await answers(500);
      polls.push({ start, end: Date.now(), up });
      await sleep(50);
    }
  };

  const streamDone = stream();
  await firstOpen;
  const loops = [
    streamDone,
    writer(),
    loop('/api/ghadis', reads, options.readPauseMs ?? 50)(),
    loop('/api/home', reads, options.readPauseMs ?? 50)(),
    loop('/healthz', probes, options.probePauseMs ?? 200)(),
    loop('/readyz', probes, options.probePauseMs ?? 200)(),
    poller(),
  ];
  return {
    writes,
    reads,
    probes,
    events,
    streamOpens,
    polls,
    async stop() {
      stopped = true;
      current?.destroy();
      await Promise.all(loops);
    },
  };
}

/**
 * Keeps what a check saw for a reader of its report: the server's whole log and the traffic (every
 * write, probe and poll; the reads that were not 200), under the system's temporary folder.
 */
export function keepEvidence(name: string, output: string, traffic: Traffic | undefined): string {
  const base = path.join(os.tmpdir(), `ghadi-database-faults-${name}`);
  fs.writeFileSync(`${base}.log`, output);
  if (traffic) {
    const { writes, reads, probes, events, streamOpens, polls } = traffic;
    const notOk = reads.filter((read) => read.status !== 200);
    fs.writeFileSync(
      `${base}.json`,
      JSON.stringify({
        writes,
        readsNot200: notOk,
        readCount: reads.length,
        probes,
        events,
        streamOpens,
        polls,
      }),
    );
  }
  return `${base}.{log,json}`;
}

/** Waits until `condition` holds (checked every 50 ms) or `limitMs` passes; answers whether it held. */
export async function waitFor(condition: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(50);
  }
  return condition();
}

/** Counts of what came back: {"200": 31, "503": 4, "ECONNREFUSED": 1}. */
export function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const key = answer.status === 0 ? (answer.error ?? 'error') : String(answer.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export const describeTally = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([key, count]) => `${count}×${key}`)
    .join(' ') || 'none';

export const within = (answer: { start: number; end: number }, from: number, to: number) =>
  answer.start >= from && answer.end <= to;

export const maxOf = (values: number[]) => values.reduce((max, value) => Math.max(max, value), 0);
