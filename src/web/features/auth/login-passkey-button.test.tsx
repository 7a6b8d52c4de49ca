import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSKEY_LOGIN_FAILED_MESSAGE } from '../../../shared/schemas/passkeys.js';
import { PASSKEY_CANCELLED_MESSAGE } from '../../lib/passkey-ceremony.js';
import { endSession, getSession } from '../../lib/session.js';
import { AGENT_RAVI } from '../../test/records.js';
import { renderRoutes } from '../../test/render.js';
import { AdminLoginPage, AgentLoginPage } from './login-page.js';

const browser = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browser);

const AGENT = AGENT_RAVI;

const OPTIONS = { challenge: 'Y2hhbGxlbmdl', allowCredentials: [], userVerification: 'required' };
const ASSERTION = {
  id: 'a2V5',
  rawId: 'a2V5',
  type: 'public-key',
  response: { clientDataJSON: 'Y2Q', authenticatorData: 'YWQ', signature: 'c2ln', userHandle: 'dQ' },
  clientExtensionResults: {},
};

let calls: Array<{ url: string; body: unknown; auth: string | null }>;
let verified: boolean;

beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', class PublicKeyCredential {});
  calls = [];
  verified = true;
  browser.startAuthentication.mockReset().mockResolvedValue(ASSERTION);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ url, body, auth: new Headers(init.headers).get('authorization') });
      if (url === '/api/users/login/passkey/options') return json({ success: true, options: OPTIONS });
      if (url === '/api/users/login/passkey') {
        if (!verified) return json({ success: false, message: PASSKEY_LOGIN_FAILED_MESSAGE }, 401);
        return json({ success: true, token: 'passkey-token', user: AGENT });
      }
      if (url === '/api/users/logout') return json({ success: true });
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

function renderLogin(path: string) {
  return renderRoutes(
    [
      { path: '/agent/login', element: <AgentLoginPage /> },
      { path: '/admin/login', element: <AdminLoginPage /> },
      { path: '/agent/dashboard', element: <p>agent home</p> },
    ],
    path,
  );
}

const passkeyButton = () => screen.getByRole('button', { name: 'Sign in with a passkey' });

describe('signing in with a passkey', () => {
  it('signs an agent in on the agent screen, with no user name typed', async () => {
    const user = userEvent.setup();
    renderLogin('/agent/login');
    await user.click(passkeyButton());
    expect(await screen.findByText('agent home')).toBeVisible();
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(calls.map(({ url, body, auth }) => ({ url, body, auth }))).toEqual([
      { url: '/api/users/login/passkey/options', body: undefined, auth: null },
      { url: '/api/users/login/passkey', body: { response: ASSERTION }, auth: null },
    ]);
    expect(getSession()).toMatchObject({ token: 'passkey-token', userType: 'agent', UserName: 'ravi' });
  });

  it("refuses the other role's passkey on the admin screen and ends the session it was given", async () => {
    const user = userEvent.setup();
    renderLogin('/admin/login');
    await user.click(passkeyButton());
    expect(await screen.findByText('Not authorized or not an admin')).toBeVisible();
    expect(getSession()).toBeNull();
    expect(screen.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    await vi.waitFor(() =>
      expect(calls.filter((call) => call.url === '/api/users/logout')).toEqual([
        { url: '/api/users/logout', body: undefined, auth: 'Bearer passkey-token' },
      ]),
    );
  });

  it("shows the server's refusal, and the cancelled prompt, without signing in", async () => {
    const user = userEvent.setup();
    renderLogin('/agent/login');
    verified = false;
    await user.click(passkeyButton());
    expect(await screen.findByText(PASSKEY_LOGIN_FAILED_MESSAGE)).toBeVisible();

    browser.startAuthentication.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    await user.click(passkeyButton());
    expect(await screen.findByText(PASSKEY_CANCELLED_MESSAGE)).toBeVisible();
    expect(screen.queryByText(PASSKEY_LOGIN_FAILED_MESSAGE)).toBeNull();
    expect(calls.filter((call) => call.url === '/api/users/login/passkey')).toHaveLength(1);
    expect(getSession()).toBeNull();
  });

  it('is not offered where the browser has no WebAuthn', () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    renderLogin('/agent/login');
    expect(screen.getByRole('button', { name: 'Login' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });
});
