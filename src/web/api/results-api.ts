import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pagination } from '../../shared/schemas/common.js';
import type { ResultHistoryEntry } from '../../shared/schemas/declarations.js';
import type { PublicResultRecord, ResultRecord, ResultSubmitInput } from '../../shared/schemas/results.js';
import { api } from '../lib/api-client.js';
import { newSubmissionKey } from '../lib/submission-key.js';
import { queryKeys } from './query-keys.js';

export interface ResultsPageView {
  /** Trimmed search text; empty for none. */
  q: string;
  page: number;
  limit: number;
}

export interface ResultsPage {
  data: ResultRecord[];
  pagination: Pagination;
}

/**
 * One page of the admin's results (agent and ghadi names, newest first), searched on the server.
 * It always asks for a page: without page and limit the server sends the whole table.
 * While another page loads, the one shown stays (no spinner, no jump).
 */
export function useResultsPage(view: ResultsPageView) {
  return useQuery({
    queryKey: queryKeys.resultsPage(view),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (view.q) params.set('q', view.q);
      params.set('page', String(view.page));
      params.set('limit', String(view.limit));
      return api.get<ResultsPage>(`/api/results?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

/**
 * One result's declarations, oldest first, with who made each (GET /api/result-history); asked for
 * only while `result` is given (a dialog is open).
 */
export function useResultHistory(result: { gid: number; date: string } | null) {
  return useQuery({
    queryKey: queryKeys.resultHistory(result?.gid ?? 0, result?.date ?? ''),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ gid: String(result?.gid), date: result?.date ?? '' });
      return api.get<{ data: ResultHistoryEntry[] }>(`/api/result-history?${params}`, { signal });
    },
    enabled: result !== null,
    select: (answer) => answer.data,
  });
}

/**
 * Declares a result: agents for their assigned ghadis (answered with the public fields), admins for
 * any ghadi. Each call carries a key of its own, so that a paused mutation resumed when the network
 * returns is applied once (agents' submissions go through their own queue instead).
 */
export function useSubmitResult() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (values: ResultSubmitInput) =>
      (
        await api.post<{ data: ResultRecord | PublicResultRecord }>(
          '/api/agent/my-ghadi/update-result',
          values,
          { headers: { 'idempotency-key': newSubmissionKey() } },
        )
      ).data,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.results }),
        queryClient.invalidateQueries({ queryKey: queryKeys.ghadis }),
        queryClient.invalidateQueries({ queryKey: queryKeys.counts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.today }),
        queryClient.invalidateQueries({ queryKey: queryKeys.stats }),
        // The agent's ghadis (today's value) and every page of its history.
        queryClient.invalidateQueries({ queryKey: ['agent'] }),
      ]),
  });
}
