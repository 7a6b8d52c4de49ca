import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.js';

/**
 * One cache for the signed-in areas. Only their lazily loaded chunks import this module,
 * so the public pages do not carry TanStack Query.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      // Retrying a 4xx cannot help; a network blip on a phone can.
      retry: (failureCount, error) =>
        failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});
