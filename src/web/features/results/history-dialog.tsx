import { useId } from 'react';
import { shortDate } from '../../../shared/date-labels.js';
import { dateInZone, timeInZone } from '../../../shared/dates.js';
import type { ResultHistoryEntry } from '../../../shared/schemas/declarations.js';
import { useResultHistory } from '../../api/results-api.js';
import { useSiteInfo } from '../../api/site-api.js';
import { Button } from '../../components/ui/button.js';
import { ModalDialog } from '../../components/ui/modal-dialog.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';

/** The result whose history is shown. */
export interface HistoryTarget {
  gid: number;
  name: string;
  /** The business date, YYYY-MM-DD. */
  date: string;
}

/** "22 Nov 2026 14:32" in the site's zone. */
function declaredAt(iso: string, timeZone: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return iso;
  return `${shortDate(dateInZone(instant, timeZone))} ${timeInZone(iso, timeZone)}`;
}

function Entry({ entry, timeZone }: { entry: ResultHistoryEntry; timeZone: string }) {
  return (
    <li className="rounded-md border border-slate-200 px-3 py-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs text-slate-600">
        <span className="font-mono">Entry #{entry.seq}</span>
        <time dateTime={entry.DeclaredAt}>{declaredAt(entry.DeclaredAt, timeZone)}</time>
      </div>
      <p className="mt-1 text-sm text-slate-800">
        {entry.Previous === null ? (
          <>
            Declared <strong className="font-mono text-base">{entry.Result}</strong>
          </>
        ) : (
          <>
            Corrected from{' '}
            <span className="font-mono text-base text-slate-500 line-through">{entry.Previous}</span>{' '}
            <span aria-hidden="true">→</span>
            <span className="sr-only">to</span>{' '}
            <strong className="font-mono text-base">{entry.Result}</strong>
          </>
        )}
      </p>
      <p className="text-xs text-slate-600">
        by{' '}
        {entry.DeclaredByName || <span className="italic">unknown (declared before the log was kept)</span>}
      </p>
    </li>
  );
}

/**
 * Every declaration of one result, oldest first: who, when (in the site's time zone), the value it
 * replaced, and its entry in the public log. A modal <dialog>, as the import dialog is.
 */
export function HistoryDialog({ target, onClose }: { target: HistoryTarget | null; onClose: () => void }) {
  const ids = useId();
  const history = useResultHistory(target && { gid: target.gid, date: target.date });
  const site = useSiteInfo();
  // Until the site's zone arrives, the browser's is the best guess (it says which it used).
  const timeZone = site.data?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

  const body = () => {
    if (history.isPending || (history.isError && history.isFetching)) {
      return <Spinner label="Loading history…" />;
    }
    if (history.isError) {
      return <ErrorState message="Failed to load the history" onRetry={() => history.refetch()} />;
    }
    if (history.data.length === 0)
      return <EmptyState>No declarations are recorded for this result.</EmptyState>;
    return (
      <>
        <ol className="space-y-2" aria-label="Declarations, oldest first">
          {history.data.map((entry) => (
            <Entry key={entry.seq} entry={entry} timeZone={timeZone} />
          ))}
        </ol>
        <p className="text-xs text-slate-500">Times in {timeZone}.</p>
      </>
    );
  };

  return (
    <ModalDialog
      open={target !== null}
      labelledBy={`${ids}-title`}
      onCancel={onClose}
      widthClass="w-[min(32rem,calc(100vw-2rem))]"
    >
      {target && (
        <div className="space-y-4 p-4 sm:p-5">
          <h2 id={`${ids}-title`} className="text-lg font-semibold break-words text-slate-900">
            History of {target.name} <span className="whitespace-nowrap">{target.date}</span>
          </h2>
          {body()}
          <div className="flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
}
