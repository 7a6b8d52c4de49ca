import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { PublicPageData } from '../shared/public-page-data.js';
import { type PageViews, PublicPage } from './public-page.js';

/*
 * Hydrates the markup the server rendered, with the data it rendered it from (a JSON script
 * element, which the CSP allows since it is never executed). Loaded by public-main.tsx once the
 * page has painted (hydratePage).
 *
 * Not in a transition: hydrating at a transition's priority let the page's first updates (its live
 * stream opening, the clock) interrupt and restart it, and on a busy machine pages stayed
 * unhydrated for many seconds (the public end-to-end tests, three browsers on two cores: 8 of 34
 * timed out waiting for hydration, against 2 without the transition).
 */
/**
 * The views of pages seldom read, or whose code is large, loaded with their pages alone: the weekly
 * charts, a receipt, the declaration log (PageViews). The other pages' script stays as it was.
 */
async function viewsOf(page: PublicPageData['page']): Promise<PageViews> {
  switch (page) {
    case 'weekly-chart':
      return {
        WeeklyChartView: (await import('./features/public-charts/weekly-chart-view.js')).WeeklyChartView,
      };
    case 'receipt':
      return { ReceiptView: (await import('./features/public-receipts/receipt-view.js')).ReceiptView };
    case 'declarations':
      return {
        DeclarationsView: (await import('./features/public-declarations/declarations-view.js'))
          .DeclarationsView,
      };
    default:
      return {};
  }
}

export async function hydratePage(): Promise<void> {
  const container = document.getElementById('root');
  const dataElement = document.getElementById('page-data');
  if (!container || !dataElement?.textContent) throw new Error('This page has no server-rendered data');
  const data = JSON.parse(dataElement.textContent) as PublicPageData;
  const views = await viewsOf(data.page);
  hydrateRoot(
    container,
    <StrictMode>
      <PublicPage data={data} views={views} />
    </StrictMode>,
  );
}
