import { Fragment, useState } from 'react';
import type { GhadiState } from '../../../shared/ghadi-due.js';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { TodayBoard as Board, TodayGhadi } from '../../../shared/schemas/today.js';
import { usePendingDeclarations } from '../../api/pending-api.js';
import { queryKeys } from '../../api/query-keys.js';
import { useTodayBoard } from '../../api/today-api.js';
import { UpdateResultForm } from '../../components/admin/update-result-form.js';
import { Button } from '../../components/ui/button.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useLiveRefetch } from '../../hooks/use-live-refetch.js';
import { nextChangeOf, stateNow, useBoardClock } from './board-time.js';
import { ClosedBadge, PendingBadge, StateBadge, StateIcon } from './state-badge.js';
import { AgentsCell, CELL, ResultCell, TimeCell } from './today-board-cells.js';

/** What changes the board: a result declared or corrected, a ghadi added, edited or deleted, a new day. */
const LIVE_KINDS: ReadonlyArray<LiveEvent['kind']> = ['result', 'ghadi', 'day'];

const COLUMNS = ['Ghadi', 'Result time', 'State', 'Result', 'Agents', 'Update'] as const;

/** The summary's order: what needs the operator first. */
const SUMMARY_ORDER: GhadiState[] = ['due', 'waiting', 'declared', 'corrected'];

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A row's look: its state, or "closed" for a ghadi that does not run today and has no value to show. */
function lookOf(ghadi: TodayGhadi, now: number, overdueAfterMinutes: number): GhadiState | 'closed' {
  const state = stateNow(ghadi, now, overdueAfterMinutes);
  return ghadi.closed !== null && state === 'waiting' ? 'closed' : state;
}

function dateLabel(date: string): string {
  const instant = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(instant) ? date : dateFormat.format(instant);
}

/** Today's pending results by ghadi: true where the entries differ. */
function usePendingToday(date: string): Map<number, boolean> {
  const pending = usePendingDeclarations();
  return new Map(
    (pending.data ?? [])
      .filter((declaration) => declaration.Date === date)
      .map((declaration) => [declaration.GID, declaration.Mismatch]),
  );
}

function BoardTable({ board, now }: { board: Board; now: number }) {
  const [formFor, setFormFor] = useState<number | null>(null);
  const pendingToday = usePendingToday(board.date);
  return (
    <table className="block w-full text-left md:table">
      <caption className="sr-only">Today's ghadis by order, with their state and result</caption>
      <thead className="bg-slate-50 max-md:sr-only">
        <tr>
          {COLUMNS.map((column) => (
            <th
              key={column}
              scope="col"
              className="whitespace-nowrap px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600"
            >
              {column === 'Update' ? <span className="sr-only">{column}</span> : column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="block space-y-3 md:table-row-group md:space-y-0">
        {board.ghadis.map((ghadi) => {
          const look = lookOf(ghadi, now, board.overdueAfterMinutes);
          const state = stateNow(ghadi, now, board.overdueAfterMinutes);
          const overdue = look === 'overdue';
          const open = formFor === ghadi.GID;
          const formId = `board-update-result-${ghadi.GID}`;
          return (
            <Fragment key={ghadi.GID}>
              <tr
                data-state={look}
                className={`grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-3 gap-y-1.5 rounded-lg border p-3 md:table-row md:rounded-none md:border-0 md:p-0 ${
                  overdue
                    ? 'border-red-300 border-l-4 border-l-red-600 bg-red-50'
                    : 'border-slate-200 bg-white'
                }`}
              >
                <th
                  scope="row"
                  className={`col-start-1 row-start-1 text-left font-normal ${CELL} ${
                    overdue ? 'md:shadow-[inset_4px_0_0_var(--color-red-600)]' : ''
                  }`}
                >
                  <span className="flex items-center gap-1.5 font-semibold text-slate-900">
                    {overdue && <StateIcon name="alert" className="size-4 text-red-700" />}
                    {ghadi.NameEn}
                  </span>
                  <span className="block text-sm text-slate-600" lang="hi">
                    {ghadi.NameHn}
                  </span>
                </th>
                <TimeCell ghadi={ghadi} state={state} closed={look === 'closed'} now={now} />
                <td className={`col-start-2 row-start-1 justify-self-end ${CELL}`}>
                  <span className="flex flex-col items-end gap-1 md:items-start">
                    {look === 'closed' && ghadi.closed ? (
                      <ClosedBadge closed={ghadi.closed} />
                    ) : (
                      <StateBadge state={state} />
                    )}
                    {pendingToday.has(ghadi.GID) && (
                      <PendingBadge mismatch={pendingToday.get(ghadi.GID) === true} />
                    )}
                  </span>
                </td>
                <ResultCell ghadi={ghadi} timeZone={board.timeZone} />
                <AgentsCell ghadi={ghadi} now={now} />
                <td className={`col-span-2 pt-1 md:pt-2.5 ${CELL} md:text-right`}>
                  <Button
                    size="sm"
                    variant={open ? 'primary' : overdue ? 'danger' : 'secondary'}
                    className="max-md:w-full md:whitespace-nowrap"
                    aria-expanded={open}
                    aria-controls={open ? formId : undefined}
                    aria-label={`Update Result of ${ghadi.NameEn}`}
                    onClick={() => setFormFor(open ? null : ghadi.GID)}
                  >
                    Update Result
                  </Button>
                </td>
              </tr>
              {open && (
                <tr id={formId} className="block md:table-row">
                  <td
                    colSpan={COLUMNS.length}
                    className="block rounded-lg border border-slate-200 bg-slate-50 p-3 md:table-cell md:rounded-none md:border-0 md:border-t"
                  >
                    <div className="max-w-xl">
                      <UpdateResultForm
                        ghadi={ghadi}
                        todayValue={ghadi.Result}
                        onClose={() => setFormFor(null)}
                      />
                    </div>
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * Result time at a glance: every live ghadi today with its state, result, agents and the Update
 * Result form. It changes when the event stream says a result or a ghadi changed (one refetch per
 * change, no polling); waiting → due → overdue moves by the local clock. An open/close market
 * says the step it waits for, and a ghadi closed today (a holiday, an off-day) says so instead of
 * counting down.
 */
export function TodayBoard() {
  const board = useTodayBoard();
  useLiveRefetch(queryKeys.today, LIVE_KINDS);
  const now = useBoardClock((at) => nextChangeOf(board.data, at));

  const looks = (board.data?.ghadis ?? []).map((ghadi) =>
    lookOf(ghadi, now, board.data?.overdueAfterMinutes ?? 0),
  );
  const count = (look: GhadiState | 'closed') => looks.filter((l) => l === look).length;
  const overdue = count('overdue');
  const closed = count('closed');

  const body = () => {
    if (board.isPending || (board.isError && board.isFetching))
      return <Spinner label="Loading today's board…" />;
    if (board.isError) {
      return <ErrorState message="Failed to load today's board" onRetry={() => board.refetch()} />;
    }
    if (board.data.ghadis.length === 0) return <EmptyState>No ghadi yet.</EmptyState>;
    return <BoardTable board={board.data} now={now} />;
  };

  return (
    <section
      aria-labelledby="today-board-title"
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id="today-board-title" className="text-lg font-semibold text-slate-900">
          Today's board
        </h2>
        {board.data && <p className="text-sm text-slate-600">{dateLabel(board.data.date)}</p>}
      </div>
      <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        {/* Announced politely when the count changes (a row turns overdue, or one is declared). */}
        <p
          role="status"
          className={`inline-flex items-center gap-1.5 rounded-md px-2 py-1 font-semibold empty:hidden ${
            overdue > 0 ? 'bg-red-600 text-white' : 'bg-slate-100 text-slate-700'
          }`}
        >
          {board.data &&
            (overdue > 0 ? (
              <>
                <StateIcon name="alert" className="size-4" />
                {plural(overdue, 'ghadi overdue', 'ghadis overdue')}
              </>
            ) : (
              'No ghadi overdue'
            ))}
        </p>
        {board.data && (
          <p className="text-slate-600">
            {SUMMARY_ORDER.map((state) => `${count(state)} ${state}`).join(' · ')}
            {closed > 0 && ` · ${closed} closed`}
          </p>
        )}
      </div>
      {body()}
    </section>
  );
}
