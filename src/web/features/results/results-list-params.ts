import { ADMIN_RESULTS_PAGE_SIZES, MAX_PAGE, resultListQuery } from '../../../shared/schemas/results.js';
import type { ResultsPageView } from '../../api/results-api.js';

/** Spec section 9: 5, 10 or 15 rows per page, 5 by default. */
export const ROWS_PER_PAGE = ADMIN_RESULTS_PAGE_SIZES;
export const DEFAULT_ROWS_PER_PAGE = ADMIN_RESULTS_PAGE_SIZES[0];
/** The server refuses longer searches. */
export const SEARCH_MAX_LENGTH = resultListQuery.shape.q.unwrap().maxLength ?? 100;

/**
 * The page, search and rows per page the address asks for. Whatever is missing or out of range
 * falls back to the default, so a hand-edited or old address still opens a page.
 */
export function readView(params: URLSearchParams): ResultsPageView {
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit'));
  return {
    q: (params.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH),
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
    limit: (ROWS_PER_PAGE as readonly number[]).includes(limit) ? limit : DEFAULT_ROWS_PER_PAGE,
  };
}

/** The address's query for a view; defaults are left out, so the plain address is page 1. */
export function viewParams(view: ResultsPageView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.q) params.set('q', view.q);
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.limit !== DEFAULT_ROWS_PER_PAGE) params.set('limit', String(view.limit));
  return params;
}
