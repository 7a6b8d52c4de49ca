import { useQuery } from '@tanstack/react-query';
import type { GhadiRecord } from '../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../shared/schemas/results.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './keys.js';

/** The calling agent's assigned ghadis, by OrderId. */
export function useMyGhadis() {
  return useQuery({
    queryKey: queryKeys.myGhadis,
    queryFn: async () => (await api.get<{ data: GhadiRecord[] }>('/api/agent/my-ghadi')).data,
  });
}

/** Result history of one assigned ghadi (or all of them), newest first. */
export function useMyResults(ghadiId?: number) {
  return useQuery({
    queryKey: queryKeys.myResults(ghadiId),
    queryFn: async () => {
      const query = ghadiId === undefined ? '' : `?ghadiId=${ghadiId}`;
      return (await api.get<{ data: PublicResultRecord[] }>(`/api/agent/my-ghadi/results${query}`)).data;
    },
  });
}
