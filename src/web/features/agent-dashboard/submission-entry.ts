/**
 * An agent's submission as the phone keeps it: its shape, its states, and the rules that follow from
 * them (what a new entry replaces, how long an answered one is kept, what later entries expect).
 */
/**
 * waiting and sending: still the phone's to send. stale: older than the queue sends by itself, set
 * aside until the agent says. The rest are the server's answers: saved (published), pending (held
 * for a second confirmation), mismatch (held; another person entered another value), changed (the
 * published value was no longer the one the agent saw), refused.
 */
export type SubmissionState =
  | 'waiting'
  | 'sending'
  | 'stale'
  | 'saved'
  | 'pending'
  | 'mismatch'
  | 'changed'
  | 'refused';

/** The states an entry ends in: never sent again by the queue. */
export const FINISHED_STATES: ReadonlySet<SubmissionState> = new Set([
  'saved',
  'pending',
  'mismatch',
  'changed',
  'refused',
]);

export interface Submission {
  /** The Idempotency-Key, also the entry's key in the store. */
  key: string;
  userId: number;
  /** The order entered: entries are sent in it. */
  order: number;
  ghadiId: number;
  ghadiName: string;
  /** The business date, YYYY-MM-DD. */
  date: string;
  result: string;
  /** When the agent entered it, by the phone's clock. */
  enteredAt: string;
  state: SubmissionState;
  attempts: number;
  /**
   * Whether the list shows it. Not while its first attempt runs: the form reports that one, and only
   * a submission that could not be sent at once (or outlived its page) becomes the list's.
   */
  listed: boolean;
  /** The value of the waiting entry this one replaced (one declaration per ghadi and date). */
  replaced?: string | undefined;
  /** saved: the declaration's time on the server (ISO 8601 UTC). */
  savedAt?: string | undefined;
  /** refused, changed: the server's reason; waiting: why the last attempt did not get through. */
  message?: string | undefined;
  /**
   * The published value the agent saw and expects this entry to replace (null: none), sent as
   * `Expected`; undefined in entries kept from before the phone sent it.
   */
  expected?: string | null | undefined;
  /**
   * The key of an earlier entry of the same ghadi and date, still to be answered when this one was
   * entered: `expected` is then the value that entry would publish, revised once it is answered.
   */
  expectedFrom?: string | undefined;
  /** changed: the value published now, when the phone could read it (null: none). */
  current?: string | null | undefined;
  /** stale: the agent chose to send it anyway, and it is not set aside again. */
  sendAnyway?: boolean | undefined;
  /** pending, mismatch: when the server's answer came, by the phone's clock. */
  answeredAt?: string | undefined;
}

export interface NewSubmission {
  ghadiId: number;
  ghadiName: string;
  date: string;
  result: string;
  /** The published value the agent saw for the ghadi and date (null: none). */
  expected?: string | null | undefined;
}

/** A saved or held entry stays in the list this long after the page opens again, unless dismissed. */
export const SAVED_KEPT_MS = 24 * 60 * 60_000;

/** States an entry may be replaced in by a new one of the same ghadi and date. */
export const REPLACEABLE: ReadonlySet<SubmissionState> = new Set([
  'waiting',
  'stale',
  'pending',
  'mismatch',
  'changed',
]);

/** When a saved or held entry was answered; undefined for the others, which stay until dismissed. */
export function answeredAtOf(entry: Submission): string | undefined {
  if (entry.state === 'saved') return entry.savedAt;
  return entry.state === 'pending' || entry.state === 'mismatch' ? entry.answeredAt : undefined;
}

/**
 * The entries whose `expected` came from `from` (entered while it was still to be answered), revised
 * now that it is: the value it published, or, when it published nothing, what it expected itself.
 */
export function revisedDependents(
  entries: readonly Submission[],
  from: Submission,
  published: string | undefined,
): Submission[] {
  return entries
    .filter((entry) => entry.expectedFrom === from.key && entry.key !== from.key)
    .map((entry) =>
      published === undefined
        ? { ...entry, expected: from.expected, expectedFrom: from.expectedFrom }
        : { ...entry, expected: published, expectedFrom: undefined },
    );
}
