import { useSyncExternalStore } from 'react';
import { AGENT_READS_CACHE } from '../../shared/offline-cache.js';
import type { SessionUser } from '../../shared/schemas/users.js';

/**
 * What the browser keeps under the spec's storage key "user": the signed-in user and its token, and
 * what the server demands of the session before anything else (its 403s say so): a new password, or
 * two-factor sign-in set up (an admin while REQUIRE_ADMIN_2FA=true).
 */
export type StoredSession = SessionUser & { token: string; twoFactorSetupRequired?: true };

/** What markSession may change: the demands, set or (undefined) met. */
export type SessionDemands = Partial<
  Record<'passwordChangeRequired' | 'twoFactorSetupRequired', true | undefined>
>;

export const SESSION_STORAGE_KEY = 'user';

type Listener = () => void;
const listeners = new Set<Listener>();
let current: StoredSession | null = readStoredSession();

function readStoredSession(): StoredSession | null {
  if (typeof localStorage === 'undefined') return null;
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof parsed.token !== 'string' || (parsed.userType !== 'admin' && parsed.userType !== 'agent'))
      return null;
    return parsed as StoredSession;
  } catch {
    return null;
  }
}

function emit() {
  for (const listener of listeners) listener();
}

export function getSession(): StoredSession | null {
  return current;
}

/**
 * The service worker keeps the agent's reads under their addresses, which are the same for every
 * agent: a session's start or end drops them, so that no one is shown another's last known state.
 */
function forgetCachedReads(): void {
  if (typeof caches === 'undefined') return;
  caches.delete(AGENT_READS_CACHE).catch(() => {
    // Storage refused (private mode): there is nothing kept to forget either.
  });
}

export function startSession(session: StoredSession): void {
  current = session;
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  forgetCachedReads();
  emit();
}

/**
 * Sets or clears the session's demands, keeping its token and the agent's kept reads (the same
 * session goes on). A call whose answer came after the session ended changes nothing.
 */
export function markSession(demands: SessionDemands): void {
  if (!current) return;
  const next: StoredSession = { ...current };
  for (const [key, value] of Object.entries(demands) as Array<[keyof SessionDemands, true | undefined]>) {
    if (value) next[key] = value;
    else delete next[key];
  }
  if (
    next.passwordChangeRequired === current.passwordChangeRequired &&
    next.twoFactorSetupRequired === current.twoFactorSetupRequired
  )
    return;
  current = next;
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(next));
  emit();
}

export function endSession(): void {
  current = null;
  localStorage.removeItem(SESSION_STORAGE_KEY);
  forgetCachedReads();
  emit();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  // Another tab logging in or out changes this tab's session too.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_STORAGE_KEY && event.key !== null) return;
    current = readStoredSession();
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): StoredSession | null {
  return useSyncExternalStore(subscribe, getSession, () => null);
}
