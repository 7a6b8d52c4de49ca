import { useQuery } from '@tanstack/react-query';
import type { TodayBoard } from '../../shared/schemas/today.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

/**
 * Today's board (GET /api/today). It is kept current by the live stream (a refetch per change), and
 * when the admin comes back to the window, which is when the agents' "last seen" matters again.
 */
export function useTodayBoard() {
  return useQuery({
    queryKey: queryKeys.today,
    queryFn: async ({ signal }) => (await api.get<{ data: TodayBoard }>('/api/today', { signal })).data,
    refetchOnWindowFocus: true,
  });
}
