import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Pagination } from '../../shared/schemas/common.js';
import type { GhadiRecord } from '../../shared/schemas/ghadis.js';
import { AGENT_HISTORY_PAGE_SIZE, type PublicResultRecord } from '../../shared/schemas/results.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

/** The calling agent's assigned ghadis, by OrderId. */
export function useMyGhadis() {
  return useQuery({
    queryKey: queryKeys.myGhadis,
    queryFn: async () => (await api.get<{ data: GhadiRecord[] }>('/api/agent/my-ghadi')).data,
  });
}

export interface MyResultsPage {
  data: PublicResultRecord[];
  pagination: Pagination;
}

/**
 * One page (10 results) of the history of one assigned ghadi, or of all of them, newest first,
 * searched on the server. The page shown stays while the next one loads.
 */
export function useMyResults(ghadiId: number | undefined, view: { q: string; page: number }) {
  return useQuery({
    queryKey: queryKeys.myResults(ghadiId, view),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (ghadiId !== undefined) params.set('ghadiId', String(ghadiId));
      if (view.q) params.set('q', view.q);
      params.set('page', String(view.page));
      params.set('limit', String(AGENT_HISTORY_PAGE_SIZE));
      return api.get<MyResultsPage>(`/api/agent/my-ghadi/results?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}
