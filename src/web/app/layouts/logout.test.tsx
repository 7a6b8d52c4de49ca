import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession, SESSION_STORAGE_KEY, startSession } from '../../lib/session.js';
import { renderRoutes } from '../../test/render.js';
import { AdminLayout } from './admin-layout.js';
import { AgentLayout } from './agent-layout.js';

function Where() {
  return <p>at {useLocation().pathname}</p>;
}

const session = (userType: 'admin' | 'agent') => ({
  _id: '7',
  id: '7',
  User_Id: 7,
  UserName: 'someone',
  DisplayName: 'Someone',
  Email: 'someone@example.com',
  UserType: userType,
  userType,
  isActive: true,
  token: `${userType}-token`,
});

const SHELLS = [
  { role: 'admin' as const, Layout: AdminLayout, home: '/admin/dashboard', loginPath: '/admin/login' },
  { role: 'agent' as const, Layout: AgentLayout, home: '/agent/dashboard', loginPath: '/login' },
];

type FetchAnswer = () => Promise<Response>;

/** Stubs fetch with the given answer and returns the calls made. */
function stubFetch(answer: FetchAnswer) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit = {}) => {
      // The admin console's poll of pending results is not what these tests count.
      if (url === '/api/pending') {
        return Promise.resolve(new Response(JSON.stringify({ success: true, data: [] }), { status: 200 }));
      }
      calls.push({ url, init });
      return answer();
    }),
  );
  return calls;
}

const answered = (status: number, body: unknown) => () =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe.each(SHELLS)('Logout in the $role layout', ({ role, Layout, home, loginPath }) => {
  function renderShell() {
    startSession(session(role));
    return renderRoutes(
      [
        { element: <Layout />, children: [{ path: home, element: <p>{role} home</p> }] },
        { path: loginPath, element: <Where /> },
      ],
      home,
    );
  }

  it(`asks the server to end the token, forgets the session and goes to ${loginPath}`, async () => {
    const calls = stubFetch(answered(200, { success: true, message: 'Logged out' }));
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText(`at ${loginPath}`)).toBeInTheDocument();
    expect(getSession()).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/users/logout');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.keepalive).toBe(true);
    expect(calls[0]?.init.headers).toMatchObject({ authorization: `Bearer ${role}-token` });
  });

  it('logs out all the same when the network is down', async () => {
    const calls = stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText(`at ${loginPath}`)).toBeInTheDocument();
    expect(getSession()).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('does not wait for a slow answer', async () => {
    stubFetch(() => new Promise<Response>(() => {}));
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText(`at ${loginPath}`)).toBeInTheDocument();
    expect(getSession()).toBeNull();
  });

  it('a late 401 for the ended token does not end a session started since', async () => {
    let answer: (response: Response) => void = () => {};
    stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText(`at ${loginPath}`)).toBeInTheDocument();
    const next = { ...session(role), token: 'next-token' };
    startSession(next);
    const late = new Response(JSON.stringify({ success: false, message: 'Session expired' }), {
      status: 401,
    });
    const bodyRead = vi.spyOn(late, 'json');
    answer(late);
    // The client reads an answer's body only after it has dealt with its status (a 401 ends a
    // session there): once the body is read, whatever the 401 did is done.
    await waitFor(() => expect(bodyRead).toHaveBeenCalled());
    expect(getSession()).toEqual(next);
  });
});
