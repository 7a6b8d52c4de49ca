import { act, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../lib/api-client.js';
import { endSession, getSession, markSession, startSession } from '../lib/session.js';
import { ADMIN_ONE } from '../test/records.js';
import { renderRoutes } from '../test/render.js';
import { RequireRole } from './require-role.js';

/** A screen that loads its data as the admin's screens do; the answer is the test's. */
function Loads() {
  useEffect(() => {
    api.get('/api/results').catch(() => {
      // The refusal is the test's subject; the screen would show it.
    });
  }, []);
  return <p>results screen</p>;
}

const guarded = (path: string, element: React.ReactNode) => ({
  path,
  element: <RequireRole userType="admin">{element}</RequireRole>,
});

const routes = [
  // Where the session's end at each test's close leads.
  { path: '/admin/login', element: <p>login screen</p> },
  guarded('/admin/results', <Loads />),
  guarded('/admin/account', <p>account screen</p>),
  guarded('/admin/dashboard', <p>dashboard screen</p>),
];

const admin = { ...ADMIN_ONE, token: 'token' } as const;

let refusal: unknown = null;

beforeEach(() => {
  refusal = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      refusal
        ? new Response(JSON.stringify(refusal), { status: 403 })
        : new Response(JSON.stringify({ success: true, data: [] }), { status: 200 }),
    ),
  );
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

describe("the server's demands on a session", () => {
  it('keep a first admin signed in with the generated password on the Account page until it changes', async () => {
    startSession({ ...admin, passwordChangeRequired: true });
    const { router } = renderRoutes(routes, '/admin/dashboard');
    expect(await screen.findByText('account screen')).toBeVisible();
    expect(router.state.location.pathname).toBe('/admin/account');

    await act(() => router.navigate('/admin/results'));
    expect(router.state.location.pathname).toBe('/admin/account');

    act(() => markSession({ passwordChangeRequired: undefined }));
    await act(() => router.navigate('/admin/dashboard'));
    expect(await screen.findByText('dashboard screen')).toBeVisible();
  });

  it('follow a 403 saying passwordChangeRequired from any call to the Account page, and persist', async () => {
    startSession(admin);
    refusal = { success: false, passwordChangeRequired: true, message: 'Change the password first' };
    const { router } = renderRoutes(routes, '/admin/results');
    expect(await screen.findByText('account screen')).toBeVisible();
    expect(router.state.location.pathname).toBe('/admin/account');
    expect(getSession()?.passwordChangeRequired).toBe(true);
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ passwordChangeRequired: true });
    expect(getSession()?.token).toBe('token');
  });

  it('lead an admin whose session lacks two-factor to the Account page on a 403 saying so', async () => {
    startSession(admin);
    refusal = { success: false, twoFactorSetupRequired: true, message: 'Set up two-factor sign-in' };
    const { router } = renderRoutes(routes, '/admin/results');
    expect(await screen.findByText('account screen')).toBeVisible();
    expect(router.state.location.pathname).toBe('/admin/account');
    expect(getSession()?.twoFactorSetupRequired).toBe(true);
  });

  it('leave the session alone on an ordinary 403', async () => {
    startSession(admin);
    refusal = { success: false, message: 'Forbidden' };
    const { router } = renderRoutes(routes, '/admin/results');
    expect(await screen.findByText('results screen')).toBeVisible();
    await vi.waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(router.state.location.pathname).toBe('/admin/results');
    expect(getSession()).toEqual(admin);
  });
});
