import { useCallback, useEffect, useRef, useState } from 'react';
import { EVENTS_PATH, EVENTS_SINCE_PARAM, type LiveEvent } from '../../shared/live-events.js';

/**
 * The public pages' live data. One event stream per page (GET /api/events) carries every change with
 * its data, so a page applies it without a request. The page opens the stream after the version it was
 * rendered at, and the browser reconnects with Last-Event-ID: the server replays what was missed, or
 * says "resync" when that is more than it keeps; only then, or while the stream is down, the page
 * reloads its data.
 */

type Listener = (id: number, event: LiveEvent) => void;

/** Polling is only the fallback while the event stream is down. */
export const POLL_INTERVAL_MS = 12_000;
/** After the server refused the stream outright (429 or 503), try it again this much later. */
const REOPEN_AFTER_MS = 60_000;
/** Events a page keeps to lay over a reload that answers from before them. */
const KEPT_EVENTS = 200;

const listeners = new Set<Listener>();
let source: EventSource | null = null;
let pollTimer: ReturnType<typeof setInterval> | undefined;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * The id of the latest event this page has (or the version it was rendered at); undefined for a
 * screen that loads its data itself and wants only what happens from now on.
 */
let lastId: number | undefined;

function emit(id: number, event: LiveEvent) {
  for (const listener of listeners) listener(id, event);
}

function startPolling() {
  pollTimer ??= setInterval(() => emit(lastId ?? 0, { kind: 'resync' }), POLL_INTERVAL_MS);
}

function stopPolling() {
  if (pollTimer !== undefined) clearInterval(pollTimer);
  pollTimer = undefined;
}

function isLiveEvent(value: unknown): value is LiveEvent {
  return (
    typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string'
  );
}

function openStream() {
  if (typeof EventSource === 'undefined') {
    startPolling();
    return;
  }
  // Without a version the server sends what happens from now on, not a resync for the past.
  const stream = new EventSource(
    lastId === undefined ? EVENTS_PATH : `${EVENTS_PATH}?${EVENTS_SINCE_PARAM}=${lastId}`,
  );
  source = stream;
  stream.onmessage = (message: MessageEvent<string>) => {
    const id = Number(message.lastEventId);
    try {
      const event: unknown = JSON.parse(message.data);
      if (!Number.isInteger(id) || !isLiveEvent(event)) return;
      lastId = Math.max(lastId ?? 0, id);
      emit(id, event);
    } catch (error) {
      console.error('Ignoring a live update that is not JSON', error);
    }
  };
  stream.onopen = () => {
    // A marker for tests and tools: changes now arrive live. The server replays what was missed.
    document.documentElement.dataset.live = 'open';
    stopPolling();
  };
  stream.onerror = () => {
    document.documentElement.dataset.live = 'polling';
    startPolling();
    // The browser reconnects by itself unless the server refused the stream; then try again later.
    if (stream.readyState === EventSource.CLOSED) {
      stream.close();
      source = null;
      reopenTimer = setTimeout(() => {
        reopenTimer = undefined;
        if (listeners.size > 0 && source === null) openStream();
      }, REOPEN_AFTER_MS);
    }
  };
}

function closeStream() {
  source?.close();
  source = null;
  stopPolling();
  if (reopenTimer !== undefined) clearTimeout(reopenTimer);
  reopenTimer = undefined;
}

/**
 * One stream per page, however many parts of it listen; it starts after `version`, or (undefined)
 * with what happens from now on, for a screen that has just loaded its data itself.
 */
export function subscribeLive(version: number | undefined, listener: Listener): () => void {
  if (version !== undefined) lastId = Math.max(lastId ?? 0, version);
  listeners.add(listener);
  if (listeners.size === 1) openStream();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) closeStream();
  };
}

/** Data as a load gives it, and the version (latest event id) it includes when the answer says. */
export interface Loaded<T> {
  data: T;
  version?: number;
}

export interface LiveDataOptions<T> {
  /** What the page was rendered with, and the version (latest event id) that data includes. */
  initial: T;
  version: number;
  /** The data after an event; return the same object when the event does not concern it. */
  apply: (data: T, event: LiveEvent) => T;
  /** Loads the current data afresh (after a "resync", or while polling). */
  reload: (current: T) => Promise<Loaded<T>>;
}

export interface LiveData<T> {
  data: T;
  /** Replaces the data with what `fetch` loads (e.g. another month), keeping live events that are newer. */
  load: (fetch: (current: T) => Promise<Loaded<T>>) => Promise<void>;
}

/**
 * Data kept current by the live stream. A load answers with data as of some version; events that
 * arrived meanwhile and are newer are laid over it again, so that a slow load cannot undo them.
 */
export function useLiveData<T>({ initial, version, apply, reload }: LiveDataOptions<T>): LiveData<T> {
  const [data, setData] = useState(initial);
  const state = useRef({
    data: initial,
    applied: version,
    kept: [] as Array<{ id: number; event: LiveEvent }>,
  });
  const latest = useRef({ apply, reload });
  useEffect(() => {
    latest.current = { apply, reload };
  });

  const load = useCallback(async (fetch: (current: T) => Promise<Loaded<T>>) => {
    const requestedAt = state.current.applied;
    const loaded = await fetch(state.current.data);
    const base = loaded.version ?? requestedAt;
    let next = loaded.data;
    for (const { id, event } of state.current.kept) if (id > base) next = latest.current.apply(next, event);
    state.current.applied = Math.max(state.current.applied, base);
    state.current.data = next;
    setData(next);
  }, []);

  useEffect(() => {
    let reloading = false;
    const unsubscribe = subscribeLive(version, (id, event) => {
      const current = state.current;
      if (event.kind === 'resync') {
        if (reloading) return;
        reloading = true;
        load((data) => latest.current.reload(data))
          .catch((error: unknown) => console.error('Failed to reload the live data', error))
          .finally(() => {
            reloading = false;
          });
        return;
      }
      if (id <= current.applied) return;
      current.applied = id;
      current.kept.push({ id, event });
      if (current.kept.length > KEPT_EVENTS) current.kept.shift();
      current.data = latest.current.apply(current.data, event);
      setData(current.data);
    });
    return unsubscribe;
  }, [version, load]);

  return { data, load };
}
