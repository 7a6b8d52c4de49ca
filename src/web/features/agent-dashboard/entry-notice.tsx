import { PENDING_MESSAGE, type PendingDeclaration } from '../../../shared/schemas/pending.js';
import { Alert } from '../../components/ui/alert.js';
import { ageText, type HeldState } from './held-entries.js';
import type { Submission } from './submission-entry.js';
import { changedText } from './waiting-list.js';

const On = ({ date }: { date: string }) => <span className="whitespace-nowrap">{date}</span>;

interface EntryNoticeProps {
  /** The entry as the queue holds it now (or as its answer left it, when the queue keeps none). */
  entry: Submission;
  /** For an entry the server holds: what its list says of it now; 'gone' once it left the list. */
  held: HeldState | 'gone';
  /** The queue's clock now. */
  now: number;
}

/**
 * What became of the form's last submission, under the form where the agent looks: it follows the
 * queue's entry, so an entry the queue sends later reads "Result updated!" here too, not "Not sent yet".
 */
export function EntryNotice({ entry, held, now }: EntryNoticeProps) {
  const { result, date } = entry;
  switch (entry.state) {
    case 'saved':
      return (
        <Alert tone="success">
          <strong>Result updated!</strong> {result} saved for <On date={date} />.
          {entry.listed ? ' Sent from this phone once the network allowed; nothing to enter again.' : ''}
        </Alert>
      );
    case 'waiting':
    case 'sending':
      return (
        <Alert tone="info">
          <strong>Not sent yet.</strong> {result} for <On date={date} /> is kept on this phone and will be
          sent by itself when the network allows (see Waiting to send).
        </Alert>
      );
    case 'stale':
      return (
        <Alert tone="error">
          <strong>Not sent.</strong> {result} for <On date={date} /> was entered{' '}
          {ageText(now - Date.parse(entry.enteredAt))} ago: send it anyway, or discard it, in the list above.
        </Alert>
      );
    case 'pending':
    case 'mismatch':
      if (held === 'gone') return null;
      return held === 'mismatch' ? (
        <Alert tone="error">
          <strong>Not published.</strong> Another person entered a different value for <On date={date} />.
          Yours, {result}, is kept on the server: check it, or ask an admin.
        </Alert>
      ) : (
        <Alert tone="info">
          <strong>Sent. {PENDING_MESSAGE}.</strong> {result} for <On date={date} /> is kept on the server and
          published once another person enters the same value.
        </Alert>
      );
    case 'changed':
      return <Alert tone="error">{changedText(entry.current, entry.message)}</Alert>;
    case 'refused':
      return <Alert tone="error">{entry.message}</Alert>;
  }
}

/** The form's line on the date's held entry, from the server's list: the agent's own value only. */
export function HeldLine({ declaration }: { declaration: PendingDeclaration | undefined }) {
  const mine = declaration?.Entries.at(-1)?.Result;
  if (!declaration || mine === undefined) return null;
  return declaration.Mismatch ? (
    <span className="font-medium text-red-700">
      {' '}
      Yours, <strong className="font-mono">{mine}</strong>, is held: another person entered a different value.
    </span>
  ) : (
    <>
      {' '}
      {PENDING_MESSAGE}: <strong className="font-mono text-slate-900">{mine}</strong> (yours).
    </>
  );
}
