import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { LiveEvent } from '../../shared/live-events.js';
import { subscribeLive } from '../lib/live-updates.js';

/**
 * Events that arrive together (a reconnecting stream replays what it missed) ask for one refetch:
 * the first starts this short wait, the rest join it.
 */
export const LIVE_REFETCH_DELAY_MS = 100;

/**
 * Refetches a query when the public event stream (GET /api/events) reports a change of one of the
 * kinds given: a signed-in screen that shows what the public site shows, kept current without
 * polling. The stream opens from now on (the screen has just loaded its data); a "resync" (the
 * stream missed events, or is down and the stream module stands in for it) refetches too.
 */
export function useLiveRefetch(queryKey: QueryKey, kinds: ReadonlyArray<LiveEvent['kind']>): void {
  const queryClient = useQueryClient();
  const latest = useRef({ queryKey, kinds });
  useEffect(() => {
    latest.current = { queryKey, kinds };
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = subscribeLive(undefined, (_id, event) => {
      if (event.kind !== 'resync' && !latest.current.kinds.includes(event.kind)) return;
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: latest.current.queryKey });
      }, LIVE_REFETCH_DELAY_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [queryClient]);
}
