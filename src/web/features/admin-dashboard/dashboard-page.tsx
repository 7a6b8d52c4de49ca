import { useDashboardCounts } from '../../api/counts-api.js';
import { PendingBanner } from '../../components/admin/pending-alerts.js';
import { PageTitle } from '../../components/ui/card.js';
import { ErrorState, Spinner } from '../../components/ui/states.js';
import { SiteStatsPanel } from './site-stats-panel.js';
import { TodayBoard } from './today-board.js';

const CARDS = [
  { key: 'agents', label: 'Total Agents', accent: 'border-l-indigo-500' },
  { key: 'ghadis', label: 'Total Ghadi', accent: 'border-l-amber-500' },
  { key: 'results', label: 'Total Results', accent: 'border-l-emerald-500' },
] as const;

/** The spec's welcome and three counts, with result time's board above them and the site's plots below. */
export function DashboardPage() {
  const counts = useDashboardCounts();

  return (
    <div>
      <PageTitle>Welcome, Admin</PageTitle>
      <div className="mb-4 empty:hidden">
        <PendingBanner />
      </div>
      <div className="mb-6">
        <TodayBoard />
      </div>
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
      <div className="mt-8">
        <SiteStatsPanel />
      </div>
    </div>
  );
}
