import { useAllResults } from '../../api/results.js';
import { Card, PageTitle } from '../../components/ui/card.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { ResultsTable } from './results-table.js';

export function ResultsPage() {
  const results = useAllResults();

  return (
    <div>
      <PageTitle>All Agents Ghadi Results</PageTitle>
      <Card>
        {results.isPending || (results.isError && results.isFetching) ? (
          <Spinner label="Loading results…" />
        ) : results.isError ? (
          <ErrorState message="Failed to load data" onRetry={() => results.refetch()} />
        ) : results.data.length === 0 ? (
          <EmptyState>No results found.</EmptyState>
        ) : (
          <ResultsTable results={results.data} />
        )}
      </Card>
    </div>
  );
}
