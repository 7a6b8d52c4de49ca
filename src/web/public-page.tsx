import type { PublicPageData } from '../shared/public-page-data.js';
import { DeclarationsView } from './features/public-declarations/declarations-view.js';
import { HomeView } from './features/public-home/home-view.js';
import { PublicResultsView } from './features/public-results/public-results-view.js';

/** The server-rendered public pages; links between them are plain full loads (no router). */
export function PublicPage({ data }: { data: PublicPageData }) {
  switch (data.page) {
    case 'home':
      return <HomeView initial={data} />;
    case 'results':
      return <PublicResultsView initial={data} />;
    case 'declarations':
      return <DeclarationsView data={data} />;
  }
}
