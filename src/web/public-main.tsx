import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { PublicPageData } from '../shared/public-page-data.js';
import { PublicPage } from './public-page.js';
import './styles.css';

/*
 * The public pages' entry: hydrates the markup the server rendered, with the data it rendered it
 * from (a JSON script element, which the CSP allows since it is never executed).
 */
const container = document.getElementById('root');
const dataElement = document.getElementById('page-data');
if (!container || !dataElement?.textContent) throw new Error('This page has no server-rendered data');
const data = JSON.parse(dataElement.textContent) as PublicPageData;

hydrateRoot(
  container,
  <StrictMode>
    <PublicPage data={data} />
  </StrictMode>,
);
