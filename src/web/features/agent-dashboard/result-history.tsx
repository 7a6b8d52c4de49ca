import { useMemo, useState } from 'react';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { useMyResults } from '../../api/agent.js';
import { Card, TableScroller } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/field.js';
import { Pagination, pageOf } from '../../components/ui/pagination.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { filterHistory, HISTORY_PAGE_SIZE } from './history-filter.js';

/** The shared small buttons (Retry, page numbers) grow to a thumb-sized 44 px here. */
const THUMB_SIZED_BUTTONS = '[&_button]:min-h-11 [&_button]:min-w-11';

/** The chosen ghadi's results, newest first, searchable and 10 to a page. Mount one per ghadi. */
export function ResultHistory({ ghadi }: { ghadi: GhadiRecord }) {
  const history = useMyResults(ghadi.GID);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const matches = useMemo(() => filterHistory(history.data ?? [], search), [history.data, search]);
  const current = pageOf(matches, page, HISTORY_PAGE_SIZE);
  const first = (current.page - 1) * HISTORY_PAGE_SIZE + 1;
  const last = first + current.rows.length - 1;

  return (
    <Card title={`Result history: ${ghadi.NameEn}`}>
      <div className="space-y-3">
        {history.isError && (
          <div className={THUMB_SIZED_BUTTONS}>
            <ErrorState message="Failed to load result history" onRetry={() => void history.refetch()} />
          </div>
        )}
        {history.isPending && !history.isError && <Spinner label="Loading result history…" />}
        {history.data && (
          <>
            <TextField
              label="Search history"
              type="search"
              placeholder="Result or date"
              autoComplete="off"
              className="min-h-11"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setPage(1);
              }}
            />
            {matches.length === 0 ? (
              <EmptyState>No results found.</EmptyState>
            ) : (
              <>
                <p aria-live="polite" className="text-sm text-slate-600">
                  {current.pageCount > 1
                    ? `Showing ${first}–${last} of ${matches.length}`
                    : `${matches.length} ${matches.length === 1 ? 'result' : 'results'}`}
                </p>
                <TableScroller>
                  <table className="w-full text-left text-sm">
                    <caption className="sr-only">Result history of {ghadi.NameEn}, newest first</caption>
                    <thead className="border-b border-slate-200 text-slate-600">
                      <tr>
                        <th scope="col" className="py-2 pr-4 font-medium">
                          Date
                        </th>
                        <th scope="col" className="py-2 font-medium">
                          Result
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {current.rows.map((row) => (
                        <tr key={row._id}>
                          <td className="py-2.5 pr-4 whitespace-nowrap text-slate-700">
                            <time dateTime={row.Date}>{row.Date}</time>
                          </td>
                          <td className="py-2.5 font-mono text-base font-semibold text-slate-900">
                            {row.Result}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroller>
                <div className={THUMB_SIZED_BUTTONS}>
                  <Pagination
                    page={current.page}
                    pageCount={current.pageCount}
                    onPage={setPage}
                    label="Result history pages"
                  />
                </div>
              </>
            )}
          </>
        )}
      </div>
    </Card>
  );
}
