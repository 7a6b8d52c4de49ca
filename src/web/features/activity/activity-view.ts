import { isCalendarDate } from '../../../shared/dates.js';
import { ACTIVITY_ACTIONS, type ActivityAction } from '../../../shared/schemas/activity.js';
import { MAX_PAGE } from '../../../shared/schemas/results.js';
import type { ActivityView } from '../../api/activity-api.js';

/** Rows a page of the trail holds. */
export const ACTIVITY_ROWS = 25;

const isAction = (value: string | null): value is ActivityAction =>
  (ACTIVITY_ACTIONS as readonly string[]).includes(value ?? '');

/**
 * The filters and page the address asks for (the names GET /api/activity takes), so that a filtered
 * view can be shared and the back button returns to it. What is missing or malformed is no filter.
 */
export function readView(params: URLSearchParams): ActivityView {
  const userId = Number(params.get('userId'));
  const page = Number(params.get('page'));
  const action = params.get('action');
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return isCalendarDate(value) ? value : undefined;
  };
  return {
    userId: Number.isSafeInteger(userId) && userId >= 1 ? userId : undefined,
    action: isAction(action) ? action : undefined,
    from: date('from'),
    to: date('to'),
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
    limit: ACTIVITY_ROWS,
  };
}

/** The address's query for a view: only the filters set, and the page when it is not the first. */
export function viewParams(view: ActivityView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.userId !== undefined) params.set('userId', String(view.userId));
  if (view.action) params.set('action', view.action);
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  if (view.page !== 1) params.set('page', String(view.page));
  return params;
}

export const hasFilters = (view: ActivityView) =>
  view.userId !== undefined || view.action !== undefined || view.from !== undefined || view.to !== undefined;

/** The server refuses a range that ends before it starts: the page says so without asking. */
export const rangeIsBackwards = (view: ActivityView) =>
  view.from !== undefined && view.to !== undefined && view.from > view.to;
