import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  TWO_FACTOR_INVALID_CODE_MESSAGE,
  TWO_FACTOR_REQUIRED_MESSAGE,
} from '../../../shared/schemas/two-factor.js';
import { endSession, getSession } from '../../lib/session.js';
import { AGENT_RAVI } from '../../test/records.js';
import { renderRoutes } from '../../test/render.js';
import { AdminLoginPage, AgentLoginPage } from './login-page.js';

const USER = AGENT_RAVI;

const GOOD_CODE = '123456';
const BACKUP_CODE = 'abcd-efgh-ijkl-mnop';
let logins: unknown[] = [];
let logouts: Array<string | null> = [];

beforeEach(() => {
  logins = [];
  logouts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (url === '/api/users/logout') {
        logouts.push(new Headers(init.headers).get('authorization'));
        return json({ success: true });
      }
      if (url !== '/api/users/login') return json({ success: false, message: 'Not found' }, 404);
      const body = JSON.parse(String(init.body)) as { UserName: string; Password: string; Code?: string };
      logins.push(body);
      if (body.Password !== 'right-password')
        return json({ success: false, message: 'Invalid credentials' }, 401);
      if (body.Code === undefined) {
        return json({ success: false, twoFactorRequired: true, message: TWO_FACTOR_REQUIRED_MESSAGE }, 401);
      }
      if (body.Code !== GOOD_CODE && body.Code !== BACKUP_CODE.replaceAll('-', '')) {
        return json(
          { success: false, twoFactorRequired: true, message: TWO_FACTOR_INVALID_CODE_MESSAGE },
          401,
        );
      }
      return json({ success: true, token: 'signed-token', user: USER });
    }),
  );
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

function renderLogin(path = '/agent/login') {
  return renderRoutes(
    [
      { path: '/agent/login', element: <AgentLoginPage /> },
      { path: '/admin/login', element: <AdminLoginPage /> },
      { path: '/agent/dashboard', element: <p>agent home</p> },
    ],
    path,
  );
}

async function typePassword(user: ReturnType<typeof userEvent.setup>, password = 'right-password') {
  await user.type(screen.getByLabelText('Username'), 'ravi');
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('the login code step', () => {
  it('appears when the server asks for a code, with a numeric keypad and one-time-code autofill', async () => {
    const user = userEvent.setup();
    renderLogin();
    await typePassword(user);
    const code = await screen.findByLabelText('Authentication code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveFocus();
    expect(screen.getByRole('heading', { name: 'Agent Login' })).toBeVisible();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(getSession()).toBeNull();
  });

  it("sends the user name, password and code again; a wrong code shows the server's message", async () => {
    const user = userEvent.setup();
    const { router } = renderLogin();
    await typePassword(user);
    await user.type(await screen.findByLabelText('Authentication code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(TWO_FACTOR_INVALID_CODE_MESSAGE);
    expect(screen.getByLabelText('Authentication code')).toHaveValue('');

    await user.type(screen.getByLabelText('Authentication code'), GOOD_CODE);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('agent home')).toBeVisible();
    expect(router.state.location.pathname).toBe('/agent/dashboard');
    expect(getSession()?.token).toBe('signed-token');
    expect(logins).toEqual([
      { UserName: 'ravi', Password: 'right-password' },
      { UserName: 'ravi', Password: 'right-password', Code: '654321' },
      { UserName: 'ravi', Password: 'right-password', Code: GOOD_CODE },
    ]);
  });

  it('takes a backup code in a text field instead, and refuses a malformed code before sending', async () => {
    const user = userEvent.setup();
    renderLogin();
    await typePassword(user);
    await user.type(await screen.findByLabelText('Authentication code'), '12ab');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Must be the 6-digit code from your authenticator app')).toBeVisible();
    expect(logins).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Use a backup code' }));
    const backup = await screen.findByLabelText('Backup code');
    expect(backup).not.toHaveAttribute('inputmode');
    await user.type(backup, BACKUP_CODE.toUpperCase());
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('agent home')).toBeVisible();
    // Sent as the schema normalises it: without dashes, in lower case.
    expect(logins.at(-1)).toEqual({ UserName: 'ravi', Password: 'right-password', Code: 'abcdefghijklmnop' });
  });

  it("keeps the spec's message for a wrong password, with no code step", async () => {
    const user = userEvent.setup();
    renderLogin();
    await typePassword(user, 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid credentials');
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
  });

  it("refuses the other role's account after its code, and ends the session it was given", async () => {
    const user = userEvent.setup();
    renderLogin('/admin/login');
    await typePassword(user);
    await user.type(await screen.findByLabelText('Authentication code'), GOOD_CODE);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not authorized or not an admin');
    expect(screen.getByLabelText('Password')).toBeVisible();
    expect(getSession()).toBeNull();
    await vi.waitFor(() => expect(logouts).toEqual(['Bearer signed-token']));
  });
});
