/**
 * What the submission queue is given from outside, with the browser's own: its clock and timers, the
 * network it sends and reads on, and the signals that the network may be back. Tests give fakes.
 */
import { AGENT_HISTORY_PAGE_SIZE } from '../../../shared/schemas/results.js';
import { apiFetch } from '../../lib/api-client.js';
import type { Submission } from './submission-entry.js';

export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SubmissionBody {
  ghadiId: number;
  result: string;
  dateTime: string;
  /** The published value the agent saw and expects to replace (null: none); absent, not checked. */
  Expected?: string | null;
}

/** What is sent for an entry: `Expected` only when the entry has one (entries kept from before do not). */
export const bodyOf = (entry: Submission): SubmissionBody => ({
  ghadiId: entry.ghadiId,
  result: entry.result,
  dateTime: entry.date,
  ...(entry.expected === undefined ? {} : { Expected: entry.expected }),
});

/** Sends one submission; resolves with the server's answer, rejects when none came. */
export type PostSubmission = (body: SubmissionBody, key: string, signal: AbortSignal) => Promise<Response>;

/** The value published now for a ghadi and date (null: none); rejects when it cannot be read. */
export type ReadPublished = (ghadiId: number, date: string) => Promise<string | null>;

/** The agent's submission route, with its key; the session's token is added by apiFetch. */
export const postSubmission: PostSubmission = (body, key, signal) =>
  apiFetch('POST', '/api/agent/my-ghadi/update-result', {
    headers: { accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
    signal,
  });

/** From the agent's history, searched by the date (the search reads a date as that day). */
export const readPublished: ReadPublished = async (ghadiId, date) => {
  const params = new URLSearchParams({
    ghadiId: String(ghadiId),
    q: date,
    page: '1',
    limit: String(AGENT_HISTORY_PAGE_SIZE),
  });
  const response = await apiFetch('GET', `/api/agent/my-ghadi/results?${params}`, {
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`History answered ${response.status}`);
  const page = (await response.json()) as { data?: Array<{ Date?: unknown; Result?: unknown }> };
  const row = page.data?.find((entry) => entry.Date === date);
  return typeof row?.Result === 'string' ? row.Result : null;
};

/** The browser's signals that the network may be back: `online`, and the page coming to the front. */
export function browserWakeUps(wake: () => void): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') wake();
  };
  window.addEventListener('online', wake);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.removeEventListener('online', wake);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
