import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { chosenMonth } from '../../../shared/ghadi-page-month.js';
import { findAddressed } from '../../../shared/names.js';
import type { ResultsPageData } from '../../../shared/public-page-data.js';
import { fetchHomeData, getJson, PublicFetchError } from '../../lib/public-fetch.js';
import { PublicResultsView } from './public-results-view.js';
import { fetchGhadiMonth } from './results-data.js';

type Loaded = { data: ResultsPageData } | { error: string };

/**
 * A ghadi's page inside the SPA (client navigation, and development through Vite). Full loads of
 * /satta-results/{name} get the server-rendered page instead.
 */
export function PublicResultsPage() {
  const { name = '' } = useParams();
  const [search] = useSearchParams();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const month = search.get('month') ?? undefined;
  const year = search.get('year') ?? undefined;

  useEffect(() => {
    let active = true;
    (async () => {
      const [home, site] = await Promise.all([fetchHomeData(), getJson<{ timeZone: string }>('/api/site')]);
      const chosen = chosenMonth(home.today, month, year);
      const ghadi = findAddressed(home.ghadis, name) ?? null;
      const results = ghadi ? await fetchGhadiMonth(name, chosen.month, chosen.year) : null;
      return {
        page: 'results',
        version: home.version,
        siteName: home.siteName,
        name,
        today: home.today,
        timeZone: site.timeZone,
        ...chosen,
        ghadi,
        results,
        ghadiNames: home.ghadis,
      } satisfies ResultsPageData;
    })().then(
      (data) => active && setLoaded({ data }),
      (error: unknown) =>
        active &&
        setLoaded({
          error: error instanceof PublicFetchError ? error.message : 'An unexpected error occurred',
        }),
    );
    return () => {
      active = false;
    };
  }, [name, month, year]);

  if (!loaded) {
    return (
      <p role="status" className="p-6 text-center text-slate-600">
        Loading…
      </p>
    );
  }
  if ('error' in loaded) {
    return (
      <div role="alert" className="m-6 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
        {loaded.error}{' '}
        <button type="button" className="underline" onClick={() => window.location.reload()}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <PublicResultsView key={`${loaded.data.month}-${loaded.data.year}`} initial={loaded.data} language="en" />
  );
}
