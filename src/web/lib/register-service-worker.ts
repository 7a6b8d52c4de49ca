/**
 * Registers the service worker that lets the signed-in areas open offline (decision 0011). Only the
 * SPA's entry calls this: a public visitor never gets a worker, so public pages load as before.
 * The development server has no worker (its files change on every edit).
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    // A browser that refuses it (private mode, a policy) runs the app as before, only not offline.
  });
}
