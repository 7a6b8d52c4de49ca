import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import type { PublicPageData } from '../shared/public-page-data.js';
import { WeeklyChartView } from './features/public-charts/weekly-chart-view.js';
import { DeclarationsView } from './features/public-declarations/declarations-view.js';
import { ReceiptView } from './features/public-receipts/receipt-view.js';
import { PublicPage } from './public-page.js';

/**
 * The server's renderer for the public pages (built by `vite build --ssr` into dist/ssr and imported
 * by the server at start). Renders exactly what public-main.tsx hydrates.
 */
export function renderPage(data: PublicPageData): string {
  return renderToString(
    <StrictMode>
      <PublicPage data={data} views={{ WeeklyChartView, ReceiptView, DeclarationsView }} />
    </StrictMode>,
  );
}
