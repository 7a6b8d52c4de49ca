import { screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { startSession } from '../lib/session.js';
import { renderRoutes } from '../test/render.js';
import { RequireRole } from './require-role.js';

function ShowLocation({ label }: { label: string }) {
  const location = useLocation();
  const from = (location.state as { from?: { pathname: string } } | null)?.from?.pathname ?? '';
  return (
    <p>
      {label} {from}
    </p>
  );
}

const routes = [
  { path: '/', element: <ShowLocation label="home" /> },
  { path: '/admin/login', element: <ShowLocation label="admin login" /> },
  { path: '/agent/login', element: <ShowLocation label="agent login" /> },
  {
    path: '/admin/results',
    element: (
      <RequireRole userType="admin">
        <p>admin area</p>
      </RequireRole>
    ),
  },
  {
    path: '/agent/dashboard',
    element: (
      <RequireRole userType="agent">
        <p>agent area</p>
      </RequireRole>
    ),
  },
  {
    path: '/anyone',
    element: (
      <RequireRole>
        <p>any signed-in user</p>
      </RequireRole>
    ),
  },
];

const session = (userType: 'admin' | 'agent') => ({
  _id: '1',
  id: '1',
  User_Id: 1,
  UserName: 'someone',
  DisplayName: 'Someone',
  Email: 'someone@example.com',
  UserType: userType,
  userType,
  isActive: true,
  token: 'token',
});

describe('RequireRole', () => {
  it('sends a logged-out visitor of an admin area to /admin/login, remembering the place', async () => {
    renderRoutes(routes, '/admin/results');
    expect(await screen.findByText('admin login /admin/results')).toBeInTheDocument();
  });

  it('sends a logged-out visitor of any other area to /agent/login', async () => {
    renderRoutes(routes, '/agent/dashboard');
    expect(await screen.findByText('agent login /agent/dashboard')).toBeInTheDocument();
    renderRoutes(routes, '/anyone');
    expect(await screen.findByText('agent login /anyone')).toBeInTheDocument();
  });

  it('sends a user of the other role to /', async () => {
    startSession(session('agent'));
    renderRoutes(routes, '/admin/results');
    expect(await screen.findByText(/^home/)).toBeInTheDocument();
  });

  it('lets the right role in, and any signed-in user where no role is required', async () => {
    startSession(session('admin'));
    renderRoutes(routes, '/admin/results');
    expect(await screen.findByText('admin area')).toBeInTheDocument();
    renderRoutes(routes, '/anyone');
    expect(await screen.findByText('any signed-in user')).toBeInTheDocument();
  });
});
