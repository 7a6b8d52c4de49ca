import { useEffect, useState } from 'react';
import type { VisitorStats } from '../../shared/schemas/visitors.js';
import { getJson } from './public-fetch.js';

const SESSION_ID_KEY = 'visitorSessionId';
const TRACKED_KEY = 'visitorTracked';
/** How often the visitor counter is read again. */
const VISITOR_STATS_REFRESH_MS = 15_000;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be disabled; the visit is then tracked on every page.
    return null;
  }
}

/** The session id kept for this browser session: the time and a random number. */
function sessionId(store: Storage | null): string {
  const kept = store?.getItem(SESSION_ID_KEY);
  if (kept) return kept;
  const id = `${Date.now()}-${Math.floor(Math.random() * 1_000_000_000)}`;
  store?.setItem(SESSION_ID_KEY, id);
  return id;
}

/** This page's tracking attempt; settles when it has (so the first stats can count this visit). */
let tracking: Promise<void> | undefined;

/**
 * Tracks the visit once per browser session (a failed attempt is retried on the next page).
 * Failures are only logged (spec section 8).
 */
export function trackVisitOnce(): Promise<void> {
  tracking ??= track();
  return tracking;
}

function track(): Promise<void> {
  const store = storage();
  if (store?.getItem(TRACKED_KEY) === '1') return Promise.resolve();
  const id = sessionId(store);
  return fetch('/api/visitor/track', {
    method: 'POST',
    headers: { 'x-session-id': id },
    credentials: 'same-origin',
  })
    .then(async (response) => {
      // Read to its end: a body left unread keeps the request open in Chromium (its DevTools, and
      // Lighthouse, which then waited its whole 45 s for the page to finish loading).
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`Server error: ${response.status}`);
      store?.setItem(TRACKED_KEY, '1');
    })
    .catch((error: unknown) => console.error('Visitor tracking failed', error));
}

/** totalUsers and activeUsers, refreshed every 15 seconds; null until the first answer. */
export function useVisitorStats(): VisitorStats | null {
  const [stats, setStats] = useState<VisitorStats | null>(null);
  useEffect(() => {
    let active = true;
    const load = () =>
      getJson<VisitorStats>('/api/visitor/stats')
        .then((answer) => {
          if (active) setStats(answer);
        })
        .catch((error: unknown) => console.error('Visitor stats failed', error));
    // The first read waits for this visit's tracking, so that it counts.
    void trackVisitOnce().then(load);
    const timer = setInterval(load, VISITOR_STATS_REFRESH_MS);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, []);
  return stats;
}
