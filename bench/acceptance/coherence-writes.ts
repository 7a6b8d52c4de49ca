/**
 * Issue 8's coherence, write by write: an admin writes on instance A (a result declared, a ghadi
 * renamed, a content block edited); B must show it within 1 s in every public read that shows it,
 * polled every ~20 ms, and push it with its data on a live stream open on B.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { BLOG_SLUG } from '../../src/shared/home-content-blocks.js';
import type { LiveEvent } from '../../src/shared/live-events.js';
import { type EventStream, openEvents } from '../../tests/support/http.js';
import { send } from '../lib/client.js';
import type { TimedAnswer } from '../lib/timed-request.js';
import { check } from './check.js';
import type { CheckResult } from './types.js';

const LIMIT_MS = 1000;
/** How long to go on looking after the limit, so that a late arrival is reported with its time. */
const GIVE_UP_MS = 5000;
const POLL_EVERY_MS = 20;

export interface Pair {
  a: string;
  b: string;
  adminToken: string;
  /** The address the admin's requests come from (X-Forwarded-For). */
  address: string;
}

interface Read {
  path: string;
  shows: (answer: TimedAnswer) => boolean;
}

interface Write {
  name: string;
  call: () => Promise<TimedAnswer>;
  reads: Read[];
  event: (event: LiveEvent) => boolean;
}

interface GhadiRow {
  id?: number;
  _id: string;
  GID: number;
  NameEn: string;
  NameHn: string;
  RTime: string;
  OrderId: number;
}

const text = (answer: TimedAnswer) => answer.body.toString('utf8');

function body<T>(answer: TimedAnswer, what: string): T {
  if (answer.status >= 300)
    throw new Error(`${what} answered ${answer.status}: ${text(answer).slice(0, 200)}`);
  return JSON.parse(text(answer)) as T;
}

/** Polls B's `read` until it shows the write; the time since `since`, or null if it never did. */
async function seenAfter(pair: Pair, read: Read, since: number): Promise<number | null> {
  while (Date.now() - since < GIVE_UP_MS) {
    const answer = await send(pair.b, read.path, { address: pair.address });
    if (read.shows(answer)) return Date.now() - since;
    await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
  }
  return null;
}

async function eventAfter(
  stream: EventStream,
  matches: Write['event'],
  since: number,
): Promise<number | null> {
  try {
    await stream.waitFor((events) => events.some((event) => matches(event.data as LiveEvent)), GIVE_UP_MS);
    return Date.now() - since;
  } catch {
    return null;
  }
}

async function propagate(pair: Pair, stream: EventStream, write: Write): Promise<CheckResult> {
  return check(`${write.name} on A shows on B within 1 s (reads and live stream)`, async () => {
    const started = Date.now();
    const event = eventAfter(stream, write.event, started);
    const reads = write.reads.map((read) => seenAfter(pair, read, started));
    const answer = await write.call();
    const callMs = Date.now() - started;
    if (answer.status >= 300)
      throw new Error(`the write answered ${answer.status}: ${text(answer).slice(0, 200)}`);
    const seen = await Promise.all(reads);
    const pushed = await event;
    // Judged from A's answer (the write is committed then); the time from the call's start is shown too.
    const afterAnswer = (ms: number | null) => (ms === null ? null : Math.max(0, ms - callMs));
    const shown = (ms: number | null) =>
      ms === null ? `not within ${GIVE_UP_MS} ms` : `${afterAnswer(ms)} ms (${ms})`;
    return {
      ok: [...seen, pushed].every((ms) => ms !== null && (afterAnswer(ms) ?? Infinity) <= LIMIT_MS),
      detail:
        write.reads
          .map((read, index) => `${read.path.split('?')[0]} ${shown(seen[index] ?? null)}`)
          .join(', ') +
        `; event with its data on B's stream ${shown(pushed)} — after A answered (after the call's start); ` +
        `the call took ${callMs} ms`,
    };
  });
}

/** The three writes, in order (the rename uses the ghadi the result was declared for). */
export async function writeChecks(pair: Pair): Promise<CheckResult[]> {
  const admin = (method: 'POST' | 'PUT', path: string, json: unknown) =>
    send(pair.a, path, { method, json, token: pair.adminToken, address: pair.address });
  const site = body<{ today: string }>(
    await send(pair.a, '/api/site', { address: pair.address }),
    'GET /api/site',
  );
  const ghadis = body<{ data: GhadiRow[] }>(
    await send(pair.a, '/api/ghadis', { address: pair.address }),
    'GET /api/ghadis',
  );
  const ghadi = ghadis.data[0];
  if (!ghadi) throw new Error('no ghadi on A');
  // The blog block is what the home page shows: create it first, so that the edit below shows on GET /.
  const created = body<{ data: { _id: string } }>(
    await admin('POST', '/api/contentblocks', {
      Title: 'Blog',
      Slug: BLOG_SLUG,
      Content: '<p>First words</p>',
      isActive: true,
    }),
    'POST /api/contentblocks',
  );
  const stream = await openEvents(pair.b);
  try {
    const value = `Z${randomInt(10_000, 99_999)}`;
    const newName = `Renamed ${randomBytes(3).toString('hex')}`;
    const marker = `acceptance-${randomBytes(4).toString('hex')}`;
    const nameOnB = (name: string) => `/api/results/${encodeURIComponent(name.toLowerCase())}`;
    const writes: Write[] = [
      {
        name: 'a result declared',
        call: () =>
          admin('POST', '/api/agent/my-ghadi/update-result', {
            ghadiId: ghadi.GID,
            result: value,
            dateTime: site.today,
          }),
        reads: [
          { path: '/api/ghadis', shows: (answer) => text(answer).includes(`"TodayResult":"${value}"`) },
          { path: nameOnB(ghadi.NameEn), shows: (answer) => text(answer).includes(`"Result":"${value}"`) },
          { path: '/', shows: (answer) => text(answer).includes(value) },
        ],
        event: (event) =>
          event.kind === 'result' && event.result?.Result === value && event.ghadi?.TodayResult === value,
      },
      {
        name: 'a ghadi renamed',
        call: () =>
          admin('PUT', `/api/ghadis/${ghadi._id}`, {
            NameEn: newName,
            NameHn: ghadi.NameHn,
            RTime: ghadi.RTime,
            OrderId: ghadi.OrderId,
          }),
        reads: [
          { path: '/api/ghadis', shows: (answer) => text(answer).includes(`"NameEn":"${newName}"`) },
          {
            path: nameOnB(newName),
            shows: (answer) => answer.status === 200 && text(answer).includes(value),
          },
          { path: '/', shows: (answer) => text(answer).includes(newName) },
        ],
        event: (event) => event.kind === 'ghadi' && event.ghadi?.NameEn === newName,
      },
      {
        name: 'a content block edited',
        call: () =>
          admin('PUT', `/api/contentblocks/${created.data._id}`, {
            Title: 'Blog',
            Slug: BLOG_SLUG,
            Content: `<p>${marker}</p>`,
            isActive: true,
          }),
        reads: [
          { path: `/api/contentblocks/slug/${BLOG_SLUG}`, shows: (answer) => text(answer).includes(marker) },
          { path: '/', shows: (answer) => text(answer).includes(marker) },
        ],
        event: (event) =>
          event.kind === 'content' && event.slug === BLOG_SLUG && !!event.block?.Content.includes(marker),
      },
    ];
    const results: CheckResult[] = [];
    for (const write of writes) results.push(await propagate(pair, stream, write));
    return results;
  } finally {
    stream.close();
  }
}
