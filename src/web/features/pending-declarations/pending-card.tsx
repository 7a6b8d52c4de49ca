import { shortDate } from '../../../shared/date-labels.js';
import { addDays, dateInZone, timeInZone } from '../../../shared/dates.js';
import type { PendingDeclaration, PendingEntry } from '../../../shared/schemas/pending.js';
import { type SubmitOutcome, useSubmitResult } from '../../api/results-api.js';
import { Badge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { failureNotice, type Notice } from '../../components/ui/notice.js';
import { weekdayNameOf } from '../../lib/ghadi-days-text.js';
import { PendingValueForm } from './pending-value-form.js';

/** "Thu 10 Dec 2026": the business date the entries are for. */
export function dateText(date: string): string {
  return `${weekdayNameOf(date).slice(0, 3)} ${shortDate(date)}`;
}

/** "10 Dec 2026 14:05" on the site's clocks. */
function enteredAt(iso: string, timeZone: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return iso;
  return `${shortDate(dateInZone(instant, timeZone))} ${timeInZone(iso, timeZone)}`;
}

/** What the admin is told of a value sent for a pending ghadi and date. */
function outcomeNotice(outcome: SubmitOutcome, value: string, declaration: PendingDeclaration): Notice {
  const what = `${declaration.Name} on ${dateText(declaration.Date)}`;
  if (outcome.kind === 'published') return { tone: 'success', message: `Published ${value} for ${what}.` };
  if (outcome.kind === 'pending') {
    return {
      tone: 'info',
      message: `${value} for ${what} is held as your entry: nothing is published yet.`,
      detail:
        'It needs another person to enter the same value (or you to publish another person’s equal entry).',
    };
  }
  return {
    tone: 'error',
    message: `Not published: ${value} differs from another person’s entry for ${what}.`,
    detail: 'It now waits beside the others. Publish one of the entries, or discard them all.',
  };
}

interface EntryRowProps {
  entry: PendingEntry;
  declaration: PendingDeclaration;
  timeZone: string;
  mine: boolean;
  busy: boolean;
  onPublish: (value: string) => void;
}

function EntryRow({ entry, declaration, timeZone, mine, busy, onPublish }: EntryRowProps) {
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2">
      <span className="min-w-0 flex-1 basis-32">
        <span className="block font-medium text-slate-900">
          {entry.UserName}
          {mine && <span className="font-normal text-slate-600"> (you)</span>}
        </span>
        <time dateTime={entry.SubmittedAt} className="block text-xs text-slate-600">
          {enteredAt(entry.SubmittedAt, timeZone)}
        </time>
      </span>
      <span className="font-mono text-lg font-bold text-slate-900" data-testid="pending-value">
        {entry.Result}
      </span>
      {mine ? (
        // The same person twice is never two confirmations: the server would hold it again.
        <span className="basis-full text-xs text-slate-600 sm:basis-auto">Needs another person’s entry</span>
      ) : (
        <Button
          size="sm"
          disabled={busy}
          aria-label={`Publish ${entry.Result}, ${entry.UserName}’s entry for ${declaration.Name} on ${dateText(declaration.Date)}`}
          onClick={() => onPublish(entry.Result)}
        >
          Publish {entry.Result}
        </Button>
      )}
    </li>
  );
}

interface PendingCardProps {
  declaration: PendingDeclaration;
  today: string;
  timeZone: string;
  /** The signed-in admin's user id: their own entry cannot be confirmed by them. */
  myUserId: number | undefined;
  onOutcome: (notice: Notice) => void;
  onDiscard: (declaration: PendingDeclaration) => void;
}

/**
 * One ghadi and date awaiting a confirmation: each person's value, who entered it and when, and the
 * admin's ways out. Publishing sends the value as the admin's own submission, with the value now
 * published as the one it replaces, so a correction made meanwhile is not overwritten.
 */
export function PendingCard({
  declaration,
  today,
  timeZone,
  myUserId,
  onOutcome,
  onDiscard,
}: PendingCardProps) {
  const submit = useSubmitResult();
  const { Mismatch: mismatch } = declaration;
  const when = dateText(declaration.Date);
  const relative =
    declaration.Date === today ? 'Today' : declaration.Date === addDays(today, -1) ? 'Yesterday' : null;

  const publish = async (value: string): Promise<boolean> => {
    try {
      const outcome = await submit.mutateAsync({
        ghadiId: declaration.GID,
        result: value,
        dateTime: declaration.Date,
        Expected: declaration.Current,
      });
      onOutcome(outcomeNotice(outcome, value, declaration));
      return true;
    } catch (error) {
      onOutcome(failureNotice(`Failed to publish ${value} for ${declaration.Name} on ${when}`, error));
      return false;
    }
  };

  const headingId = `pending-${declaration.GID}-${declaration.Date}`;
  return (
    <article
      aria-labelledby={headingId}
      data-mismatch={mismatch}
      className={`rounded-lg border bg-white p-4 shadow-sm ${
        mismatch ? 'border-red-300 border-l-4 border-l-red-600' : 'border-slate-200'
      }`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="font-semibold text-slate-900">
          {declaration.Name} <span className="font-normal text-slate-600">· {when}</span>
        </h3>
        <span className="flex flex-wrap gap-1">
          {relative && <Badge tone="slate">{relative}</Badge>}
          {mismatch ? (
            <Badge tone="red">Mismatch: the entries differ</Badge>
          ) : (
            <Badge tone="amber">Waiting for a 2nd confirmation</Badge>
          )}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {declaration.Current === null ? (
          'Nothing published yet for this date.'
        ) : (
          <>
            Published now: <strong className="font-mono">{declaration.Current}</strong> (a confirmed value
            replaces it)
          </>
        )}
      </p>
      <ul
        aria-label={`Entries for ${declaration.Name} on ${when}`}
        className="mt-3 divide-y divide-slate-100 rounded-md border border-slate-200"
      >
        {declaration.Entries.map((entry) => (
          <EntryRow
            key={entry.UserId}
            entry={entry}
            declaration={declaration}
            timeZone={timeZone}
            mine={entry.UserId === myUserId}
            busy={submit.isPending}
            onPublish={(value) => void publish(value)}
          />
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 basis-64 sm:max-w-md">
          <PendingValueForm
            label={`Declare a value for ${declaration.Name} on ${when}`}
            busy={submit.isPending}
            onPublish={publish}
          />
        </div>
        <Button
          variant="danger"
          className="sm:mt-6"
          aria-label={`Discard the entries for ${declaration.Name} on ${when}`}
          onClick={() => onDiscard(declaration)}
        >
          Discard
        </Button>
      </div>
    </article>
  );
}
