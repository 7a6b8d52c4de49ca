import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { onTestFinished, vi } from 'vitest';
import { addDays, todayInZone } from '../../../shared/dates.js';
import {
  MISMATCH_MESSAGE,
  PENDING_MESSAGE,
  type PendingDeclaration,
} from '../../../shared/schemas/pending.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { startSession } from '../../lib/session.js';
import { pagedAnswer, resultRecord } from '../../test/records.js';
import { type Clock, postSubmission } from './submission-network.js';
import { SubmissionQueue, type SubmissionQueueOptions } from './submission-queue.js';

/** Test-only fakes for the agent screens: records and a fetch that answers like the API. */

export const SITE_ZONE = 'Asia/Kolkata';
export const siteToday = () => todayInZone(SITE_ZONE);

/** `count` results of a ghadi on the days before today, newest first, valued 00, 01, 02… */
export function pastResults(gid: number, count: number): PublicResultRecord[] {
  return Array.from({ length: count }, (_, index) =>
    resultRecord(gid, addDays(siteToday(), -(index + 1)), String(index).padStart(2, '0')),
  );
}

export interface FakeAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler = (request: { url: URL; method: string; body: unknown }) => FakeAnswer | Promise<FakeAnswer>;

interface FakeApi {
  ghadis?: Handler;
  history?: Handler;
  submit?: Handler;
  /** GET /api/holidays; unlisted, it answers no holiday. */
  holidays?: Handler;
  /** GET /api/pending; unlisted, nothing is held. */
  pending?: Handler;
}

export const ok = (body: unknown): FakeAnswer => ({ status: 200, body });

/** The server's answer to an agent's successful submission: the saved record, its public fields. */
export function saved(body: unknown): FakeAnswer {
  const { ghadiId, result, dateTime } = body as { ghadiId: number; result: string; dateTime: string };
  return ok({
    success: true,
    message: 'Result updated',
    data: resultRecord(ghadiId, dateTime, result),
  });
}
export const list = (data: unknown[]): FakeAnswer => ok({ success: true, data });

/** The server's answer to a submission it holds for a second confirmation (202). */
export const heldAnswer = (): FakeAnswer => ({
  status: 202,
  body: { success: true, pending: true, message: PENDING_MESSAGE },
});

/** The server's answer when another person entered a different value (409, no value shown). */
export const mismatchAnswer = (): FakeAnswer => ({
  status: 409,
  body: { success: false, mismatch: true, message: MISMATCH_MESSAGE },
});

/** A held declaration as GET /api/pending answers an agent: their own entry only. */
export function heldDeclarationOf(
  gid: number,
  date: string,
  result: string,
  overrides: Partial<PendingDeclaration> = {},
): PendingDeclaration {
  return {
    GID: gid,
    Name: `Ghadi ${gid}`,
    Date: date,
    Current: null,
    Mismatch: false,
    Entries: [
      { UserId: AGENT_ID, UserName: 'agent', Result: result, SubmittedAt: '2026-11-26T10:00:00.000Z' },
    ],
    ...overrides,
  };
}

/**
 * Serves a history as the server does: the rows whose value or date contains `q` (ignoring
 * case), one page of them by `page` and `limit`.
 */
export function historyOf(rows: PublicResultRecord[]): Handler {
  return ({ url }) => {
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const matching = rows.filter((row) => row.Result.toLowerCase().includes(q) || row.Date.includes(q));
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    return ok(pagedAnswer(matching, page, limit));
  };
}

/** Stubs fetch with the agent endpoints; unlisted handlers answer with no ghadi and no history. */
export function fakeApi(handlers: FakeApi = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const request = { url, method, body };
    let answer: FakeAnswer;
    if (url.pathname === '/api/site') {
      answer = ok({ success: true, siteName: 'Ghadi Results', timeZone: SITE_ZONE, today: siteToday() });
    } else if (url.pathname === '/api/agent/my-ghadi') {
      answer = await (handlers.ghadis ?? (() => list([])))(request);
    } else if (url.pathname === '/api/agent/my-ghadi/results') {
      answer = await (handlers.history ?? historyOf([]))(request);
    } else if (url.pathname === '/api/pending' && method === 'GET') {
      answer = await (handlers.pending ?? (() => list([])))(request);
    } else if (url.pathname === '/api/holidays') {
      answer = await (handlers.holidays ?? (() => list([])))(request);
    } else if (url.pathname === '/api/agent/my-ghadi/update-result' && method === 'POST') {
      answer = await (handlers.submit ?? (({ body }) => saved(body)))(request);
    } else {
      answer = { status: 404, body: { success: false, message: `No fake for ${method} ${url.pathname}` } };
    }
    return new Response(JSON.stringify(answer.body ?? {}), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** A promise with its resolver outside, to hold a request open while asserting on the busy state. */
export function deferred<T = void>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

export const AGENT_ID = 42;

/** An empty IndexedDB for the test, as on a new phone (jsdom has none of its own). */
export function freshPhoneStorage(): void {
  vi.stubGlobal('indexedDB', new IDBFactory());
}

/** Signs an agent in, as the login page does (endSession signs out). */
export function signInAgent(): void {
  startSession({
    _id: String(AGENT_ID),
    id: String(AGENT_ID),
    User_Id: AGENT_ID,
    UserName: 'agent',
    DisplayName: 'Agent Smith',
    Email: 'agent@example.com',
    UserType: 'agent',
    userType: 'agent',
    isActive: true,
    token: 'agent-token',
  });
}

/** A running queue for a form tested alone, on an empty store, sending through fetch as the app does. */
export async function startedQueue(options: Partial<SubmissionQueueOptions> = {}): Promise<SubmissionQueue> {
  freshPhoneStorage();
  const queue = new SubmissionQueue({
    userId: AGENT_ID,
    post: postSubmission,
    currentUserId: () => AGENT_ID,
    ...options,
  });
  await queue.start();
  onTestFinished(() => queue.stop());
  return queue;
}

/** Timers run only when the test moves the clock: nothing here sleeps. */
export class FakeClock implements Clock {
  time: number;
  private timers = new Map<number, { at: number; run: () => void }>();
  private nextId = 1;

  constructor(start = Date.parse('2026-11-26T10:00:00.000Z')) {
    this.time = start;
  }

  now() {
    return this.time;
  }
  setTimeout(run: () => void, ms: number) {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.timers.delete(handle as number);
  }
  /** The delays of the timers set, from now. */
  pending(): number[] {
    return [...this.timers.values()].map((timer) => timer.at - this.time).sort((a, b) => a - b);
  }
  /** Moves time on, running each timer that falls due, in turn. */
  advance(ms: number) {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, timer]) => timer.at <= end)
        .sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = end;
  }
}
