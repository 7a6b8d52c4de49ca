import { useState } from 'react';
import type { ResultRecord } from '../../../shared/schemas/results.js';
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
              <span className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-slate-600 sm:hidden">
                <time dateTime={result.Date}>{displayDate(result)}</time>
                <span>
                  <AgentName result={result} />
                </span>
              </span>
            </td>
            <td className={CELL}>
              <span className="block font-mono text-base font-semibold sm:font-sans sm:text-sm">
                {result.Result}
              </span>
              <span className="mt-0.5 block sm:hidden">
                <StatusBadge active={result.isActive} />
              </span>
            </td>
            <td className={`${CELL} ${WIDE_ONLY}`}>
              <time dateTime={result.Date}>{displayDate(result)}</time>
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
      <HistoryDialog target={history} onClose={() => setHistory(null)} />
    </div>
  );
}
