import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { getSession, useSession } from '../../lib/session.js';
import { browserWakeUps, type Clock, postSubmission } from './submission-network.js';
import { type QueueSnapshot, SubmissionQueue } from './submission-queue.js';

const EMPTY: QueueSnapshot = { submissions: [], signInNeeded: false, nextAttemptAt: null };

/**
 * The signed-in agent's submission queue, running while the dashboard is open: it reads what an
 * earlier visit left, and each answered entry refreshes the agent's ghadis, history and held entries.
 * Null without an agent's session (the route guard lets none in). `clock`: tests give their own.
 */
export function useSubmissionQueue(clock?: Clock): SubmissionQueue | null {
  const session = useSession();
  const userId = session?.userType === 'agent' ? session.User_Id : null;
  const queryClient = useQueryClient();
  const queue = useMemo(
    () =>
      userId === null
        ? null
        : new SubmissionQueue({
            userId,
            post: postSubmission,
            currentUserId: () => getSession()?.User_Id ?? null,
            wakeUps: browserWakeUps,
            onAnswered: () => void queryClient.invalidateQueries({ queryKey: ['agent'] }),
            ...(clock ? { clock } : {}),
          }),
    [userId, queryClient, clock],
  );

  useEffect(() => {
    if (!queue) return;
    void queue.start();
    return () => queue.stop();
  }, [queue]);

  // A new token (the agent signed in again after a 401) sends what waited for it.
  const token = session?.token;
  useEffect(() => {
    if (queue && token) void queue.flush();
  }, [queue, token]);

  return queue;
}

const noSubscription = () => () => {};

export function useQueueSnapshot(queue: SubmissionQueue | null): QueueSnapshot {
  return useSyncExternalStore(
    queue ? (listener) => queue.subscribe(listener) : noSubscription,
    () => queue?.getSnapshot() ?? EMPTY,
    () => EMPTY,
  );
}
