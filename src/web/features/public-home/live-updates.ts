import { useEffect, useRef } from 'react';
import { EVENTS_PATH, type LiveChange } from '../../../shared/public-pages.js';

/** A change from the server, or "resync": something may have changed while the stream was down. */
export type LiveSignal = LiveChange | { kind: 'resync' };
type Listener = (signal: LiveSignal) => void;

/** Polling is only the fallback while the event stream is down. */
export const POLL_INTERVAL_MS = 12_000;
/** After the server refused the stream outright (e.g. 503), try it again this much later. */
const REOPEN_AFTER_MS = 60_000;

const listeners = new Set<Listener>();
let source: EventSource | null = null;
let pollTimer: ReturnType<typeof setInterval> | undefined;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;

function emit(signal: LiveSignal) {
  for (const listener of listeners) listener(signal);
}

function startPolling() {
  pollTimer ??= setInterval(() => emit({ kind: 'resync' }), POLL_INTERVAL_MS);
}

function stopPolling() {
  if (pollTimer !== undefined) clearInterval(pollTimer);
  pollTimer = undefined;
}

function isLiveChange(value: unknown): value is LiveChange {
  return (
    typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string'
  );
}

function openStream() {
  if (typeof EventSource === 'undefined') {
    startPolling();
    return;
  }
  const stream = new EventSource(EVENTS_PATH);
  source = stream;
  stream.onmessage = (event: MessageEvent<string>) => {
    try {
      const change: unknown = JSON.parse(event.data);
      if (isLiveChange(change)) emit(change);
    } catch (error) {
      console.error('Ignoring a live update that is not JSON', error);
    }
  };
  stream.onopen = () => {
    // A marker for tests and tools: changes now arrive live.
    document.documentElement.dataset.live = 'open';
    // Back after an outage: catch up on what was missed, then stop polling.
    if (pollTimer !== undefined) {
      stopPolling();
      emit({ kind: 'resync' });
    }
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

/** One stream per page, however many parts of it listen. */
export function subscribeLive(listener: Listener): () => void {
  listeners.add(listener);
  if (listeners.size === 1) openStream();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) closeStream();
  };
}

/** Calls onSignal for every live change, coalescing a burst into one call (the last signal wins). */
export function useLiveChanges(onSignal: Listener, coalesceMs = 100): void {
  const latest = useRef(onSignal);
  useEffect(() => {
    latest.current = onSignal;
  });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: LiveSignal | undefined;
    const unsubscribe = subscribeLive((signal) => {
      // A day change or resync outranks a single change: it refreshes everything. Changes of
      // different kinds in one window become a resync too, so that none of them is dropped.
      if (!pending || signal.kind === 'day' || signal.kind === 'resync') pending = signal;
      else if (pending.kind !== signal.kind && pending.kind !== 'day') pending = { kind: 'resync' };
      timer ??= setTimeout(() => {
        timer = undefined;
        const signalNow = pending;
        pending = undefined;
        if (signalNow) latest.current(signalNow);
      }, coalesceMs);
    });
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe();
    };
  }, [coalesceMs]);
}
