import { useState } from 'react';
import { dateInZone, timeInZone } from '../../../shared/dates.js';
import type { ResultRecord } from '../../../shared/schemas/results.js';
import { useSiteTimeZone } from '../../api/site-api.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { StatusBadge } from '../../components/ui/badge.js';
import { Button } from '../../components/ui/button.js';
import { CELL, DataTable, WRAP_CELL } from '../../components/ui/data-table.js';
import { HistoryDialog, type HistoryTarget } from './history-dialog.js';

/** One fixed format (e.g. "22 Nov 2026"), the same on every browser. */
const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  // DateTime is the business date at UTC midnight: reading it in UTC keeps the day it stands for.
  timeZone: 'UTC',
});

export function displayDate(result: ResultRecord): string {
  const instant = new Date(result.DateTime);
  return Number.isNaN(instant.getTime()) ? result.Date : DATE_FORMAT.format(instant);
}

/** A calendar date (YYYY-MM-DD) in the same format. */
function displayDay(date: string): string {
  const instant = new Date(`${date}T00:00:00.000Z`);
  return Number.isNaN(instant.getTime()) ? date : DATE_FORMAT.format(instant);
}

/**
 * The result's date, and when its value was declared, in the site's zone (as the public pages show
 * it): "22 Nov 2026, 18:05". A value declared on another day (imported, back-filled, corrected
 * later) says that day too, so the time is never read as the game's.
 */
function DateAndTime({ result, timeZone }: { result: ResultRecord; timeZone: string }) {
  const time = timeInZone(result.DeclaredAt, timeZone);
  const declaredOn = time ? dateInZone(new Date(result.DeclaredAt), timeZone) : result.Date;
  return (
    <>
      <time dateTime={result.Date}>{displayDate(result)}</time>
      {time &&
        (declaredOn === result.Date ? (
          <>
            {', '}
            <time dateTime={result.DeclaredAt}>{time}</time>
          </>
        ) : (
          <span className="block text-slate-600">
            declared{' '}
            <time dateTime={result.DeclaredAt}>
              {displayDay(declaredOn)}, {time}
            </time>
          </span>
        ))}
    </>
  );
}

/** On a phone, agent and date fold into the ghadi's cell and the status under the result: two columns, no sideways scroll. */
const WIDE_ONLY = 'hidden sm:table-cell';

const COLUMNS = [
  { label: 'Agent', className: WIDE_ONLY },
  { label: 'Ghadi' },
  { label: 'Result' },
  { label: 'Date Time', className: WIDE_ONLY },
  { label: 'Status', className: WIDE_ONLY },
  { label: 'History', hideLabel: true },
];

function AgentName({ result }: { result: ResultRecord }) {
  return <>{result.CreatedByName || <span className="text-slate-500">Unknown</span>}</>;
}

/** One page of results; `busy` while the next page loads in its place. Each row opens its history. */
export function ResultsTable({ results, busy }: { results: ResultRecord[]; busy: boolean }) {
  const [history, setHistory] = useState<HistoryTarget | null>(null);
  const timeZone = useSiteTimeZone();
  return (
    <div aria-busy={busy} className={`transition-opacity ${busy ? 'opacity-60' : ''}`}>
      <DataTable caption="All Agents Ghadi Results" columns={COLUMNS}>
        {results.map((result) => (
          <tr key={result._id}>
            <td className={`${CELL} ${WIDE_ONLY}`}>
              <AgentName result={result} />
            </td>
            <td className={`${WRAP_CELL} sm:whitespace-nowrap`}>
              <span className="block font-medium sm:font-normal">{result.Name}</span>
              <span className="mt-0.5 flex flex-wrap gap-x-2 text-sm text-slate-600 sm:hidden">
                <span>
                  <DateAndTime result={result} timeZone={timeZone} />
                </span>
                <span>
                  <AgentName result={result} />
                </span>
              </span>
            </td>
            <td className={CELL}>
              <span className="block font-mono text-base font-semibold sm:font-sans sm:text-sm">
                {result.Result}
                {result.Corrected && <CorrectionMark previous={result.Previous} />}
              </span>
              <span className="mt-0.5 block sm:hidden">
                <StatusBadge active={result.isActive} />
              </span>
            </td>
            <td className={`${CELL} ${WIDE_ONLY}`}>
              <DateAndTime result={result} timeZone={timeZone} />
            </td>
            <td className={`${CELL} ${WIDE_ONLY}`}>
              <StatusBadge active={result.isActive} />
            </td>
            <td className={`${CELL} text-right`}>
              <Button
                size="sm"
                variant="secondary"
                aria-label={`History of ${result.Name} ${result.Date}`}
                onClick={() => setHistory({ gid: result.GID, name: result.Name, date: result.Date })}
              >
                History
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
      <p className="mt-2 text-sm text-slate-600">
        Times are when the value was declared, in the site’s time zone ({timeZone}). A corrected value is
        marked<span aria-hidden="true"> ✱</span>.
      </p>
      <HistoryDialog target={history} onClose={() => setHistory(null)} />
    </div>
  );
}
