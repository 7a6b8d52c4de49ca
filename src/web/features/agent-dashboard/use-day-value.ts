import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { useMyResults } from '../../api/agent-api.js';
import type { SubmissionQueue } from './submission-queue.js';
import { useQueueSnapshot } from './use-submission-queue.js';

/** A value this form saved, as the server answered it, until the history shows it (or a later one). */
export interface JustSaved {
  date: string;
  value: string;
  /** The declaration's time on the server (ISO 8601 UTC), when it said. */
  savedAt: string | undefined;
}

export interface DayValue {
  /**
   * The value saved (published) for the date, as the form says it and sends as `Expected`; undefined
   * when none is known.
   */
  saved: string | undefined;
  /**
   * What the next submission is read against (the server reads it against the day's stored value):
   * an entry still waiting on this phone goes first, so it is that entry's value; else the saved one.
   */
  current: string | null;
  /** A value for the date still waiting on this phone to be sent. */
  waiting: string | undefined;
}

/**
 * The value of the ghadi's day: from the newest page of its history (which holds today and
 * yesterday, and is the page the history shows first, so one request serves both), else the
 * ghadi's own TodayResult and YesterdayResult. A value this form just saved counts until the
 * refreshed history catches up: an open panna saved a moment ago makes the next three digits the
 * close panna, not a new open; so does one the queue saved later. An entry waiting on the phone
 * counts before all of them.
 */
export function useDayValue(
  ghadi: GhadiRecord,
  date: string,
  today: string,
  yesterday: string,
  queue: SubmissionQueue | null,
  justSaved: JustSaved | null,
): DayValue {
  const newest = useMyResults(ghadi.GID, { q: '', page: 1 });
  const snapshot = useQueueSnapshot(queue);
  const row = newest.data?.data.find((entry) => entry.Date === date);
  let saved: string | undefined = row?.Result;
  if (saved === undefined) {
    if (date === today) saved = ghadi.TodayResult || undefined;
    else if (date === yesterday) saved = ghadi.YesterdayResult || undefined;
  }
  // What this phone saw saved, by the form or by the queue later, until the history is as new.
  const sentLater = snapshot.submissions.findLast(
    (entry) => entry.ghadiId === ghadi.GID && entry.date === date && entry.state === 'saved',
  );
  let latest = row?.DeclaredAt ?? '';
  for (const seen of [
    justSaved?.date === date ? { value: justSaved.value, at: justSaved.savedAt } : null,
    sentLater ? { value: sentLater.result, at: sentLater.savedAt } : null,
  ]) {
    if (seen && latest < (seen.at ?? '')) {
      saved = seen.value;
      latest = seen.at ?? '';
    }
  }
  const waiting = snapshot.submissions.findLast(
    (entry) =>
      entry.ghadiId === ghadi.GID &&
      entry.date === date &&
      (entry.state === 'waiting' || entry.state === 'sending'),
  )?.result;
  return { saved, current: waiting ?? saved ?? null, waiting };
}
