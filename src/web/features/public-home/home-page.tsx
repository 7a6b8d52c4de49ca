import { useEffect, useState } from 'react';
import type { HomePageData } from '../../../shared/public-page-data.js';
import { PublicFetchError } from '../../lib/public-fetch.js';
import { loadHomeData } from './home-live.js';
import { HomeView } from './home-view.js';

/**
 * The home page inside the SPA (client navigation to "/", e.g. the route guard's redirect, and
 * development through Vite). Full loads of "/" get the server-rendered page instead.
 */
export function HomePage() {
  const [data, setData] = useState<HomePageData | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    loadHomeData().then(
      (loaded) => {
        if (active) setData(loaded.data);
      },
      (error: unknown) => {
        if (active) setFailed(error instanceof PublicFetchError ? error.message : 'Failed to load data');
      },
    );
    return () => {
      active = false;
    };
  }, []);
  if (failed) {
    return (
      <div role="alert" className="m-6 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
        {failed}{' '}
        <button type="button" className="underline" onClick={() => window.location.reload()}>
          Retry
        </button>
      </div>
    );
  }
  if (!data) {
    return (
      <p role="status" className="p-6 text-center text-slate-600">
        Loading…
      </p>
    );
  }
  return <HomeView initial={data} language="en" />;
}
