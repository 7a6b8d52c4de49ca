import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContentBlockInput, ContentBlockRecord } from '../../shared/schemas/content-blocks.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

export function useContentBlocks() {
  return useQuery({
    queryKey: queryKeys.contentBlocks,
    queryFn: async () => (await api.get<{ data: ContentBlockRecord[] }>('/api/contentblocks')).data,
  });
}

export function useSaveContentBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, values }: { id?: string; values: ContentBlockInput }) => {
      const answer = id
        ? await api.put<{ data: ContentBlockRecord }>(`/api/contentblocks/${id}`, values)
        : await api.post<{ data: ContentBlockRecord }>('/api/contentblocks', values);
      return answer.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.contentBlocks }),
  });
}

export function useDeleteContentBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/contentblocks/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.contentBlocks }),
  });
}
