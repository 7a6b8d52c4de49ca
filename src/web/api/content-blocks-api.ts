import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ContentBlockInput,
  ContentBlockRecord,
  ContentPreviewAnswer,
} from '../../shared/schemas/content-blocks.js';
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

/**
 * The HTML the site would serve for this Content, and what it would remove. Nothing is asked for an
 * empty Content; while the next answer comes, the last one stays on screen.
 */
export function useContentPreview(content: string) {
  return useQuery({
    queryKey: queryKeys.contentPreview(content),
    queryFn: ({ signal }) =>
      api.post<ContentPreviewAnswer>('/api/contentblocks/preview', { Content: content }, { signal }),
    enabled: content.trim() !== '',
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
