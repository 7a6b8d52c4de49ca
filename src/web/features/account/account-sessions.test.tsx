import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionRecord } from '../../../shared/schemas/account.js';
import { endSession, startSession } from '../../lib/session.js';
import { AGENT_RAVI } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { AccountSessions } from './account-sessions.js';

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const LAPTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const session = (_id: string, UserAgent: string, Ip: string, Current = false): SessionRecord => ({
  _id,
  CreatedAt: '2026-11-29T08:00:00.000Z',
  LastSeenAt: '2026-11-29T09:30:00.000Z',
  Ip,
  UserAgent,
  Current,
});

let sessions: SessionRecord[] = [];
let requests: Array<{ method: string; url: string; auth: string | null }> = [];

beforeEach(() => {
  startSession({ ...AGENT_RAVI, _id: '1', id: '1', User_Id: 1, token: 'token' });
  sessions = [
    session('this', PHONE_UA, '203.0.113.7', true),
    session('laptop', LAPTOP_UA, '198.51.100.20'),
    session('iphone', IPHONE_UA, '198.51.100.31'),
  ];
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      requests.push({ method, url, auth: new Headers(init.headers).get('authorization') });
      if (method === 'GET' && url === '/api/users/me/sessions')
        return json({ success: true, data: sessions });
      const one = /^\/api\/users\/me\/sessions\/([\w-]+)$/.exec(url);
      if (method === 'DELETE' && one) {
        const left = sessions.filter((item) => item._id !== one[1]);
        if (left.length === sessions.length)
          return json({ success: false, message: 'Session not found' }, 404);
        sessions = left;
        return json({ success: true, message: 'Session ended' });
      }
      if (method === 'POST' && url === '/api/users/me/sessions/end-others') {
        const ended = sessions.filter((item) => !item.Current).length;
        sessions = sessions.filter((item) => item.Current);
        return json({ success: true, message: 'Sessions ended', ended });
      }
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

const rows = async () =>
  within(await screen.findByRole('list', { name: 'Sessions' })).getAllByRole('listitem');

describe("the Account page's sessions", () => {
  it('lists each session by device and address, with this device marked and no Sign out of its own', async () => {
    renderWithQuery(<AccountSessions />);
    const items = await rows();
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Chrome 131 on Android, this device',
      'Firefox 133 on Windows',
      'Safari 18 on iPhone',
    ]);
    const current = items[0] as HTMLElement;
    expect(within(current).getByText('This device')).toBeVisible();
    expect(within(current).getByText('203.0.113.7')).toBeVisible();
    expect(within(current).getByText('Chrome 131 on Android')).toHaveAttribute('title', PHONE_UA);
    expect(within(current).queryByRole('button')).toBeNull();
    expect(within(items[1] as HTMLElement).queryByText('This device')).toBeNull();
    expect(within(items[1] as HTMLElement).getByText(/^Signed in .*2026/)).toBeVisible();
    expect(within(items[1] as HTMLElement).getByText(/^Last seen .*2026/)).toBeVisible();
    expect(requests[0]?.auth).toBe('Bearer token');
  });

  it('signs out one other session and shows the list without it', async () => {
    const user = userEvent.setup();
    renderWithQuery(<AccountSessions />);
    await rows();
    await user.click(screen.getByRole('button', { name: 'Sign out Firefox 133 on Windows (198.51.100.20)' }));
    expect(await screen.findByText('Signed out Firefox 133 on Windows (198.51.100.20).')).toBeVisible();
    await waitFor(async () =>
      expect((await rows()).map((item) => item.getAttribute('aria-label'))).toEqual([
        'Chrome 131 on Android, this device',
        'Safari 18 on iPhone',
      ]),
    );
    expect(requests.filter((request) => request.method === 'DELETE').map((request) => request.url)).toEqual([
      '/api/users/me/sessions/laptop',
    ]);
  });

  it('signs out everywhere else only once confirmed, then lists this device alone', async () => {
    const user = userEvent.setup();
    renderWithQuery(<AccountSessions />);
    await rows();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere else' }),
    );
    expect(await screen.findByText('Signed out 2 other sessions.')).toBeVisible();
    await waitFor(async () =>
      expect((await rows()).map((item) => item.getAttribute('aria-label'))).toEqual([
        'Chrome 131 on Android, this device',
      ]),
    );
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull();
  });
});
