import { useId, useState } from 'react';
import type { ResultRecord } from '../../../shared/schemas/results.js';
import { StatusBadge } from '../../components/ui/badge.js';
import { CELL, DataTable } from '../../components/ui/data-table.js';
import { SelectField, TextField } from '../../components/ui/field.js';
import { Pagination, pageOf } from '../../components/ui/pagination.js';
import { EmptyState } from '../../components/ui/states.js';
import { displayDate, matchesSearch } from './result-search.js';

export const ROWS_PER_PAGE = [5, 10, 15] as const;

const COLUMNS = [
  { label: 'Agent' },
  { label: 'Ghadi' },
  { label: 'Result' },
  { label: 'Date Time' },
  { label: 'Status' },
];

/** The results with a search box and a rows-per-page choice, all in the browser over the loaded list. */
export function ResultsTable({ results }: { results: ResultRecord[] }) {
  const [query, setQuery] = useState('');
  const [pageSize, setPageSize] = useState<number>(ROWS_PER_PAGE[0]);
  const [page, setPage] = useState(1);
  const summaryId = useId();

  const matching = results.filter((result) => matchesSearch(result, query));
  const current = pageOf(matching, page, pageSize);
  const first = (current.page - 1) * pageSize + 1;

  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <TextField
          label="Search"
          type="search"
          placeholder="Agent, ghadi, result or date"
          value={query}
          aria-controls={summaryId}
          onChange={(event) => {
            setQuery(event.target.value);
            // A search shows its matches from the start, not from the page the admin was on.
            setPage(1);
          }}
        />
        <SelectField
          label="Rows per page"
          value={pageSize}
          onChange={(event) => {
            setPageSize(Number(event.target.value));
            setPage(1);
          }}
        >
          {ROWS_PER_PAGE.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </SelectField>
      </div>
      <p id={summaryId} aria-live="polite" className="text-sm text-slate-600">
        {matching.length === 0
          ? 'No matching results.'
          : `Showing ${first}–${first + current.rows.length - 1} of ${matching.length}`}
      </p>
      {matching.length === 0 ? (
        <EmptyState>No results match “{query.trim()}”.</EmptyState>
      ) : (
        <>
          <DataTable caption="All Agents Ghadi Results" columns={COLUMNS}>
            {current.rows.map((result) => (
              <tr key={result._id}>
                <td className={CELL}>
                  {result.CreatedByName || <span className="text-slate-500">Unknown</span>}
                </td>
                <td className={CELL}>{result.Name}</td>
                <td className={`${CELL} font-semibold`}>{result.Result}</td>
                <td className={CELL}>
                  <time dateTime={result.Date}>{displayDate(result)}</time>
                </td>
                <td className={CELL}>
                  <StatusBadge active={result.isActive} />
                </td>
              </tr>
            ))}
          </DataTable>
          <Pagination
            page={current.page}
            pageCount={current.pageCount}
            onPage={setPage}
            label="Results pages"
          />
        </>
      )}
    </div>
  );
}
