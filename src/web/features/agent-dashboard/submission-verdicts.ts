/**
 * How the server's answer to a submission, or the lack of one, is read: saved, held for a second
 * confirmation, refused, worth sending again later, or the session is over; and what an answer for
 * good makes of the phone's entry.
 */
import { MISMATCH_MESSAGE, PENDING_MESSAGE } from '../../../shared/schemas/pending.js';
import { inWords } from '../../lib/field-labels.js';
import type { Submission, SubmissionState } from './submission-entry.js';
import type { ReadPublished } from './submission-network.js';

export type Verdict =
  | { kind: 'saved'; savedAt: string | undefined; result: string | undefined }
  /** 202: the server holds it until another person enters the same value (decision 0020). */
  | { kind: 'pending'; message: string }
  /** 409 with `mismatch`: another person entered a different value; this one is held as well. */
  | { kind: 'mismatch'; message: string }
  /**
   * Any other 409: the published value is no longer the one the entry expected to replace, or
   * another conflict (a holiday). Final either way; the queue tells which by reading the value.
   */
  | { kind: 'conflict'; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'retry'; message: string; retryAfterMs: number }
  | { kind: 'sign-in' };

/** A Retry-After longer than this is not waited for in full: the agent is there, at result time. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** Statuses that say "not now" rather than "no": the same submission may succeed later. */
const RETRYABLE = new Set([408, 429, 502, 503, 504]);

export const FAILED_TO_UPDATE = 'Failed to update result';
export const NO_CONNECTION = 'No connection';

/** No answer came, so the server may not have seen it: that is "not now", never "no". */
export const NO_ANSWER: Verdict = { kind: 'retry', message: NO_CONNECTION, retryAfterMs: 0 };

export async function verdictOf(response: Response): Promise<Verdict> {
  const payload = (await response.json().catch(() => undefined)) as
    | {
        message?: unknown;
        pending?: unknown;
        mismatch?: unknown;
        data?: { DeclaredAt?: unknown; Result?: unknown };
      }
    | undefined;
  const message = typeof payload?.message === 'string' ? inWords(payload.message) : undefined;
  // Before `ok`: a held submission is a success that published nothing.
  if (response.status === 202 && payload?.pending === true) {
    return { kind: 'pending', message: message ?? PENDING_MESSAGE };
  }
  if (response.ok) {
    const data = payload?.data;
    return {
      kind: 'saved',
      savedAt: typeof data?.DeclaredAt === 'string' ? data.DeclaredAt : undefined,
      result: typeof data?.Result === 'string' ? data.Result : undefined,
    };
  }
  if (response.status === 401) return { kind: 'sign-in' };
  if (response.status === 409) {
    return payload?.mismatch === true
      ? { kind: 'mismatch', message: message ?? MISMATCH_MESSAGE }
      : { kind: 'conflict', message: message ?? FAILED_TO_UPDATE };
  }
  if (RETRYABLE.has(response.status)) {
    const seconds = Number(response.headers.get('retry-after'));
    return {
      kind: 'retry',
      message: message ?? `Server busy (${response.status})`,
      retryAfterMs:
        Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : 0,
    };
  }
  // A refusal (outside the date window, not assigned, invalid) or a server fault: sending the same
  // submission again would get the same answer, so it waits for the agent instead.
  return { kind: 'refused', message: message ?? FAILED_TO_UPDATE };
}

/** What became of a submission by the time `submit` returns: its state, or queued (still the phone's). */
export type SubmitOutcome =
  | { kind: Exclude<SubmissionState, 'waiting' | 'sending' | 'stale' | 'refused'>; submission: Submission }
  | { kind: 'refused'; submission: Submission; message: string }
  | { kind: 'queued'; submission: Submission };

/** What `submit` reports of an entry in this state. */
export function outcomeOf(final: Submission): SubmitOutcome {
  switch (final.state) {
    case 'refused':
      return { kind: 'refused', submission: final, message: final.message ?? '' };
    case 'saved':
    case 'pending':
    case 'mismatch':
    case 'changed':
      return { kind: final.state, submission: final };
    default:
      return { kind: 'queued', submission: final };
  }
}

/**
 * The entry as the server's final answer leaves it. A 409 that is not a mismatch is read again: the
 * published value no longer the one the entry expected is "changed" (with the value now, when it
 * could be read); the expected one still there means another conflict, a refusal in its own words.
 */
export async function answeredEntry(
  entry: Submission,
  verdict: Exclude<Verdict, { kind: 'retry' | 'sign-in' }>,
  now: number,
  readPublished: ReadPublished,
): Promise<Submission> {
  switch (verdict.kind) {
    case 'saved':
      return {
        ...entry,
        state: 'saved',
        result: verdict.result ?? entry.result,
        savedAt: verdict.savedAt,
        message: undefined,
      };
    case 'pending':
    case 'mismatch':
      // Delivered: the server holds the value (and keeps the key), so it is never sent again.
      return {
        ...entry,
        state: verdict.kind,
        message: verdict.message,
        answeredAt: new Date(now).toISOString(),
      };
    case 'conflict': {
      if (entry.expected === undefined) return { ...entry, state: 'refused', message: verdict.message };
      const current = await readPublished(entry.ghadiId, entry.date).catch(() => undefined);
      // Read and unchanged: another conflict (a holiday, say), the server's words say which.
      if (current === entry.expected) return { ...entry, state: 'refused', message: verdict.message };
      return { ...entry, state: 'changed', current, message: verdict.message };
    }
    case 'refused':
      return { ...entry, state: 'refused', message: verdict.message };
  }
}
