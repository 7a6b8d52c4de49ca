import { PENDING_MESSAGE } from '../../../shared/schemas/pending.js';
import { type HeldRow, timeOf } from './held-entries.js';
import { dayName } from './waiting-list.js';

/** Shown for a mismatch in the held list: never the other person's value. */
export const MISMATCH_TEXT = 'Another person entered a different value. Check yours, or ask an admin.';

interface HeldListProps {
  rows: readonly HeldRow[];
  today: string;
}

/**
 * The agent's entries the server holds until another person enters the same value: sent, not lost,
 * not to be sent again, and not public yet. A mismatch says so without the other person's value.
 */
export function HeldList({ rows, today }: HeldListProps) {
  if (rows.length === 0) return null;
  const mismatches = rows.filter((row) => row.state === 'mismatch').length;
  return (
    <section
      aria-labelledby="held-list-title"
      className={`mb-6 rounded-lg border-2 bg-white p-4 shadow-sm ${mismatches > 0 ? 'border-red-400' : 'border-sky-400'}`}
    >
      <h2 id="held-list-title" className="mb-1 text-lg font-semibold text-slate-900">
        {PENDING_MESSAGE} ({rows.length})
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Sent and kept on the server. Published once another person enters the same value; nothing to send
        again.
      </p>
      <ol className="divide-y divide-slate-100">
        {rows.map((row) => {
          const day = dayName(row.date, today);
          const mismatch = row.state === 'mismatch';
          return (
            <li
              key={row.id}
              aria-label={`${row.ghadiName}, ${day ?? row.date}: ${row.result}, ${mismatch ? 'Different value entered' : 'Waiting'}`}
              className="flex items-start gap-3 py-3"
            >
              <div className="min-w-0 flex-1">
                <p className="font-semibold break-words text-slate-900">{row.ghadiName}</p>
                <p className="text-sm text-slate-600">
                  {day && <span className="font-medium text-slate-800">{day} </span>}
                  <span className="whitespace-nowrap">{row.date}</span>
                </p>
                {mismatch ? (
                  <p className="mt-1 text-sm font-medium text-red-700">{MISMATCH_TEXT}</p>
                ) : (
                  <p className="mt-1 text-sm text-slate-700">
                    Yours, entered at <time dateTime={row.enteredAt}>{timeOf(row.enteredAt)}</time>. Not
                    public yet.
                  </p>
                )}
                {row.current !== undefined && row.current !== null && (
                  <p className="mt-1 text-sm text-slate-600">
                    Published now: <span className="font-mono font-semibold">{row.current}</span>
                  </p>
                )}
              </div>
              <div className="flex shrink-0 flex-col items-end gap-2">
                <span className="font-mono text-2xl font-bold break-all text-slate-900">{row.result}</span>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${mismatch ? 'bg-red-100 text-red-800' : 'bg-sky-100 text-sky-900'}`}
                >
                  {mismatch ? 'Different value' : 'Waiting'}
                </span>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
