import { describe, expect, it, vi } from 'vitest';
import SOURCE from '../public/push-sw.js?raw';

/**
 * The public pages' push worker (src/web/public/push-sw.js, served as is), run in a scope of its
 * own with the few worker APIs it uses. The browser side, end to end, is tests/e2e/push-bell.spec.ts.
 */
const ORIGIN = 'https://results.example';

type Listener = (event: Record<string, unknown>) => void;

function startWorker(windows: { url: string; focus: () => Promise<unknown> }[] = []) {
  const listeners = new Map<string, Listener>();
  const self = {
    location: new URL(`${ORIGIN}/push-sw.js`),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: vi.fn(),
    registration: { showNotification: vi.fn(async () => undefined) },
    clients: {
      claim: vi.fn(async () => undefined),
      matchAll: vi.fn(async () => windows),
      openWindow: vi.fn(async () => null),
    },
  };
  // The worker's `self` is this stand-in, given as a parameter that hides the page's own.
  new Function('self', SOURCE)(self);
  /** Dispatches an event; resolves with what it asked to wait for. */
  const dispatch = async (type: string, fields: Record<string, unknown>) => {
    let waited: Promise<unknown> = Promise.resolve();
    listeners.get(type)?.({ ...fields, waitUntil: (promise: Promise<unknown>) => (waited = promise) });
    await waited;
  };
  return { listeners, self, dispatch };
}

describe('the public push worker', () => {
  it('handles pushes and notification taps only: no fetch handler, so no page ever comes from it', () => {
    const { listeners } = startWorker();
    expect([...listeners.keys()].sort()).toEqual(['activate', 'install', 'notificationclick', 'push']);
  });

  it('shows the payload’s title, body and tag, with its page to open and the site’s icon', async () => {
    const { self, dispatch } = startWorker();
    const payload = {
      title: 'Gali: 42',
      body: 'Declared at 11:30',
      url: '/satta-results/gali',
      tag: 'ghadi-7',
    };
    await dispatch('push', { data: { json: () => payload } });
    expect(self.registration.showNotification).toHaveBeenCalledWith('Gali: 42', {
      body: 'Declared at 11:30',
      tag: 'ghadi-7',
      data: { url: `${ORIGIN}/satta-results/gali` },
      icon: '/app-icon-192.png',
      badge: '/app-icon-192.png',
    });
  });

  it('still says something when a payload is not JSON', async () => {
    const { self, dispatch } = startWorker();
    await dispatch('push', {
      data: {
        json: () => {
          throw new SyntaxError('not JSON');
        },
      },
    });
    expect(self.registration.showNotification).toHaveBeenCalledWith('results.example', expect.anything());
  });

  it('a tap focuses a tab already on the page, or opens it', async () => {
    const url = `${ORIGIN}/satta-results/gali`;
    const focus = vi.fn(async () => undefined);
    const open = startWorker([
      { url: `${ORIGIN}/`, focus: vi.fn() },
      { url, focus },
    ]);
    const close = vi.fn();
    await open.dispatch('notificationclick', { notification: { close, data: { url } } });
    expect(close).toHaveBeenCalled();
    expect(focus).toHaveBeenCalled();
    expect(open.self.clients.openWindow).not.toHaveBeenCalled();

    const none = startWorker([{ url: `${ORIGIN}/`, focus: vi.fn() }]);
    await none.dispatch('notificationclick', { notification: { close: vi.fn(), data: { url } } });
    expect(none.self.clients.openWindow).toHaveBeenCalledWith(url);
  });
});
