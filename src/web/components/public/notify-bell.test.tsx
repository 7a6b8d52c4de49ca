import { act, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FOLLOWED_KEY } from '../../lib/followed-ghadis.js';
import { NotifyBell } from './notify-bell.js';

const follow = vi.fn(async () => undefined);
const unfollow = vi.fn(async () => undefined);
vi.mock('../../lib/push-follow.js', () => ({ follow, unfollow }));

/** A browser with push (jsdom has none), its permission as given. */
function pushBrowser(permission: NotificationPermission) {
  const requestPermission = vi.fn(async () => permission);
  vi.stubGlobal('Notification', { permission, requestPermission });
  vi.stubGlobal('PushManager', class {});
  Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
  return requestPermission;
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  follow.mockClear();
  unfollow.mockClear();
});

describe('the notification bell', () => {
  it('is hidden in the server’s markup, which cannot know what the browser allows', () => {
    const html = renderToString(<NotifyBell gid={7} name="Gali" language="en" />);
    expect(html).toMatch(/<button[^>]* hidden=""/);
  });

  it('asks for permission only when tapped, then follows; a second tap unfollows', async () => {
    const requestPermission = pushBrowser('default');
    render(<NotifyBell gid={7} name="Gali" language="en" />);
    const bell = screen.getByRole('button', { name: 'Notify me about Gali' });
    expect(bell).toHaveAttribute('aria-pressed', 'false');
    expect(requestPermission).not.toHaveBeenCalled();

    await act(async () => fireEvent.click(bell));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(follow).toHaveBeenCalledWith(7, 'en', expect.any(Promise));

    // What push-follow.ts leaves once the server took the set.
    vi.stubGlobal('Notification', { permission: 'granted', requestPermission });
    localStorage.setItem(FOLLOWED_KEY, '[7]');
    await act(async () => window.dispatchEvent(new Event('ghadi-bells')));
    expect(bell).toHaveAttribute('aria-pressed', 'true');

    await act(async () => fireEvent.click(bell));
    expect(unfollow).toHaveBeenCalledWith(7, 'en');
    expect(requestPermission).toHaveBeenCalledTimes(1);
  });

  it('says in Hindi what it does, on a card by its label alone', () => {
    pushBrowser('granted');
    localStorage.setItem(FOLLOWED_KEY, '[7]');
    render(<NotifyBell gid={7} name="गली" language="hi" onCard />);
    const bell = screen.getByRole('button', { name: 'गली की सूचना पाएँ' });
    expect(bell).toHaveAttribute('aria-pressed', 'true');
    expect(bell.textContent).toBe('');
  });

  it('says why it cannot work: blocked, unsupported, or an iPhone not using the installed app', async () => {
    pushBrowser('denied');
    const { unmount } = render(<NotifyBell gid={7} name="Gali" language="en" />);
    expect(
      await screen.findByRole('button', { name: 'Notifications blocked by this browser' }),
    ).toHaveAttribute('aria-disabled', 'true');
    unmount();
    vi.unstubAllGlobals();

    const second = render(<NotifyBell gid={7} name="Gali" language="en" />);
    await screen.findByRole('button', { name: 'Notifications not supported here' });
    second.unmount();

    const iPhone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)';
    vi.stubGlobal('navigator', { ...navigator, userAgent: iPhone });
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    const third = render(<NotifyBell gid={7} name="Gali" language="en" />);
    await screen.findByRole('button', { name: 'For notifications, add to Home Screen first' });
    third.unmount();

    // Opened from the Home Screen, an iPhone has push like any browser.
    pushBrowser('default');
    vi.stubGlobal('navigator', { ...navigator, userAgent: iPhone, serviceWorker: {} });
    vi.stubGlobal('matchMedia', () => ({ matches: true }));
    render(<NotifyBell gid={7} name="Gali" language="en" />);
    expect(await screen.findByRole('button', { name: 'Notify me about Gali' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });
});
