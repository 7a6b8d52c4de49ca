import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { PendingDeclaration } from '../../../shared/schemas/pending.js';
import { queryKeys } from '../../api/query-keys.js';
import { api } from '../../lib/api-client.js';

/** How often the agent's held entries are asked for while any wait: a second person may confirm. */
export const MY_PENDING_POLL_MS = 30_000;

/** The agent's held entries as last read (undefined until read), and when (the query's own clock). */
export interface MyPending {
  data: readonly PendingDeclaration[] | undefined;
  updatedAt: number;
}

const sameDay = (declaration: PendingDeclaration) => `${declaration.GID} ${declaration.Date}`;

/**
 * The signed-in agent's own entries held for a second confirmation (GET /api/pending answers an
 * agent only theirs: never another person's value). Asked for on opening, after each answer the queue
 * gets (everything under ['agent'] is refreshed), when the page comes back to the front, and every
 * MY_PENDING_POLL_MS while any wait. One that leaves the list was published or discarded: the
 * agent's ghadis and history are read again, so the form's saved value follows.
 */
export function useMyPending(): MyPending {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.myPending,
    queryFn: async ({ signal }) =>
      (await api.get<{ data: PendingDeclaration[] }>('/api/pending', { signal })).data,
    refetchInterval: (current) => ((current.state.data?.length ?? 0) > 0 ? MY_PENDING_POLL_MS : false),
    refetchOnWindowFocus: true,
    // A server without two-person confirmation has no such list: nothing is held there.
    retry: false,
  });

  const seen = useRef<ReadonlySet<string> | null>(null);
  useEffect(() => {
    if (!query.data) return;
    const now = new Set(query.data.map(sameDay));
    const left = seen.current !== null && [...seen.current].some((day) => !now.has(day));
    seen.current = now;
    if (left) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.myGhadis });
      void queryClient.invalidateQueries({ queryKey: ['agent', 'my-results'] });
    }
  }, [query.data, queryClient]);

  return { data: query.data, updatedAt: query.dataUpdatedAt };
}
