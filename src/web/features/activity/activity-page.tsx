import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { ACTIVITY_ACTIONS, type ActivityAction } from '../../../shared/schemas/activity.js';
import { type ActivityView, useActivityPage } from '../../api/activity-api.js';
import { useSiteInfo } from '../../api/site-api.js';
import { useUsers } from '../../api/users-api.js';
import { Button } from '../../components/ui/button.js';
import { Card, PageTitle } from '../../components/ui/card.js';
import { SelectField, TextField } from '../../components/ui/field.js';
import { PageSummary, Pagination } from '../../components/ui/pagination.js';
import { EmptyState, ErrorState, Spinner } from '../../components/ui/states.js';
import { ACTION_LABELS } from './activity-labels.js';
import { ActivityTable } from './activity-table.js';
import { hasFilters, rangeIsBackwards, readView, viewParams } from './activity-view.js';

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The user filter's choices: every user the users API lists, and the one the address names if it lists it not. */
function UserFilter({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (id: number | undefined) => void;
}) {
  const users = useUsers();
  const listed = [...(users.data ?? [])].sort((a, b) => a.UserName.localeCompare(b.UserName));
  const unlisted = value !== undefined && !listed.some((user) => user.User_Id === value);
  return (
    <SelectField
      label="User"
      value={value === undefined ? '' : String(value)}
      onChange={(event) => onChange(event.target.value ? Number(event.target.value) : undefined)}
      hint={users.isError ? 'The list of users could not be loaded.' : undefined}
    >
      <option value="">All users</option>
      {unlisted && <option value={value}>User #{value}</option>}
      {listed.map((user) => (
        <option key={user.User_Id} value={user.User_Id}>
          {user.UserName}
          {user.DisplayName && user.DisplayName !== user.UserName ? ` (${user.DisplayName})` : ''} ·{' '}
          {user.UserType === 'admin' ? 'admin' : 'agent'}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * The activity trail: every change and sign-in, newest first, a page at a time from the server.
 * Filters and page live in the address, so a filtered view can be shared. Entries are read-only.
 */
export function ActivityPage() {
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const backwards = rangeIsBackwards(view);
  const activity = useActivityPage(view, !backwards);
  const timeZone = useSiteInfo().data?.timeZone ?? BROWSER_ZONE;
  const show = (next: ActivityView, options: { replace?: boolean } = {}) =>
    setParams(viewParams(next), options);
  /** A new filter starts again at the newest entries. */
  const filter = (change: Partial<ActivityView>) => show({ ...view, ...change, page: 1 });

  const pagination = activity.data?.pagination;
  const lastPage = pagination ? Math.max(1, pagination.totalPages) : undefined;
  // A page past the end (an old address, or a filter that matches less) shows the last page instead.
  useEffect(() => {
    if (lastPage !== undefined && !activity.isPlaceholderData && view.page > lastPage) {
      setParams(viewParams({ ...view, page: lastPage }), { replace: true });
    }
  });

  const body = () => {
    if (backwards) return null;
    if (activity.isPending || (activity.isError && activity.isFetching)) {
      return <Spinner label="Loading activity…" />;
    }
    if (activity.isError) {
      return <ErrorState message="Failed to load activity" onRetry={() => activity.refetch()} />;
    }
    const { data, pagination } = activity.data;
    if (pagination.total === 0) {
      return hasFilters(view) ? (
        <EmptyState>No activity matches these filters.</EmptyState>
      ) : (
        <EmptyState>No activity yet.</EmptyState>
      );
    }
    return (
      <>
        <PageSummary pagination={pagination} rows={data.length} noun={['entry', 'entries']} />
        <ActivityTable entries={data} timeZone={timeZone} busy={activity.isPlaceholderData} />
        <Pagination
          page={view.page}
          pageCount={pagination.totalPages}
          onPage={(page) => show({ ...view, page })}
          label="Activity pages"
        />
      </>
    );
  };

  return (
    <div className="space-y-6">
      <PageTitle>Activity</PageTitle>
      <Card>
        <div className="space-y-4">
          <search>
            <form
              aria-label="Filter activity"
              className="grid grid-cols-2 gap-3 lg:grid-cols-4"
              onSubmit={(event) => event.preventDefault()}
            >
              <div className="col-span-2 sm:col-span-1">
                <UserFilter value={view.userId} onChange={(userId) => filter({ userId })} />
              </div>
              <div className="col-span-2 sm:col-span-1">
                <SelectField
                  label="Action"
                  value={view.action ?? ''}
                  onChange={(event) =>
                    filter({ action: (event.target.value || undefined) as ActivityAction | undefined })
                  }
                >
                  <option value="">All actions</option>
                  {ACTIVITY_ACTIONS.map((action) => (
                    <option key={action} value={action}>
                      {ACTION_LABELS[action]}
                    </option>
                  ))}
                </SelectField>
              </div>
              <TextField
                label="From"
                type="date"
                value={view.from ?? ''}
                max={view.to}
                onChange={(event) => filter({ from: event.target.value || undefined })}
              />
              <TextField
                label="To"
                type="date"
                value={view.to ?? ''}
                min={view.from}
                error={backwards ? 'Must be on or after From' : undefined}
                onChange={(event) => filter({ to: event.target.value || undefined })}
              />
            </form>
          </search>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-slate-500">Times are in the site's time zone ({timeZone}).</p>
            {hasFilters(view) && (
              <Button
                size="sm"
                variant="secondary"
                onClick={() =>
                  show({
                    ...view,
                    userId: undefined,
                    action: undefined,
                    from: undefined,
                    to: undefined,
                    page: 1,
                  })
                }
              >
                Clear filters
              </Button>
            )}
          </div>
          {body()}
        </div>
      </Card>
    </div>
  );
}
