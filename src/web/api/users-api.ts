import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserCreateInput, UserRecord, UserUpdateInput } from '../../shared/schemas/users.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

export function useUsers() {
  return useQuery({
    queryKey: queryKeys.users,
    queryFn: async () => (await api.get<{ data: UserRecord[] }>('/api/users')).data,
  });
}

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, values }: { id?: string; values: UserCreateInput | UserUpdateInput }) => {
      const answer = id
        ? await api.put<{ data: UserRecord }>(`/api/users/${id}`, values)
        : await api.post<{ data: UserRecord }>('/api/users', values);
      return answer.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.counts }),
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/users/${id}`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.users }),
        queryClient.invalidateQueries({ queryKey: queryKeys.assignments }),
        queryClient.invalidateQueries({ queryKey: queryKeys.counts }),
      ]),
  });
}
