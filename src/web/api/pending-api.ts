import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pendingListAnswer } from '../../shared/schemas/pending.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

/**
 * How often the admin's console asks for pending results. Nothing public changes while entries wait,
 * so the event stream says nothing of them: a mismatch reaches the admin by this poll (and when the
 * admin comes back to the window).
 */
export const PENDING_POLL_MS = 20_000;

/**
 * Every ghadi and date whose result waits for a second confirmation, with each person's entry
 * (GET /api/pending, admins only). One query for the whole console: the menu's badge, the
 * dashboard's banner, today's board and the Pending results screen read the same answer. The answer
 * is checked against the contract: the menu is on every screen, and an odd answer must fail this
 * query, not the console.
 */
export function usePendingDeclarations() {
  return useQuery({
    queryKey: queryKeys.pending,
    queryFn: async ({ signal }) => pendingListAnswer.parse(await api.get('/api/pending', { signal })).data,
    refetchInterval: PENDING_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/** How many pending results wait for the admin's decision (a mismatch) and how many for a second person. */
export function usePendingCounts(): { mismatches: number; waiting: number } {
  const pending = usePendingDeclarations();
  const mismatches = pending.data?.filter((declaration) => declaration.Mismatch).length ?? 0;
  return { mismatches, waiting: (pending.data?.length ?? 0) - mismatches };
}

/** Discards a ghadi's pending entries of a date (DELETE /api/pending/{gid}/{date}): nothing is published. */
export function useDiscardPending() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ gid, date }: { gid: number; date: string }) =>
      api.delete<{ message: string }>(`/api/pending/${gid}/${date}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.pending }),
  });
}
