import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AssignmentInput, AssignmentRecord } from '../../shared/schemas/assignments.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

export function useAssignments() {
  return useQuery({
    queryKey: queryKeys.assignments,
    queryFn: async () => (await api.get<{ data: AssignmentRecord[] }>('/api/usermaps')).data,
  });
}

export function useAssignGhadis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: AssignmentInput) => api.post<{ data: AssignmentRecord[] }>('/api/usermaps', values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.assignments }),
  });
}

export function useDeleteAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/usermaps/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.assignments }),
  });
}
