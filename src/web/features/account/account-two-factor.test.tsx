import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeRecord } from '../../../shared/schemas/account.js';
import { endSession, getSession, startSession } from '../../lib/session.js';
import { AGENT_RAVI } from '../../test/records.js';
import { renderRoutes } from '../../test/render.js';
import { AccountPage, TWO_FACTOR_SETUP_BANNER } from './account-page.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const BACKUP_CODES = Array.from({ length: 10 }, (_, index) => `code-${index}aaa-bbbb-cccc`);

const USER = AGENT_RAVI;

let me: MeRecord;
let posts: Array<{ url: string; body: unknown }> = [];

beforeEach(() => {
  startSession({ ...USER, token: 'token' });
  me = { ...USER, TwoFactor: false, Passkeys: 0 };
  posts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (url === '/api/users/me') return json({ success: true, data: me });
      if (url === '/api/users/me/sessions') return json({ success: true, data: [] });
      if (url === '/api/users/me/passkeys') return json({ success: true, data: [] });
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      posts.push({ url, body });
      if (url === '/api/users/me/2fa/setup') {
        return json({
          success: true,
          secret: SECRET,
          otpauthUrl: `otpauth://totp/Site:ravi?secret=${SECRET}`,
        });
      }
      if (url === '/api/users/me/2fa/enable') {
        if (body.Code !== '123456') return json({ success: false, message: 'The code is not valid' }, 400);
        me = { ...me, TwoFactor: true };
        return json({ success: true, backupCodes: BACKUP_CODES });
      }
      if (url === '/api/users/me/2fa/disable') {
        me = { ...me, TwoFactor: false };
        return json({ success: true });
      }
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

const renderPage = () =>
  renderRoutes(
    [
      { path: '/agent/account', element: <AccountPage /> },
      { path: '/agent/login', element: <p>login</p> },
    ],
    '/agent/account',
  );
const card = () =>
  screen.getByRole('heading', { name: 'Two-factor sign-in' }).closest('section') as HTMLElement;

describe("the Account page's two-factor sign-in", () => {
  it('sets up with a QR code and the key in groups of four, then shows the ten backup codes once', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Set up' }));
    expect(await screen.findByTestId('two-factor-qr')).toBeInTheDocument();
    expect(screen.getByTestId('two-factor-qr').querySelector('path')?.getAttribute('d')).toMatch(/^M\d/);
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    const code = screen.getByLabelText('6-digit code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');

    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await within(card()).findByRole('alert')).toHaveTextContent('The code is not valid');

    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const codes = await screen.findByRole('list', { name: 'Backup codes' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(BACKUP_CODES);
    expect(await within(card()).findByText('On')).toBeVisible();
    expect(posts.filter((post) => post.url.endsWith('/enable')).map((post) => post.body)).toEqual([
      { Code: '654321' },
      { Code: '123456' },
    ]);

    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('list', { name: 'Backup codes' })).toBeNull();
    expect(screen.getByText('Two-factor sign-in is on.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Turn off' })).toBeVisible();
  });

  it('turns off with the password and a code', async () => {
    me = { ...me, TwoFactor: true };
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    const form = screen.getByRole('form', { name: 'Turn off two-factor sign-in' });
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await within(form).findAllByText('This field is required')).toHaveLength(2);
    await user.type(within(form).getByLabelText('Password'), 'right-password');
    await user.type(within(form).getByLabelText('Code from your app, or a backup code'), '123456');
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Two-factor sign-in is off.')).toBeVisible();
    expect(posts).toEqual([
      { url: '/api/users/me/2fa/disable', body: { Password: 'right-password', Code: '123456' } },
    ]);
    expect(await within(card()).findByText('Off')).toBeVisible();
  });

  it('tells a session the site refused for want of two-factor to sign in again once it is on', async () => {
    startSession({ ...USER, token: 'token', twoFactorSetupRequired: true });
    const user = userEvent.setup();
    const { router } = renderPage();
    expect(await screen.findByText(TWO_FACTOR_SETUP_BANNER)).toBeVisible();
    await user.click(await screen.findByRole('button', { name: 'Set up' }));
    await user.type(await screen.findByLabelText('6-digit code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await user.click(await screen.findByRole('button', { name: 'I have saved them' }));
    await user.click(await screen.findByRole('button', { name: 'Sign in again' }));
    expect(await screen.findByText('login')).toBeVisible();
    expect(router.state.location.pathname).toBe('/agent/login');
    expect(getSession()).toBeNull();
  });
});
