import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MediaListAnswer, MediaRecord, MediaUploadAnswer } from '../../shared/schemas/media.js';
import { api } from '../lib/api-client.js';
import { uploadWithProgress } from '../lib/upload-with-progress.js';
import { queryKeys } from './query-keys.js';

/** One page of the image library, newest first. While another page loads, the one shown stays. */
export function useMediaPage(page: number, limit: number) {
  return useQuery({
    queryKey: queryKeys.mediaPage(page, limit),
    queryFn: ({ signal }) => api.get<MediaListAnswer>(`/api/media?page=${page}&limit=${limit}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Sends one image to the library; `onProgress` hears how much of it has gone (0 to 1). */
export async function uploadMedia(file: File, onProgress: (fraction: number) => void): Promise<MediaRecord> {
  return (await uploadWithProgress<MediaUploadAnswer>('/api/media', 'file', file, onProgress)).data;
}

/** Refreshes every page of the library, after an upload or a delete. */
export function useRefreshMedia() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.media });
}

/** Deletes an image; the server refuses (409) while a content block still shows it. */
export function useDeleteMedia() {
  const refresh = useRefreshMedia();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/media/${id}`),
    onSuccess: refresh,
  });
}
