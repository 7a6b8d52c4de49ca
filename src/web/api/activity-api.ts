import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ActivityAction, ActivityAnswer } from '../../shared/schemas/activity.js';
import { api } from '../lib/api-client.js';
import { queryKeys } from './query-keys.js';

/** The filters and page of the activity trail; absent filters are undefined. */
export interface ActivityView {
  userId: number | undefined;
  action: ActivityAction | undefined;
  /** Days of the site's time zone, both included. */
  from: string | undefined;
  to: string | undefined;
  page: number;
  limit: number;
}

/** The query GET /api/activity takes for a view: only the filters set. */
export function activityQuery(view: ActivityView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.userId !== undefined) params.set('userId', String(view.userId));
  if (view.action) params.set('action', view.action);
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  params.set('page', String(view.page));
  params.set('limit', String(view.limit));
  return params;
}

/**
 * One page of the activity trail, newest first, filtered on the server. `enabled` false holds the
 * request (a range the server would refuse). While another page loads, the one shown stays.
 */
export function useActivityPage(view: ActivityView, enabled = true) {
  return useQuery({
    queryKey: queryKeys.activityPage(view),
    queryFn: ({ signal }) => api.get<ActivityAnswer>(`/api/activity?${activityQuery(view)}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
