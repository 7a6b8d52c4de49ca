import { Link } from 'react-router';
import { usePendingCounts } from '../../api/pending-api.js';

export const PENDING_PATH = '/admin/pending';

/** "1 result waits for a decision", "2 results wait for a decision". */
export function decisionsText(count: number): string {
  return count === 1 ? '1 result waits for a decision' : `${count} results wait for a decision`;
}

/**
 * The count beside the menu's Pending results link: red for mismatches (the admin must decide),
 * grey for entries that only wait for a second person. Nothing when nothing waits.
 */
export function PendingCountBadge({ active = false }: { active?: boolean }) {
  const { mismatches, waiting } = usePendingCounts();
  if (mismatches === 0 && waiting === 0) return null;
  const urgent = mismatches > 0;
  const count = urgent ? mismatches : waiting;
  const look = urgent
    ? 'bg-red-600 text-white'
    : active
      ? 'bg-white text-indigo-700'
      : 'bg-slate-200 text-slate-700';
  return (
    <span
      data-testid="pending-count"
      className={`ml-auto inline-flex min-w-6 justify-center rounded-full px-1.5 py-0.5 text-xs font-bold tabular-nums ${look}`}
    >
      <span aria-hidden="true">{count}</span>
      {/* One piece of text: the link's name reads "Pending results: 2 need a decision". */}
      <span className="sr-only">
        {`: ${count} ${urgent ? 'need a decision' : 'waiting for a second person'}`}
      </span>
    </span>
  );
}

/**
 * The dashboard's alarm when two people entered different values: nothing is published until the
 * admin decides, so it stays in view until they have. A mismatch found by a later poll is announced
 * politely (status): it needs a decision soon, not an interruption of whatever the admin is typing.
 */
export function PendingBanner() {
  const { mismatches } = usePendingCounts();
  if (mismatches === 0) return null;
  return (
    <div
      role="status"
      data-testid="pending-banner"
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-red-300 border-l-4 border-l-red-600 bg-red-50 px-4 py-3 text-sm text-red-900"
    >
      <p>
        <strong className="font-semibold">{decisionsText(mismatches)}</strong>: two people entered different
        values, and nothing is published until you decide.
      </p>
      <Link
        to={PENDING_PATH}
        className="rounded-md bg-red-600 px-3 py-1.5 font-medium text-white hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600"
      >
        Review pending results
      </Link>
    </div>
  );
}
