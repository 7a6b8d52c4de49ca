import type { GhadiState } from '../../../shared/ghadi-due.js';
import type { MarketStep } from '../../../shared/open-close-steps.js';
import type { TodayGhadi } from '../../../shared/schemas/today.js';
import { awaitedDue, countdownText, lastSeenText, pastDueText } from './board-time.js';

/** Cells of today's board: on a phone each row is a card (a grid), from md up a table row. */
export const CELL = 'md:table-cell md:border-t md:border-slate-200 md:px-3 md:py-2.5 md:align-top';
/** Words a phone's card needs and the table's headers say on a wide screen. */
const PHONE_LABEL = 'text-slate-600 md:hidden';

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** A time of day as the RTimes are written ("2:47 PM"), on the site's clocks. */
export function siteTime(instant: string, timeZone: string): string {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone });
    timeFormats.set(timeZone, format);
  }
  return format.format(Date.parse(instant));
}

/** What a market's row says it waits for: "Open due 3:45 PM", "Close due 5:45 PM", "Complete". */
function stepText(ghadi: TodayGhadi, step: MarketStep): string {
  if (step === 'open') return `Open due ${ghadi.OpenTime ?? ''}`.trim();
  if (step === 'close') return `Close due ${ghadi.RTime}`;
  return 'Complete';
}

/** Why a closed ghadi waits for nothing today, in words: the board's badge says the same. */
export function closedText(ghadi: TodayGhadi): string {
  if (ghadi.closed === 'holiday') return ghadi.closedNote ? `Holiday: ${ghadi.closedNote}` : 'Holiday';
  return 'Closed today: not one of its days';
}

interface TimeCellProps {
  ghadi: TodayGhadi;
  state: GhadiState;
  /** The ghadi is closed today and waits for no value (none was declared anyway). */
  closed: boolean;
  now: number;
}

export function TimeCell({ ghadi, state, closed, now }: TimeCellProps) {
  const due = awaitedDue(ghadi);
  let when: { text: string; className: string } | null = null;
  if (closed) {
    when = { text: closedText(ghadi), className: 'font-medium text-slate-700' };
  } else if (due === null) {
    if (state === 'waiting' && ghadi.step !== 'complete')
      when = { text: 'no set time', className: 'text-slate-600' };
  } else if (state === 'waiting') {
    when = { text: countdownText(due, now), className: 'text-slate-700' };
  } else if (state === 'due') {
    when = { text: pastDueText(due, now), className: 'font-medium text-amber-800' };
  } else if (state === 'overdue') {
    when = { text: pastDueText(due, now), className: 'font-semibold text-red-700' };
  }
  return (
    <td className={`col-span-2 text-sm ${CELL}`}>
      {ghadi.step === null && <span className={PHONE_LABEL}>Result time </span>}
      {ghadi.step === null ? (
        <span className="font-medium tabular-nums text-slate-900">{ghadi.RTime}</span>
      ) : (
        <>
          <span className="font-medium tabular-nums text-slate-900">
            {closed ? `Open ${ghadi.OpenTime ?? '?'} · Close ${ghadi.RTime}` : stepText(ghadi, ghadi.step)}
          </span>
          {!closed && ghadi.step !== 'complete' && (
            <span className="ml-2 text-xs text-slate-600 md:ml-0 md:block">
              {ghadi.step === 'open' ? `close ${ghadi.RTime}` : `open ${ghadi.OpenTime ?? ''}`}
            </span>
          )}
        </>
      )}
      {when && (
        // A countdown that changes every few seconds would flood a screen reader: it is read on demand.
        <span aria-live="off" className={`ml-2 whitespace-nowrap md:ml-0 md:block ${when.className}`}>
          {when.text}
        </span>
      )}
    </td>
  );
}

export function ResultCell({ ghadi, timeZone }: { ghadi: TodayGhadi; timeZone: string }) {
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

export function AgentsCell({ ghadi, now }: { ghadi: TodayGhadi; now: number }) {
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
