import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GhadiInput, GhadiRecord } from '../../shared/schemas/ghadis.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

export function useGhadis() {
  return useQuery({
    queryKey: queryKeys.ghadis,
    queryFn: async () => (await api.get<{ data: GhadiRecord[] }>('/api/ghadis')).data,
  });
}

export function useSaveGhadi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, values }: { id?: string; values: GhadiInput }) => {
      const answer = id
        ? await api.put<{ data: GhadiRecord }>(`/api/ghadis/${id}`, values)
        : await api.post<{ data: GhadiRecord }>('/api/ghadis', values);
      return answer.data;
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.ghadis }),
        queryClient.invalidateQueries({ queryKey: queryKeys.counts }),
      ]),
  });
}

export function useDeleteGhadi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/ghadis/${id}`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.ghadis }),
        queryClient.invalidateQueries({ queryKey: queryKeys.assignments }),
        queryClient.invalidateQueries({ queryKey: queryKeys.counts }),
      ]),
  });
}
