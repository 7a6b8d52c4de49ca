import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ResultRecord, ResultSubmitInput } from '../../shared/schemas/results.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './keys.js';

/** Every result with agent and ghadi names (admin token). */
export function useAllResults() {
  return useQuery({
    queryKey: queryKeys.results,
    queryFn: async () => (await api.get<{ data: ResultRecord[] }>('/api/results')).data,
  });
}

/** Declares a result: agents for their assigned ghadis, admins for any ghadi. */
export function useSubmitResult() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (values: ResultSubmitInput) =>
      (await api.post<{ data: ResultRecord }>('/api/agent/my-ghadi/update-result', values)).data,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.results }),
        queryClient.invalidateQueries({ queryKey: queryKeys.ghadis }),
        queryClient.invalidateQueries({ queryKey: queryKeys.counts }),
        queryClient.invalidateQueries({ queryKey: ['agent'] }),
      ]),
  });
}
