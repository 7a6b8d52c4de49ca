/**
 * Following ghadis by Web Push, loaded only when a bell is tapped (components/public/notify-bell.tsx).
 * A browser has one push subscription however many ghadis it follows: the set is kept in
 * localStorage and sent whole each time (the server replaces what it had); following none deletes it.
 *
 * The subscription belongs to a worker of its own (/push-sw.js) whose scope holds no page: it
 * handles pushes and notification taps only and never controls, let alone caches, a public page;
 * the signed-in areas' worker (sw.js, scope /) is left as it is.
 */
import type { Language } from '../../shared/page-language.js';
import type { PushSubscriptionInput } from '../../shared/schemas/push.js';
import { FOLLOWED_KEY, followedGhadis } from './followed-ghadis.js';

const WORKER_URL = '/push-sw.js';
export const PUSH_WORKER_SCOPE = '/push-worker/';
const SUBSCRIPTIONS = '/api/push/subscriptions';

// One change at a time: two bells tapped together must not send two different sets.
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

async function send(method: 'POST' | 'DELETE', body: unknown): Promise<void> {
  const response = await fetch(SUBSCRIPTIONS, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`Server error: ${response.status}`);
}

/** The push worker's registration, once its worker is active (subscribing needs one). */
async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  const registration = await navigator.serviceWorker.register(WORKER_URL, { scope: PUSH_WORKER_SCOPE });
  const worker = registration.installing ?? registration.waiting;
  if (!registration.active && worker) {
    await new Promise<void>((resolve) => {
      worker.addEventListener('statechange', () => {
        if (worker.state === 'activated') resolve();
      });
    });
  }
  return registration;
}

const base64Url = (bytes: ArrayBuffer | null) =>
  bytes
    ? btoa(String.fromCharCode(...new Uint8Array(bytes)))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '')
    : '';

/** This browser's subscription, made with the server's current key (a key changed since is replaced). */
async function subscription(registration: ServiceWorkerRegistration): Promise<PushSubscription> {
  const response = await fetch('/api/push/key', { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Server error: ${response.status}`);
  const { publicKey } = (await response.json()) as { publicKey: string };
  const existing = await registration.pushManager.getSubscription();
  if (existing && base64Url(existing.options.applicationServerKey) === publicKey.replace(/=+$/, ''))
    return existing;
  await existing?.unsubscribe();
  const raw = atob(publicKey.replace(/-/g, '+').replace(/_/g, '/'));
  return registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: Uint8Array.from(raw, (char) => char.charCodeAt(0)),
  });
}

async function sendSet(subscription: PushSubscription, ghadis: number[], language: Language): Promise<void> {
  const input = { subscription: subscription.toJSON(), ghadis, lang: language } as PushSubscriptionInput;
  await send('POST', input);
  localStorage.setItem(FOLLOWED_KEY, JSON.stringify(ghadis));
}

/** Follows a ghadi once the permission asked on the tap is granted; resolves without it otherwise. */
export function follow(gid: number, language: Language, permission: Promise<NotificationPermission>) {
  return oneAtATime(async () => {
    if ((await permission) !== 'granted') return;
    const registration = await activeRegistration();
    const ghadis = [...new Set([...followedGhadis(), gid])];
    await sendSet(await subscription(registration), ghadis, language);
  });
}

/** Stops following a ghadi; the last one ends the subscription, on the server and in the browser. */
export function unfollow(gid: number, language: Language) {
  return oneAtATime(async () => {
    const ghadis = followedGhadis().filter((followed) => followed !== gid);
    const registration = await navigator.serviceWorker.getRegistration(PUSH_WORKER_SCOPE);
    const current = await registration?.pushManager.getSubscription();
    if (ghadis.length > 0 && registration) {
      await sendSet(current ?? (await subscription(registration)), ghadis, language);
      return;
    }
    if (current) {
      await send('DELETE', { endpoint: current.endpoint });
      await current.unsubscribe();
    }
    localStorage.setItem(FOLLOWED_KEY, JSON.stringify(ghadis));
  });
}
