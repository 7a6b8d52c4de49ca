import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVITY_ACTIONS, type ActivityEntry } from '../../../shared/schemas/activity.js';
import type { UserRecord } from '../../../shared/schemas/users.js';
import { shortUserAgent } from '../../lib/user-agent-text.js';
import { pagedAnswer } from '../../test/records.js';
import { renderRoutes } from '../../test/render.js';
import { ACTION_LABELS } from './activity-labels.js';
import { ActivityPage } from './activity-page.js';

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const entry = (id: number, overrides: Partial<ActivityEntry> = {}): ActivityEntry => ({
  _id: String(id),
  // 14:05:09 in Kolkata, one minute apart, newest first.
  At: new Date(Date.parse('2026-11-28T08:35:09.000Z') - id * 60_000).toISOString(),
  UserId: 2,
  UserName: 'ravi',
  Role: 'agent',
  Action: 'result_declare',
  Target: { Id: '5', Name: 'Gali 2026-11-28' },
  Summary: 'Result: "45"',
  Ip: '203.0.113.9',
  UserAgent: CHROME_ANDROID,
  ...overrides,
});

/** 60 entries: the newest a correction by the admin, then agents' declarations. */
const ENTRIES = [
  entry(0, {
    UserId: 1,
    UserName: 'admin',
    Role: 'admin',
    Action: 'result_correct',
    Summary: 'Result: "45" → "54"',
    UserAgent: 'curl/8.5.0',
  }),
  entry(1, {
    UserId: null,
    UserName: null,
    Role: null,
    Action: 'login_failed',
    Target: { Id: null, Name: 'nobody' },
    Summary: '',
  }),
  ...Array.from({ length: 58 }, (_, index) => entry(index + 2)),
];

const user = (
  User_Id: number,
  UserName: string,
  UserType: 'admin' | 'agent',
  DisplayName = '',
): UserRecord => ({
  _id: String(User_Id),
  id: String(User_Id),
  User_Id,
  UserName,
  DisplayName,
  Email: `${UserName}@example.com`,
  UserType,
  userType: UserType,
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const USERS = [user(2, 'ravi', 'agent', 'Ravi Kumar'), user(1, 'admin', 'admin', 'Administrator')];

let activityAnswer: (url: URL) => Response = (url) => {
  const matching = ENTRIES.filter(
    (one) =>
      (!url.searchParams.get('action') || one.Action === url.searchParams.get('action')) &&
      (!url.searchParams.get('userId') || String(one.UserId) === url.searchParams.get('userId')),
  );
  const page = Number(url.searchParams.get('page'));
  const limit = Number(url.searchParams.get('limit'));
  return Response.json(pagedAnswer(matching, page, limit));
};

const defaultAnswer = activityAnswer;
const requests: string[] = [];

beforeEach(() => {
  activityAnswer = defaultAnswer;
  requests.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/activity') {
        requests.push(url.search);
        return activityAnswer(url);
      }
      if (url.pathname === '/api/users') return Response.json({ success: true, data: USERS });
      if (url.pathname === '/api/site')
        return Response.json({
          success: true,
          siteName: 'Ghadi Results',
          timeZone: 'Asia/Kolkata',
          today: '2026-11-28',
        });
      return Response.json({ success: false, message: 'unknown' }, { status: 404 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const renderPage = (path = '/admin/activity') =>
  renderRoutes([{ path: '/admin/activity', element: <ActivityPage /> }], path);
const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Activity, newest first' }))
    .getAllByRole('row')
    .slice(1);

describe('ActivityPage', () => {
  it('lists a page of entries newest first, with when in the site’s zone, who, what, on what, from where', async () => {
    renderPage();
    await screen.findByRole('table', { name: 'Activity, newest first' });
    await waitFor(() => expect(screen.getByText(/Asia\/Kolkata/)).toBeInTheDocument());
    for (const header of ['When', 'Who', 'Action', 'Target', 'Summary', 'Address', 'Device']) {
      expect(screen.getByRole('columnheader', { name: header })).toHaveAttribute('scope', 'col');
    }
    expect(bodyRows()).toHaveLength(25);
    expect(requests).toEqual(['?page=1&limit=25']);
    expect(screen.getByText(/Showing 1–25 of 60/)).toBeInTheDocument();

    const [first, second] = bodyRows();
    const cells = within(first as HTMLElement).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('28 Nov 2026, 14:05:09');
    expect(cells[0]?.querySelector('time')).toHaveAttribute('dateTime', ENTRIES[0]?.At);
    expect(cells[1]).toHaveTextContent('adminAdmin');
    expect(cells[2]).toHaveTextContent(/^Result corrected/);
    expect(cells[3]).toHaveTextContent('Gali 2026-11-28#5');
    expect(cells[4]).toHaveTextContent('Result: "45" → "54"');
    expect(cells[5]).toHaveTextContent('203.0.113.9');
    expect(cells[6]).toHaveTextContent('curl 8.5.0');
    expect(within(cells[6] as HTMLElement).getByText('curl 8.5.0')).toHaveAttribute('title', 'curl/8.5.0');
    // A failed sign-in by a name no account has.
    const failed = within(second as HTMLElement).getAllByRole('cell');
    expect(failed[1]).toHaveTextContent('No such user');
    expect(failed[2]).toHaveTextContent(/^Sign-in failed/);
    expect(failed[3]).toHaveTextContent('nobody');
    expect(within(bodyRows()[2] as HTMLElement).getAllByRole('cell')[6]).toHaveTextContent(
      'Chrome 131 on Android',
    );
    // Read-only: nothing to edit or delete.
    expect(within(screen.getByRole('table')).queryByRole('button')).toBeNull();
  });

  it('applies the filters to the address and the request, starting again at page 1', async () => {
    const { router } = renderPage();
    await screen.findByRole('table', { name: 'Activity, newest first' });
    const u = userEvent.setup();

    await u.click(
      within(screen.getByRole('navigation', { name: 'Activity pages' })).getByRole('button', {
        name: 'Page 2',
      }),
    );
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));

    const action = screen.getByLabelText<HTMLSelectElement>('Action');
    expect(
      within(action)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All actions', ...ACTIVITY_ACTIONS.map((one) => ACTION_LABELS[one])]);
    await u.selectOptions(action, 'result_correct');
    await waitFor(() => expect(router.state.location.search).toBe('?action=result_correct'));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(screen.getByText('1 entry')).toBeInTheDocument();

    const userFilter = await screen.findByLabelText<HTMLSelectElement>('User');
    await waitFor(() =>
      expect(
        within(userFilter)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['All users', 'admin (Administrator) · admin', 'ravi (Ravi Kumar) · agent']),
    );
    await u.selectOptions(userFilter, '1');
    await waitFor(() => expect(router.state.location.search).toBe('?userId=1&action=result_correct'));

    const from = screen.getByLabelText('From');
    await u.type(from, '2026-11-01');
    await waitFor(() =>
      expect(router.state.location.search).toBe('?userId=1&action=result_correct&from=2026-11-01'),
    );
    await u.type(screen.getByLabelText('To'), '2026-11-28');
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?userId=1&action=result_correct&from=2026-11-01&to=2026-11-28',
      ),
    );
    await waitFor(() =>
      expect(requests.at(-1)).toBe(
        '?userId=1&action=result_correct&from=2026-11-01&to=2026-11-28&page=1&limit=25',
      ),
    );
    expect(requests).toContain('?page=2&limit=25');
    expect(requests).toContain('?action=result_correct&page=1&limit=25');

    await u.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });

  it('opens a shared address with its filters, and names a user the list lacks', async () => {
    renderPage('/admin/activity?userId=99&action=login&from=2026-11-01&page=3&junk=1');
    await waitFor(() =>
      expect(requests).toEqual(['?userId=99&action=login&from=2026-11-01&page=3&limit=25']),
    );
    expect(screen.getByLabelText<HTMLSelectElement>('Action').value).toBe('login');
    expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe('2026-11-01');
    const userFilter = screen.getByLabelText<HTMLSelectElement>('User');
    expect(userFilter.value).toBe('99');
    expect(within(userFilter).getByRole('option', { name: 'User #99' })).toBeInTheDocument();
    expect(await screen.findByText('No activity matches these filters.')).toBeInTheDocument();
  });

  it('does not ask for a range that ends before it starts, and says why', async () => {
    renderPage('/admin/activity?from=2026-11-20&to=2026-11-10');
    expect(await screen.findByText('Must be on or after From')).toBeInTheDocument();
    expect(screen.getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toEqual([]);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the empty state, and an error with a working Retry', async () => {
    activityAnswer = () => Response.json({ success: false, message: 'down' }, { status: 500 });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load activity');
    activityAnswer = () => Response.json(pagedAnswer([], 1, 25));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No activity yet.')).toBeInTheDocument();
  });
});

describe('shortUserAgent', () => {
  it('names the browser, its version and the system, or a tool by its first product', () => {
    expect(shortUserAgent(CHROME_ANDROID)).toBe('Chrome 131 on Android');
    expect(
      shortUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari 18 on iPhone');
    expect(
      shortUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'),
    ).toBe('Firefox 133 on Windows');
    expect(
      shortUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge 131 on Windows');
    expect(shortUserAgent('node')).toBe('node');
    expect(shortUserAgent('curl/8.5.0')).toBe('curl 8.5.0');
    expect(shortUserAgent('')).toBe('Unknown');
  });
});
