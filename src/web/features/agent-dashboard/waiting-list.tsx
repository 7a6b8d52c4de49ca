import { addDays } from '../../../shared/dates.js';
import { Button } from '../../components/ui/button.js';
import { ageText, timeOf } from './held-entries.js';
import type { Submission, SubmissionState } from './submission-entry.js';
import type { QueueSnapshot } from './submission-queue.js';

/** "Today" or "Yesterday" beside a business date, as the form names them. */
export function dayName(date: string, today: string): string | null {
  if (date === today) return 'Today';
  if (date === addDays(today, -1)) return 'Yesterday';
  return null;
}

/** The states this list shows: held ones (pending, mismatch) are the held list's. */
type Shown = Exclude<SubmissionState, 'pending' | 'mismatch'>;

const STATE_STYLE: Record<Shown, string> = {
  waiting: 'bg-amber-100 text-amber-900',
  sending: 'bg-indigo-100 text-indigo-800',
  stale: 'bg-orange-100 text-orange-900',
  saved: 'bg-green-100 text-green-800',
  changed: 'bg-red-100 text-red-800',
  refused: 'bg-red-100 text-red-800',
};

const STATE_LABEL: Record<Shown, string> = {
  waiting: 'Waiting',
  sending: 'Sending…',
  stale: 'Not sent',
  saved: 'Saved',
  changed: 'Changed',
  refused: 'Refused',
};

const shown = (submission: Submission): submission is Submission & { state: Shown } =>
  submission.state !== 'pending' && submission.state !== 'mismatch';

/** What a "changed" entry says: the value published now, when the phone could read it. */
export function changedText(current: string | null | undefined, message: string | undefined): string {
  const now =
    current === undefined
      ? (message ?? 'the saved result is not the one you saw')
      : current === null
        ? 'no result is saved now'
        : `the saved result is now ${current}`;
  return `Changed since you entered it: ${now}. Not sent; check it, and enter yours again if it is right.`;
}

function StateLine({ submission, now }: { submission: Submission & { state: Shown }; now: number }) {
  switch (submission.state) {
    case 'saved':
      return submission.savedAt ? (
        <>
          Saved on the server at <time dateTime={submission.savedAt}>{timeOf(submission.savedAt)}</time>
        </>
      ) : (
        <>Saved on the server</>
      );
    case 'refused':
      return <>Not saved: {submission.message}</>;
    case 'changed':
      return <>{changedText(submission.current, submission.message)}</>;
    case 'stale':
      return (
        <>
          Not sent: entered {ageText(now - Date.parse(submission.enteredAt))} ago, at{' '}
          <time dateTime={submission.enteredAt}>{timeOf(submission.enteredAt)}</time>. An entry this old is
          not sent by itself: the result may have been declared or corrected since.
        </>
      );
    case 'sending':
      return <>Sending now…</>;
    case 'waiting':
      return (
        <>
          Kept on this phone
          {submission.attempts > 0 && submission.message ? ` (${submission.message})` : ''}
        </>
      );
  }
}

interface WaitingListProps {
  snapshot: QueueSnapshot;
  today: string;
  /** The queue's clock now: how old a stale entry is. */
  now: number;
  onSendNow: () => void;
  onDismiss: (key: string) => void;
  onSendAnyway: (key: string) => void;
}

/**
 * The submissions that could not be sent at once, kept on the phone until the server has them: each
 * with its ghadi, date, value and state, in the order entered (the order they are sent in).
 */
export function WaitingList({ snapshot, today, now, onSendNow, onDismiss, onSendAnyway }: WaitingListProps) {
  const { signInNeeded, nextAttemptAt } = snapshot;
  const submissions = snapshot.submissions.filter(shown);
  if (submissions.length === 0) return null;
  const unsent = submissions.filter(
    (submission) => submission.state === 'waiting' || submission.state === 'sending',
  );
  const stale = submissions.filter((submission) => submission.state === 'stale').length;
  let title = 'Sent from this phone';
  if (unsent.length > 0) title = `Waiting to send (${unsent.length})`;
  else if (stale > 0) title = `Not sent: your answer needed (${stale})`;

  return (
    <section
      aria-labelledby="waiting-list-title"
      className="mb-6 rounded-lg border-2 border-amber-400 bg-white p-4 shadow-sm"
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="waiting-list-title" className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {unsent.length > 0 && !signInNeeded && (
          <Button size="sm" variant="secondary" className="min-h-11" onClick={onSendNow}>
            Send now
          </Button>
        )}
      </div>
      {signInNeeded ? (
        <p role="alert" className="mb-3 text-sm font-medium text-red-700">
          Your session has ended. Sign in again to send these; they stay on this phone until then.
        </p>
      ) : (
        unsent.length > 0 && (
          <p className="mb-3 text-sm text-slate-600">
            Kept on this phone and sent by themselves, in this order, when the network is back.
            {nextAttemptAt !== null && (
              <>
                {' '}
                Next try at{' '}
                <time dateTime={new Date(nextAttemptAt).toISOString()}>
                  {timeOf(new Date(nextAttemptAt).toISOString())}
                </time>
                .
              </>
            )}
          </p>
        )
      )}
      <ol className="divide-y divide-slate-100">
        {submissions.map((submission) => {
          const day = dayName(submission.date, today);
          const finished =
            submission.state === 'saved' || submission.state === 'refused' || submission.state === 'changed';
          return (
            <li
              key={submission.key}
              aria-label={`${submission.ghadiName}, ${day ?? submission.date}: ${submission.result}, ${STATE_LABEL[submission.state]}`}
              className="flex items-start gap-3 py-3"
            >
              <div className="min-w-0 flex-1">
                <p className="font-semibold break-words text-slate-900">{submission.ghadiName}</p>
                <p className="text-sm text-slate-600">
                  {day && <span className="font-medium text-slate-800">{day} </span>}
                  <span className="whitespace-nowrap">{submission.date}</span>
                </p>
                <p
                  className={`mt-1 text-sm ${submission.state === 'stale' || submission.state === 'changed' ? 'font-medium text-red-800' : 'text-slate-700'}`}
                >
                  <StateLine submission={submission} now={now} />
                </p>
                {submission.replaced !== undefined && (
                  <p className="mt-1 text-sm text-slate-600">
                    Replaces <span className="font-mono font-semibold">{submission.replaced}</span>, entered
                    earlier for the same ghadi and date.
                  </p>
                )}
              </div>
              <div className="flex shrink-0 flex-col items-end gap-2">
                <span className="font-mono text-2xl font-bold break-all text-slate-900">
                  {submission.result}
                </span>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${STATE_STYLE[submission.state]}`}
                >
                  {STATE_LABEL[submission.state]}
                </span>
                {submission.state === 'stale' && (
                  <>
                    <Button
                      size="sm"
                      variant="secondary"
                      className="min-h-11"
                      aria-label={`Send anyway ${submission.ghadiName} ${submission.date}`}
                      onClick={() => onSendAnyway(submission.key)}
                    >
                      Send anyway
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="min-h-11"
                      aria-label={`Discard ${submission.ghadiName} ${submission.date}`}
                      onClick={() => onDismiss(submission.key)}
                    >
                      Discard
                    </Button>
                  </>
                )}
                {finished && (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="min-h-11"
                    aria-label={`Dismiss ${submission.ghadiName} ${submission.date}`}
                    onClick={() => onDismiss(submission.key)}
                  >
                    Dismiss
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
