import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UsermapInput, UsermapRecord } from '../../shared/schemas/usermaps.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

export function useUsermaps() {
  return useQuery({
    queryKey: queryKeys.usermaps,
    queryFn: async () => (await api.get<{ data: UsermapRecord[] }>('/api/usermaps')).data,
  });
}

export function useAssignGhadis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: UsermapInput) => api.post<{ data: UsermapRecord[] }>('/api/usermaps', values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.usermaps }),
  });
}

export function useDeleteUsermap() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/usermaps/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.usermaps }),
  });
}
