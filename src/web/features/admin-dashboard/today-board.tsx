import { Fragment, useState } from 'react';
import type { GhadiState } from '../../../shared/ghadi-due.js';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { TodayBoard as Board, TodayGhadi } from '../../../shared/schemas/today.js';
import { queryKeys } from '../../api/query-keys.js';
import { useTodayBoard } from '../../api/today-api.js';
import { UpdateResultForm } from '../../components/admin/update-result-form.js';
import { Button } from '../../components/ui/button.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useLiveRefetch } from '../../hooks/use-live-refetch.js';
import {
  countdownText,
  lastSeenText,
  nextChangeOf,
  pastDueText,
  stateNow,
  useBoardClock,
} from './board-time.js';
import { StateBadge, StateIcon } from './state-badge.js';

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

function dateLabel(date: string): string {
  const instant = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(instant) ? date : dateFormat.format(instant);
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** A time of day as the RTimes are written ("2:47 PM"), on the site's clocks. */
function siteTime(instant: string, timeZone: string): string {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone });
    timeFormats.set(timeZone, format);
  }
  return format.format(Date.parse(instant));
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Cells: on a phone each row is a card (a grid), from md up a table row. */
const CELL = 'md:table-cell md:border-t md:border-slate-200 md:px-3 md:py-2.5 md:align-top';
/** Words a phone's card needs and the table's headers say on a wide screen. */
const PHONE_LABEL = 'text-slate-600 md:hidden';

function TimeCell({ ghadi, state, now }: { ghadi: TodayGhadi; state: GhadiState; now: number }) {
  const due = ghadi.dueAt === null ? null : Date.parse(ghadi.dueAt);
  let when: { text: string; className: string } | null = null;
  if (due === null) {
    if (state === 'waiting') when = { text: 'no set time', className: 'text-slate-600' };
  } else if (state === 'waiting') {
    when = { text: countdownText(due, now), className: 'text-slate-700' };
  } else if (state === 'due') {
    when = { text: pastDueText(due, now), className: 'font-medium text-amber-800' };
  } else if (state === 'overdue') {
    when = { text: pastDueText(due, now), className: 'font-semibold text-red-700' };
  }
  return (
    <td className={`col-span-2 text-sm ${CELL}`}>
      <span className={PHONE_LABEL}>Result time </span>
      <span className="font-medium tabular-nums text-slate-900">{ghadi.RTime}</span>
      {when && (
        // A countdown that changes every few seconds would flood a screen reader: it is read on demand.
        <span aria-live="off" className={`ml-2 whitespace-nowrap md:ml-0 md:block ${when.className}`}>
          {when.text}
        </span>
      )}
    </td>
  );
}

function ResultCell({ ghadi, timeZone }: { ghadi: TodayGhadi; timeZone: string }) {
  return (
    <td className={`col-span-2 text-sm ${CELL}`}>
      {ghadi.Result === null ? (
        <span className="text-slate-600">Not declared yet</span>
      ) : (
        <>
          <span className={PHONE_LABEL}>Result </span>
          <span className="font-mono text-base font-bold text-slate-900">{ghadi.Result}</span>
          <span className="ml-2 text-slate-600 md:ml-0 md:block">
            {ghadi.DeclaredBy ? `by ${ghadi.DeclaredBy}` : 'by an unknown user'}
            {ghadi.DeclaredAt && (
              <>
                {' at '}
                <time dateTime={ghadi.DeclaredAt}>{siteTime(ghadi.DeclaredAt, timeZone)}</time>
              </>
            )}
          </span>
        </>
      )}
    </td>
  );
}

function AgentsCell({ ghadi, now }: { ghadi: TodayGhadi; now: number }) {
  return (
    <td className={`col-span-2 text-sm ${CELL}`}>
      {ghadi.agents.length === 0 ? (
        <span className="text-amber-800">No agent assigned</span>
      ) : (
        <ul className="space-y-0.5">
          {ghadi.agents.map((agent) => {
            const seen = lastSeenText(agent.lastSeenAt, now);
            return (
              <li key={agent.User_Id}>
                <span className={PHONE_LABEL}>Agent </span>
                <span className="font-medium text-slate-900">{agent.DisplayName || agent.UserName}</span>
                <span aria-live="off" className="text-slate-600">
                  {' · '}
                  {agent.lastSeenAt ? (
                    <time dateTime={agent.lastSeenAt} title={agent.lastSeenAt}>
                      {seen}
                    </time>
                  ) : (
                    seen
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </td>
  );
}

function BoardTable({ board, now }: { board: Board; now: number }) {
  const [formFor, setFormFor] = useState<number | null>(null);
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
          const state = stateNow(ghadi, now, board.overdueAfterMinutes);
          const overdue = state === 'overdue';
          const open = formFor === ghadi.GID;
          const formId = `board-update-result-${ghadi.GID}`;
          return (
            <Fragment key={ghadi.GID}>
              <tr
                data-state={state}
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
                <TimeCell ghadi={ghadi} state={state} now={now} />
                <td className={`col-start-2 row-start-1 justify-self-end ${CELL}`}>
                  <StateBadge state={state} />
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
                      <UpdateResultForm ghadi={ghadi} onClose={() => setFormFor(null)} />
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
 * change, no polling); waiting → due → overdue moves by the local clock.
 */
export function TodayBoard() {
  const board = useTodayBoard();
  useLiveRefetch(queryKeys.today, LIVE_KINDS);
  const now = useBoardClock((at) => nextChangeOf(board.data, at));

  const states = (board.data?.ghadis ?? []).map((ghadi) =>
    stateNow(ghadi, now, board.data?.overdueAfterMinutes ?? 0),
  );
  const count = (state: GhadiState) => states.filter((s) => s === state).length;
  const overdue = count('overdue');

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
          </p>
        )}
      </div>
      {body()}
    </section>
  );
}
