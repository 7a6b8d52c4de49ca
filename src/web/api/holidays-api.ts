import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HolidayInput, HolidayRecord } from '../../shared/schemas/holidays.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

/** Every holiday, past and future, by date: the public list, read by the admins' screen and the agents' form. */
export function useHolidays() {
  return useQuery({
    queryKey: queryKeys.holidays,
    queryFn: async ({ signal }) =>
      (await api.get<{ data: HolidayRecord[] }>('/api/holidays', { signal, anonymous: true })).data,
  });
}

/** What a holiday changes: the list, each ghadi's Closed, today's board, the agents' ghadis. */
function useHolidayRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [queryKeys.holidays, queryKeys.ghadis, queryKeys.today, ['agent']].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

export function useAddHoliday() {
  const refresh = useHolidayRefresh();
  return useMutation({
    mutationFn: async (values: HolidayInput) =>
      (await api.post<{ data: HolidayRecord }>('/api/holidays', values)).data,
    onSuccess: refresh,
  });
}

export function useDeleteHoliday() {
  const refresh = useHolidayRefresh();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/holidays/${id}`),
    onSuccess: refresh,
  });
}
