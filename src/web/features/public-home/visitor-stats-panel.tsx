import type { Language } from '../../../shared/page-language.js';
import { useVisitorStats } from '../../lib/visitor.js';
import { HOME_TEXT } from './home-text.js';

/** totalUsers and activeUsers, refreshed every 15 seconds ("…" until the first answer, and without JavaScript). */
export function VisitorStatsPanel({ language }: { language: Language }) {
  const text = HOME_TEXT[language].visitors;
  const stats = useVisitorStats();
  const value = (count: number | undefined) => (count === undefined ? '…' : count.toLocaleString('en-IN'));
  return (
    <section
      aria-labelledby="visitors-title"
      className="later rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="visitors-title" className="text-lg font-bold text-slate-900">
        {text.heading}
      </h2>
      <dl className="mt-2 grid grid-cols-2 gap-3 text-center">
        <div className="rounded-md bg-slate-100 px-2 py-3">
          <dt className="text-sm text-slate-600">{text.total}</dt>
          <dd className="text-2xl font-extrabold text-indigo-800" data-testid="total-users">
            {value(stats?.totalUsers)}
          </dd>
        </div>
        <div className="rounded-md bg-slate-100 px-2 py-3">
          <dt className="text-sm text-slate-600">{text.online}</dt>
          <dd className="text-2xl font-extrabold text-emerald-700" data-testid="active-users">
            {value(stats?.activeUsers)}
          </dd>
        </div>
      </dl>
    </section>
  );
}
