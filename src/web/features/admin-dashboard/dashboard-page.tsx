import { useDashboardCounts } from '../../api/counts-api.js';
import { PageTitle } from '../../components/ui/card.js';
import { ErrorState, Spinner } from '../../components/ui/states.js';

const CARDS = [
  { key: 'agents', label: 'Total Agents', accent: 'border-l-indigo-500' },
  { key: 'ghadis', label: 'Total Ghadi', accent: 'border-l-amber-500' },
  { key: 'results', label: 'Total Results', accent: 'border-l-emerald-500' },
] as const;

export function DashboardPage() {
  const counts = useDashboardCounts();

  return (
    <div>
      <PageTitle>Welcome, Admin</PageTitle>
      {counts.isPending || (counts.isError && counts.isFetching) ? (
        <Spinner label="Loading dashboard stats…" />
      ) : counts.isError ? (
        <ErrorState message="Failed to load dashboard stats" onRetry={() => counts.refetch()} />
      ) : (
        <dl className="grid gap-4 sm:grid-cols-3">
          {CARDS.map((card) => (
            <div
              key={card.key}
              className={`rounded-lg border border-l-4 border-slate-200 bg-white p-5 shadow-sm ${card.accent}`}
            >
              <dt className="text-sm font-medium text-slate-600">{card.label}</dt>
              <dd className="mt-1 text-3xl font-bold tabular-nums text-slate-900">
                {counts.data[card.key].toLocaleString('en-IN')}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
