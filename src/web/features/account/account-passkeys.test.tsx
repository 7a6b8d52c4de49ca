import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PASSKEY_NO_SITE_MESSAGE,
  PASSKEY_WRONG_PASSWORD_MESSAGE,
  type PasskeyRecord,
} from '../../../shared/schemas/passkeys.js';
import { PASSKEY_CANCELLED_MESSAGE, PASSKEY_UNSUPPORTED_MESSAGE } from '../../lib/passkey-ceremony.js';
import { endSession, startSession } from '../../lib/session.js';
import { AGENT_RAVI } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { AccountPasskeys } from './account-passkeys.js';

const browser = vi.hoisted(() => ({ startRegistration: vi.fn(), startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browser);

const REGISTRATION_OPTIONS = {
  rp: { id: 'localhost', name: 'Site' },
  user: { id: 'dXNlcg', name: 'ravi', displayName: 'Ravi' },
  challenge: 'Y2hhbGxlbmdl',
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
};
const AUTHENTICATION_OPTIONS = { challenge: 'YXNzZXJ0', allowCredentials: [], userVerification: 'required' };
const ATTESTATION = {
  id: 'bmV3',
  rawId: 'bmV3',
  type: 'public-key',
  response: { clientDataJSON: 'Y2Q', attestationObject: 'YW8' },
  clientExtensionResults: {},
};
const ASSERTION = {
  id: 'b2xk',
  rawId: 'b2xk',
  type: 'public-key',
  response: { clientDataJSON: 'Y2Q', authenticatorData: 'YWQ', signature: 'c2ln' },
  clientExtensionResults: {},
};

let passkeys: PasskeyRecord[];
let requests: Array<{ method: string; url: string; body: unknown }>;
let optionsRefusal: string | null;

beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', class PublicKeyCredential {});
  startSession({ ...AGENT_RAVI, _id: '1', id: '1', User_Id: 1, token: 'token' });
  passkeys = [
    { _id: '7', Name: 'Work laptop', CreatedAt: '2026-11-01T08:00:00.000Z', LastUsedAt: null },
    {
      _id: '8',
      Name: 'My phone',
      CreatedAt: '2026-11-02T08:00:00.000Z',
      LastUsedAt: '2026-11-28T10:00:00.000Z',
    },
  ];
  requests = [];
  optionsRefusal = null;
  browser.startRegistration.mockReset().mockResolvedValue(ATTESTATION);
  browser.startAuthentication.mockReset().mockResolvedValue(ASSERTION);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      requests.push({ method, url, body });
      if (url === '/api/users/me') return json({ success: false, message: 'Not found' }, 404);
      if (method === 'GET' && url === '/api/users/me/passkeys')
        return json({ success: true, data: passkeys });
      if (method === 'POST' && url === '/api/users/me/passkeys/options') {
        if (optionsRefusal) return json({ success: false, message: optionsRefusal }, 400);
        return json({ success: true, options: REGISTRATION_OPTIONS });
      }
      if (method === 'POST' && url === '/api/users/login/passkey/options')
        return json({ success: true, options: AUTHENTICATION_OPTIONS });
      if (method === 'POST' && url === '/api/users/me/passkeys') {
        const added = { _id: '9', Name: body.Name, CreatedAt: '2026-11-29T09:00:00.000Z' };
        passkeys = [...passkeys, { ...added, LastUsedAt: null }];
        return json({ success: true, message: 'Passkey added', data: added });
      }
      const one = /^\/api\/users\/me\/passkeys\/(\d+)$/.exec(url);
      if (method === 'DELETE' && one) {
        if (body.Password !== undefined && body.Password !== 'right-password')
          return json({ success: false, message: PASSKEY_WRONG_PASSWORD_MESSAGE }, 400);
        passkeys = passkeys.filter((passkey) => passkey._id !== one[1]);
        return json({ success: true, message: 'Passkey removed' });
      }
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

const names = async () =>
  within(await screen.findByRole('list', { name: 'Passkeys' }))
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));

describe("the Account page's passkeys", () => {
  it('lists each passkey by name, with when it was added and last used', async () => {
    renderWithQuery(<AccountPasskeys />);
    expect(await names()).toEqual(['Work laptop', 'My phone']);
    const laptop = screen.getByRole('listitem', { name: 'Work laptop' });
    expect(within(laptop).getByText(/^Added .*2026/)).toBeVisible();
    expect(within(laptop).getByText('Never used to sign in')).toBeVisible();
    const phone = screen.getByRole('listitem', { name: 'My phone' });
    expect(within(phone).getByText(/^Last used .*2026/)).toBeVisible();
  });

  it('adds a passkey under the name given, with the options the server made', async () => {
    const user = userEvent.setup();
    renderWithQuery(<AccountPasskeys />);
    await names();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await user.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText('This field is required')).toBeVisible();
    expect(browser.startRegistration).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Passkey name'), 'Desk key');
    await user.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText('Passkey added')).toBeVisible();
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: REGISTRATION_OPTIONS });
    expect(
      requests.find((request) => request.url === '/api/users/me/passkeys' && request.method === 'POST'),
    ).toEqual({
      method: 'POST',
      url: '/api/users/me/passkeys',
      body: { response: ATTESTATION, Name: 'Desk key' },
    });
    await waitFor(async () => expect(await names()).toEqual(['Work laptop', 'My phone', 'Desk key']));
    expect(screen.queryByRole('form', { name: 'Add a passkey' })).toBeNull();
  });

  it('says so when the user cancels the browser prompt, and adds nothing', async () => {
    browser.startRegistration.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    const user = userEvent.setup();
    renderWithQuery(<AccountPasskeys />);
    await names();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await user.type(screen.getByLabelText('Passkey name'), 'Desk key');
    await user.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText(PASSKEY_CANCELLED_MESSAGE)).toBeVisible();
    expect(
      requests.some((request) => request.url === '/api/users/me/passkeys' && request.method === 'POST'),
    ).toBe(false);
  });

  it("shows the server's reason when this address cannot serve passkeys", async () => {
    optionsRefusal = PASSKEY_NO_SITE_MESSAGE;
    const user = userEvent.setup();
    renderWithQuery(<AccountPasskeys />);
    await names();
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await user.type(screen.getByLabelText('Passkey name'), 'Desk key');
    await user.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText(PASSKEY_NO_SITE_MESSAGE)).toBeVisible();
    expect(browser.startRegistration).not.toHaveBeenCalled();
  });

  it('removes a passkey once the password is confirmed, not before', async () => {
    const user = userEvent.setup();
    renderWithQuery(<AccountPasskeys />);
    await names();
    await user.click(screen.getByRole('button', { name: 'Remove Work laptop' }));
    const form = screen.getByRole('form', { name: 'Remove the passkey Work laptop' });
    await user.type(within(form).getByLabelText('Password'), 'wrong-password');
    await user.click(within(form).getByRole('button', { name: 'Remove' }));
    expect(await within(form).findByText(PASSKEY_WRONG_PASSWORD_MESSAGE)).toBeVisible();
    expect(await names()).toEqual(['Work laptop', 'My phone']);

    await user.clear(within(form).getByLabelText('Password'));
    await user.type(within(form).getByLabelText('Password'), 'right-password');
    await user.click(within(form).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Passkey removed')).toBeVisible();
    await waitFor(async () => expect(await names()).toEqual(['My phone']));
    expect(
      requests.filter((request) => request.method === 'DELETE').map(({ url, body }) => ({ url, body })),
    ).toEqual([
      { url: '/api/users/me/passkeys/7', body: { Password: 'wrong-password' } },
      { url: '/api/users/me/passkeys/7', body: { Password: 'right-password' } },
    ]);
  });

  it('removes a passkey confirmed with a fresh assertion instead of the password', async () => {
    const user = userEvent.setup();
    renderWithQuery(<AccountPasskeys />);
    await names();
    await user.click(screen.getByRole('button', { name: 'Remove My phone' }));
    await user.click(screen.getByRole('button', { name: 'Confirm with a passkey' }));
    expect(await screen.findByText('Passkey removed')).toBeVisible();
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: AUTHENTICATION_OPTIONS });
    expect(requests.filter((request) => request.method === 'DELETE')).toEqual([
      { method: 'DELETE', url: '/api/users/me/passkeys/8', body: { response: ASSERTION } },
    ]);
    await waitFor(async () => expect(await names()).toEqual(['Work laptop']));
  });

  it('offers no adding where the browser has no WebAuthn, and says why', async () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    renderWithQuery(<AccountPasskeys />);
    expect(await names()).toEqual(['Work laptop', 'My phone']);
    expect(screen.getByText(PASSKEY_UNSUPPORTED_MESSAGE)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });
});
