import { useSyncExternalStore } from 'react';
import { SERVED_FROM_CACHE, SERVED_FROM_HEADER } from '../../shared/offline-cache.js';

/**
 * Whether the screen shows the last known state rather than the server's current one: the browser
 * is offline, or the service worker answered the latest API read from its cache (decision 0011).
 */
export interface Freshness {
  online: boolean;
  /** When the server sent the cached answer shown (its Date header), or null for a live answer. */
  cachedAt: string | null;
}

const listeners = new Set<() => void>();
let cachedAt: string | null = null;
let snapshot: Freshness = { online: true, cachedAt: null };

function getSnapshot(): Freshness {
  const online = typeof navigator === 'undefined' || navigator.onLine;
  if (snapshot.online !== online || snapshot.cachedAt !== cachedAt) snapshot = { online, cachedAt };
  return snapshot;
}

/** Called with every API answer: a live one ends the "last known" state, a cached one starts it. */
export function noteAnswer(response: Response): void {
  const fromCache = response.headers.get(SERVED_FROM_HEADER) === SERVED_FROM_CACHE;
  const next = fromCache ? new Date(response.headers.get('date') ?? Date.now()).toISOString() : null;
  if (next === cachedAt) return;
  cachedAt = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export function useFreshness(): Freshness {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
