import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pagination } from '../../shared/schemas/common.js';
import type { ResultHistoryEntry } from '../../shared/schemas/declarations.js';
import { mismatchAnswer, pendingAnswer } from '../../shared/schemas/pending.js';
import type { PublicResultRecord, ResultRecord, ResultSubmitInput } from '../../shared/schemas/results.js';
import { api, apiFetch, failureOf } from '../lib/api-client.js';
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
 * What became of a submission: published (200), held for a second person's confirmation on a ghadi
 * that needs two (202), or held beside another person's different value (409 with `mismatch`).
 * Another refusal (a 409 of its own, say the published value moved on) is thrown as an ApiError.
 */
export type SubmitOutcome =
  | { kind: 'published'; record: ResultRecord | PublicResultRecord }
  | { kind: 'pending'; message: string }
  | { kind: 'mismatch'; message: string };

async function sendSubmission(values: ResultSubmitInput): Promise<SubmitOutcome> {
  const response = await apiFetch('POST', '/api/agent/my-ghadi/update-result', {
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'idempotency-key': newSubmissionKey(),
    },
    body: JSON.stringify(values),
  });
  const payload: unknown = await response.json().catch(() => undefined);
  if (response.status === 409) {
    const mismatch = mismatchAnswer.safeParse(payload);
    if (mismatch.success) return { kind: 'mismatch', message: mismatch.data.message };
  }
  if (!response.ok) throw failureOf(response, payload);
  const pending = pendingAnswer.safeParse(payload);
  if (pending.success) return { kind: 'pending', message: pending.data.message };
  return { kind: 'published', record: (payload as { data: ResultRecord | PublicResultRecord }).data };
}

/**
 * Declares a result: agents for their assigned ghadis (answered with the public fields), admins for
 * any ghadi. Each call carries a key of its own, so that a paused mutation resumed when the network
 * returns is applied once (agents' submissions go through their own queue instead). A held entry
 * changes nothing public, so only the pending list is refreshed then.
 */
export function useSubmitResult() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendSubmission,
    onSuccess: (outcome) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.pending }),
        ...(outcome.kind === 'published'
          ? [
              queryClient.invalidateQueries({ queryKey: queryKeys.results }),
              queryClient.invalidateQueries({ queryKey: queryKeys.ghadis }),
              queryClient.invalidateQueries({ queryKey: queryKeys.counts }),
              queryClient.invalidateQueries({ queryKey: queryKeys.today }),
              queryClient.invalidateQueries({ queryKey: queryKeys.stats }),
              // The agent's ghadis (today's value) and every page of its history.
              queryClient.invalidateQueries({ queryKey: ['agent'] }),
            ]
          : []),
      ]),
  });
}
