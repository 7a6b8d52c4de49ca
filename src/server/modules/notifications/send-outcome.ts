/** What one attempt at a delivery came to, as a channel reports it to the dispatcher. */
export type SendOutcome =
  | { kind: 'sent' }
  /** The push service no longer knows the subscription (404, 410): it is removed. */
  | { kind: 'gone' }
  /** Worth trying again (a network failure, a 5xx, a 429), no sooner than `afterMs` when given. */
  | { kind: 'retry'; reason: string; afterMs?: number }
  /** Never going to work (a 4xx other than those above, a refused address). */
  | { kind: 'failed'; reason: string };

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
