import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { type ResultsPageView, useResultsPage } from '../../api/results-api.js';
import { Card, PageTitle } from '../../components/ui/card.js';
import { SelectField, TextField } from '../../components/ui/field.js';
import { PageSummary, Pagination } from '../../components/ui/pagination.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { useSearchDraft } from '../../hooks/use-search-draft.js';
import { ResultsCsvPanel } from './results-csv-panel.js';
import { ROWS_PER_PAGE, readView, SEARCH_MAX_LENGTH, viewParams } from './results-list-params.js';
import { ResultsTable } from './results-table.js';

/**
 * Every agent's results, one page at a time from the server, searched there too. The page, the
 * search and the rows per page live in the address, so a reload or the back button returns to them.
 */
export function ResultsPage() {
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const results = useResultsPage(view);
  const show = (next: ResultsPageView, options: { replace?: boolean } = {}) =>
    setParams(viewParams(next), options);
  // Spec section 9: searching resets to page 1.
  const search = useSearchDraft(view.q, (q) => show({ ...view, q, page: 1 }));

  const pagination = results.data?.pagination;
  const lastPage = pagination ? Math.max(1, pagination.totalPages) : undefined;
  // A page past the end (an old address, or results deleted meanwhile) shows the last page instead.
  useEffect(() => {
    if (lastPage !== undefined && !results.isPlaceholderData && view.page > lastPage) {
      setParams(viewParams({ ...view, page: lastPage }), { replace: true });
    }
  });

  const body = () => {
    if (results.isPending || (results.isError && results.isFetching)) {
      return <Spinner label="Loading results…" />;
    }
    if (results.isError) {
      return <ErrorState message="Failed to load data" onRetry={() => results.refetch()} />;
    }
    const { data, pagination } = results.data;
    if (pagination.total === 0) {
      return view.q ? (
        <EmptyState>No results match “{view.q}”.</EmptyState>
      ) : (
        <EmptyState>No results found.</EmptyState>
      );
    }
    return (
      <>
        <PageSummary pagination={pagination} rows={data.length} />
        <ResultsTable results={data} busy={results.isPlaceholderData} />
        <Pagination
          page={view.page}
          pageCount={pagination.totalPages}
          onPage={(page) => show({ ...view, page })}
          label="Results pages"
        />
      </>
    );
  };

  return (
    <div className="space-y-6">
      <PageTitle>All Agents Ghadi Results</PageTitle>
      <Card>
        <div className="space-y-4">
          <search>
            <form
              className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start"
              onSubmit={(event) => {
                event.preventDefault();
                search.flush();
              }}
            >
              <TextField
                label="Search"
                type="search"
                placeholder="Agent, ghadi, result or date"
                hint="Dates as 2026, 2026-11 or 2026-11-22"
                autoComplete="off"
                maxLength={SEARCH_MAX_LENGTH}
                value={search.draft}
                onChange={(event) => search.change(event.target.value)}
              />
              <SelectField
                label="Rows per page"
                value={view.limit}
                onChange={(event) => {
                  const limit = Number(event.target.value);
                  // The first row shown stays on screen: its page under the new size.
                  const firstRow = (view.page - 1) * view.limit;
                  show({ ...view, limit, page: Math.floor(firstRow / limit) + 1 });
                }}
              >
                {ROWS_PER_PAGE.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </SelectField>
            </form>
          </search>
          {body()}
        </div>
      </Card>
      <ResultsCsvPanel />
    </div>
  );
}
