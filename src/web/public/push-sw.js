/*
 * The public pages' push worker (registered by src/web/lib/push-follow.ts on a bell's tap, at a
 * scope that holds no page). It shows a followed ghadi's result and opens its page when tapped,
 * and nothing more: no fetch handler, so no public page ever comes from it, let alone from a cache.
 * The payload is src/shared/schemas/push.ts's PushPayload.
 */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    // A payload that is not JSON still tells the reader something happened.
  }
  const url = new URL(message.url || '/', self.location.origin).href;
  event.waitUntil(
    self.registration.showNotification(message.title || self.location.host, {
      body: message.body || '',
      tag: message.tag,
      data: { url },
      icon: '/app-icon-192.png',
      badge: '/app-icon-192.png',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data?.url || '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
