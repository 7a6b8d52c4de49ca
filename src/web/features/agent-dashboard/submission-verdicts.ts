/**
 * How the server's answer to a submission, or the lack of one, is read: saved, refused, worth
 * sending again later, or the session is over.
 */
import { inWords } from '../../lib/field-labels.js';

export type Verdict =
  | { kind: 'saved'; savedAt: string | undefined; result: string | undefined }
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
    | { message?: unknown; data?: { DeclaredAt?: unknown; Result?: unknown } }
    | undefined;
  if (response.ok) {
    const data = payload?.data;
    return {
      kind: 'saved',
      savedAt: typeof data?.DeclaredAt === 'string' ? data.DeclaredAt : undefined,
      result: typeof data?.Result === 'string' ? data.Result : undefined,
    };
  }
  if (response.status === 401) return { kind: 'sign-in' };
  const message = typeof payload?.message === 'string' ? inWords(payload.message) : undefined;
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
