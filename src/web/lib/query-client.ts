import { onlineManager, QueryClient } from '@tanstack/react-query';
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
      // Offline, a query still asks once: the service worker may answer it from its cache (the
      // agent's reads), and otherwise it waits for the network instead of failing.
      networkMode: 'offlineFirst',
      // Retrying a 4xx cannot help; a network blip on a phone can.
      retry: (failureCount, error) =>
        failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});

// TanStack Query assumes it is online until the browser says otherwise; a page opened offline (from
// the service worker's cache) would then spend its retries and show errors instead of waiting.
if (typeof navigator !== 'undefined' && !navigator.onLine) onlineManager.setOnline(false);
