import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

export interface DashboardCounts {
  agents: number;
  ghadis: number;
  results: number;
}

export function useDashboardCounts() {
  return useQuery({
    queryKey: queryKeys.counts,
    queryFn: async (): Promise<DashboardCounts> => {
      const count = (path: string) => api.get<{ count: number }>(path).then((answer) => answer.count);
      const [agents, ghadis, results] = await Promise.all([
        count('/api/users/count'),
        count('/api/ghadis/count'),
        count('/api/results/count'),
      ]);
      return { agents, ghadis, results };
    },
  });
}
