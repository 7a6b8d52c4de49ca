import type { PublicPageData } from '../shared/public-page-data.js';
import { MonthChartView } from './features/public-charts/month-chart-view.js';
import type { WeeklyChartView } from './features/public-charts/weekly-chart-view.js';
import { YearChartView } from './features/public-charts/year-chart-view.js';
import type { DeclarationsView } from './features/public-declarations/declarations-view.js';
import { HomeView } from './features/public-home/home-view.js';
import { NotFoundView } from './features/public-not-found/not-found-view.js';
import type { ReceiptView } from './features/public-receipts/receipt-view.js';
import { PublicResultsView } from './features/public-results/public-results-view.js';

/**
 * Views only some pages show, which only those pages load in the browser (public-hydrate.tsx) so
 * that every other page's script stays as small as it was; the server's renderer has them all.
 */
export interface PageViews {
  WeeklyChartView?: typeof WeeklyChartView;
  ReceiptView?: typeof ReceiptView;
  DeclarationsView?: typeof DeclarationsView;
}

/** The server-rendered public pages; links between them are plain full loads (no router). */
export function PublicPage({ data, views = {} }: { data: PublicPageData; views?: PageViews }) {
  switch (data.page) {
    case 'home':
      return <HomeView initial={data} language={data.language} />;
    case 'results':
      return <PublicResultsView initial={data} language={data.language} />;
    case 'declarations':
      return views.DeclarationsView ? <views.DeclarationsView data={data} language={data.language} /> : null;
    case 'year-chart':
      return <YearChartView initial={data} language={data.language} />;
    case 'weekly-chart':
      return views.WeeklyChartView ? <views.WeeklyChartView initial={data} language={data.language} /> : null;
    case 'month-chart':
      return <MonthChartView initial={data} language={data.language} />;
    case 'receipt':
      return views.ReceiptView ? <views.ReceiptView data={data} language={data.language} /> : null;
    case 'not-found':
      return <NotFoundView data={data} language={data.language} />;
  }
}
