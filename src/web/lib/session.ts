import { useSyncExternalStore } from 'react';
import type { SessionUser } from '../../shared/schemas/users.js';

/** What the browser keeps under the spec's storage key "user": the signed-in user and its token. */
export type StoredSession = SessionUser & { token: string };

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

export function startSession(session: StoredSession): void {
  current = session;
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  emit();
}

export function endSession(): void {
  current = null;
  localStorage.removeItem(SESSION_STORAGE_KEY);
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
