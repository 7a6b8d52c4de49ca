import { Link } from 'react-router';
import { Card, PageTitle } from '../../components/ui/card.js';

/** Spec section 2: a placeholder until viewing and updating results moves here. */
export function AgentGhadiResultsPage() {
  return (
    <div>
      <PageTitle>Ghadi Results</PageTitle>
      <Card>
        <p className="text-slate-700">Viewing and updating results here is coming soon.</p>
        <p className="mt-2 text-sm text-slate-600">
          Until then, update results and see their history on your dashboard.
        </p>
        <Link
          to="/agent/dashboard"
          className="mt-4 inline-flex min-h-11 items-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Back to dashboard
        </Link>
      </Card>
    </div>
  );
}
