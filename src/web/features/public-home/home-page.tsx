import { useEffect, useState } from 'react';
import type { HomePageData } from '../../../shared/public-pages.js';
import { loadHomeData } from './home-data.js';
import { HomeView } from './home-view.js';

/**
 * The home page inside the SPA (client navigation to "/", e.g. the route guard's redirect, and
 * development through Vite). Full loads of "/" get the server-rendered page instead.
 */
export function HomePage() {
  const [data, setData] = useState<HomePageData | null>(null);
  useEffect(() => {
    let active = true;
    void loadHomeData().then((loaded) => {
      if (active) setData(loaded);
    });
    return () => {
      active = false;
    };
  }, []);
  if (!data) {
    return (
      <p role="status" className="p-6 text-center text-slate-600">
        Loading…
      </p>
    );
  }
  return <HomeView initial={data} />;
}
