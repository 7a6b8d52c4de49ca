import type { PublicPageData } from '../shared/public-pages.js';
import { HomeView } from './features/public-home/home-view.js';
import { ResultsView } from './features/public-results/results-view.js';

/** The two server-rendered public pages; links between them are plain full loads (no router). */
export function PublicPage({ data }: { data: PublicPageData }) {
  return data.page === 'home' ? <HomeView initial={data} /> : <ResultsView initial={data} />;
}
