import { useState } from 'react';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { agentHistoryQuery } from '../../../shared/schemas/results.js';
import { useMyResults } from '../../api/agent-api.js';
import { Card, TableScroller } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/field.js';
import { PageSummary, Pagination } from '../../components/ui/pagination.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useSearchDraft } from '../../hooks/use-search-draft.js';

/** The server refuses longer searches. */
const SEARCH_MAX_LENGTH = agentHistoryQuery.shape.q.unwrap().maxLength ?? 100;

/**
 * The chosen ghadi's results, newest first, 10 to a page and searched on the server (spec section 9).
 * Mount one per ghadi; mounting it afresh shows the newest results again.
 */
export function ResultHistory({ ghadi }: { ghadi: GhadiRecord }) {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const history = useMyResults(ghadi.GID, { q, page });
  // A new search starts from its first page.
  const search = useSearchDraft(q, (next) => {
    setQ(next);
    setPage(1);
  });

  const pagination = history.data?.pagination;
  // A page past the end (results removed meanwhile) shows the last page instead.
  if (pagination && !history.isPlaceholderData && page > Math.max(1, pagination.totalPages)) {
    setPage(Math.max(1, pagination.totalPages));
  }

  const body = () => {
    if (history.isError) {
      return (
        <div className="[&_button]:min-h-11 [&_button]:min-w-11">
          <ErrorState message="Failed to load result history" onRetry={() => void history.refetch()} />
        </div>
      );
    }
    // Offline with nothing kept from before: say so, rather than spin until the network returns.
    if (history.isPending && history.fetchStatus === 'paused') {
      return <EmptyState>The history loads when the network is back.</EmptyState>;
    }
    if (history.isPending) return <Spinner label="Loading result history…" />;
    const { data, pagination } = history.data;
    if (pagination.total === 0) return <EmptyState>No results found.</EmptyState>;
    return (
      <>
        <PageSummary pagination={pagination} rows={data.length} />
        <div
          aria-busy={history.isPlaceholderData}
          className={`transition-opacity ${history.isPlaceholderData ? 'opacity-60' : ''}`}
        >
          <TableScroller label={`Result history of ${ghadi.NameEn}`}>
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
                {data.map((row) => (
                  <tr key={row._id}>
                    <td className="py-2.5 pr-4 whitespace-nowrap text-slate-700">
                      <time dateTime={row.Date}>{row.Date}</time>
                    </td>
                    <td className="py-2.5 font-mono text-base font-semibold break-all text-slate-900">
                      {row.Result}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroller>
        </div>
        <Pagination
          page={page}
          pageCount={pagination.totalPages}
          onPage={setPage}
          label="Result history pages"
          size="touch"
        />
      </>
    );
  };

  return (
    <Card title={`Result history: ${ghadi.NameEn}`}>
      <div className="space-y-3">
        <search>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              search.flush();
            }}
          >
            <TextField
              label="Search history"
              type="search"
              placeholder="Result or date (YYYY-MM-DD)"
              autoComplete="off"
              enterKeyHint="search"
              maxLength={SEARCH_MAX_LENGTH}
              className="min-h-11"
              value={search.draft}
              onChange={(event) => search.change(event.target.value)}
            />
          </form>
        </search>
        {body()}
      </div>
    </Card>
  );
}
