import { useQuery } from '@tanstack/react-query';
import type { DailyStatsEntry, GhadiStatsEntry } from '../../shared/schemas/site-stats.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

/** Days of the site's time zone, both included, YYYY-MM-DD. */
export interface StatsRange {
  from: string;
  to: string;
}

const rangeQuery = ({ from, to }: StatsRange) => new URLSearchParams({ from, to }).toString();

/** Visitors, declarations and corrections per day (GET /api/stats/daily). */
export function useDailyStats(range: StatsRange) {
  return useQuery({
    queryKey: queryKeys.dailyStats(range.from, range.to),
    queryFn: async ({ signal }) =>
      (await api.get<{ data: DailyStatsEntry[] }>(`/api/stats/daily?${rangeQuery(range)}`, { signal })).data,
  });
}

/** Each ghadi's on-time rate and median delay (GET /api/stats/ghadis). */
export function useGhadiStats(range: StatsRange) {
  return useQuery({
    queryKey: queryKeys.ghadiStats(range.from, range.to),
    queryFn: async ({ signal }) =>
      (await api.get<{ data: GhadiStatsEntry[] }>(`/api/stats/ghadis?${rangeQuery(range)}`, { signal })).data,
  });
}
