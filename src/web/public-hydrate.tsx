import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { PublicPageData } from '../shared/public-page-data.js';
import { PublicPage } from './public-page.js';

/*
 * Hydrates the markup the server rendered, with the data it rendered it from (a JSON script
 * element, which the CSP allows since it is never executed). Loaded by public-main.tsx once the
 * page has painted (hydratePage).
 *
 * Hydrating inside a transition lets React yield to the browser every few milliseconds instead of
 * hydrating a big chart in one long task: the page is already painted and readable, and a phone's
 * taps and scrolls stay answered meanwhile (a tap on a part not yet hydrated hydrates it first).
 */
export function hydratePage(): void {
  const container = document.getElementById('root');
  const dataElement = document.getElementById('page-data');
  if (!container || !dataElement?.textContent) throw new Error('This page has no server-rendered data');
  const data = JSON.parse(dataElement.textContent) as PublicPageData;
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <PublicPage data={data} />
      </StrictMode>,
    );
  });
}
