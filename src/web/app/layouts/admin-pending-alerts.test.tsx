import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PendingDeclaration } from '../../../shared/schemas/pending.js';
import { PENDING_POLL_MS } from '../../api/pending-api.js';
import { PendingBanner } from '../../components/admin/pending-alerts.js';
import { queryClient } from '../../lib/query-client.js';
import { renderRoutes } from '../../test/render.js';
import { AdminLayout } from './admin-layout.js';

const declaration = (GID: number, Mismatch: boolean): PendingDeclaration => ({
  GID,
  Name: `Ghadi ${GID}`,
  Date: '2026-12-10',
  Current: null,
  Mismatch,
  Entries: [{ UserId: 2, UserName: 'Ravi', Result: '45', SubmittedAt: '2026-12-10T08:35:00.000Z' }],
});

let pending: PendingDeclaration[] = [];
let asked = 0;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  asked = 0;
  // The menu sits beside the page.
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: true,
      media: query,
      addEventListener() {},
      removeEventListener() {},
    })),
  );
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url !== '/api/pending') return new Response('{}', { status: 200 });
      asked += 1;
      return new Response(JSON.stringify({ success: true, data: pending }), { status: 200 });
    }),
  );
});

afterEach(() => {
  // The console's one cache outlives a test: each starts with nothing known.
  queryClient.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The console on its dashboard, which shows the banner. */
function renderConsole() {
  return renderRoutes(
    [{ element: <AdminLayout />, children: [{ path: '/admin/dashboard', element: <PendingBanner /> }] }],
    '/admin/dashboard',
  );
}

const pendingLink = () =>
  within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: /^Pending results/ });

describe('the admin’s alerts of pending results', () => {
  it('counts mismatches beside the menu item and on the toggle, and raises the dashboard’s banner', async () => {
    pending = [declaration(1, true), declaration(2, false), declaration(3, true)];
    renderConsole();
    expect(await screen.findByTestId('pending-banner')).toHaveTextContent(
      '2 results wait for a decision: two people entered different values, and nothing is published until you decide.',
    );
    // Announced, politely: a mismatch found by a poll must not cut into what the admin is doing.
    expect(screen.getByTestId('pending-banner')).toHaveAttribute('role', 'status');
    expect(
      within(screen.getByTestId('pending-banner')).getByRole('link', { name: 'Review pending results' }),
    ).toHaveAttribute('href', '/admin/pending');
    expect(pendingLink()).toHaveAccessibleName('Pending results: 2 need a decision');
    expect(within(pendingLink()).getByTestId('pending-count')).toHaveClass('bg-red-600');
    expect(screen.getByRole('button', { name: /menu/ })).toHaveAccessibleName(
      'Close menu, 2 results wait for a decision',
    );
  });

  it('counts entries that only wait for a second person quietly, with no banner', async () => {
    pending = [declaration(2, false)];
    renderConsole();
    await vi.waitFor(() =>
      expect(pendingLink()).toHaveAccessibleName('Pending results: 1 waiting for a second person'),
    );
    expect(within(pendingLink()).getByTestId('pending-count')).not.toHaveClass('bg-red-600');
    expect(screen.queryByTestId('pending-banner')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /menu/ })).toHaveAccessibleName('Close menu');
  });

  it('shows nothing when nothing waits', async () => {
    pending = [];
    renderConsole();
    await vi.waitFor(() => expect(asked).toBe(1));
    expect(pendingLink()).toHaveAccessibleName('Pending results');
    expect(screen.queryByTestId('pending-count')).not.toBeInTheDocument();
    expect(screen.queryByTestId('pending-banner')).not.toBeInTheDocument();
  });

  it('asks again every 20 s while the console is open, so a new mismatch reaches the admin', async () => {
    pending = [declaration(2, false)];
    renderConsole();
    await vi.waitFor(() => expect(asked).toBe(1));
    pending = [declaration(2, true)];
    await act(() => vi.advanceTimersByTimeAsync(PENDING_POLL_MS - 1_000));
    expect(asked).toBe(1);
    expect(screen.queryByTestId('pending-banner')).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(await screen.findByTestId('pending-banner')).toHaveTextContent('1 result waits for a decision');
    expect(asked).toBe(2);
    expect(pendingLink()).toHaveAccessibleName('Pending results: 1 need a decision');
  });

  it('asks again when the admin comes back to the window', async () => {
    pending = [];
    renderConsole();
    await vi.waitFor(() => expect(asked).toBe(1));
    pending = [declaration(4, true)];
    // Past the cache's freshness, short of the next poll.
    await act(() => vi.advanceTimersByTimeAsync(11_000));
    expect(asked).toBe(1);
    act(() => {
      window.dispatchEvent(new Event('visibilitychange'));
    });
    expect(await screen.findByTestId('pending-banner')).toHaveTextContent('1 result waits for a decision');
    expect(asked).toBe(2);
  });
});
