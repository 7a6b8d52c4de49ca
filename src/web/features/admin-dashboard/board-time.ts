import { useEffect, useState } from 'react';
import { type GhadiState, ghadiState, nextStateChangeAt } from '../../../shared/ghadi-due.js';
import type { TodayBoard, TodayGhadi } from '../../../shared/schemas/today.js';

const MINUTE_MS = 60_000;

/** Minutes as "12 min", "1 h", "2 h 5 min". */
function span(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A countdown to dueAt: "in 12 min" (rounded up, so it never says "in 0 min" before the time). */
export function countdownText(dueAt: number, now: number): string {
  const left = dueAt - now;
  if (left <= 0) return 'now';
  return `in ${span(Math.ceil(left / MINUTE_MS))}`;
}

/** How long past dueAt: "3 min past due" (rounded down). */
export function pastDueText(dueAt: number, now: number): string {
  const minutes = Math.floor((now - dueAt) / MINUTE_MS);
  return minutes < 1 ? 'due now' : `${span(minutes)} past due`;
}

/** An agent's last request: "last seen 3 min ago", "last seen just now", or "never seen". */
export function lastSeenText(lastSeenAt: string | null, now: number): string {
  if (lastSeenAt === null) return 'never seen';
  const minutes = Math.floor((now - Date.parse(lastSeenAt)) / MINUTE_MS);
  if (minutes < 1) return 'last seen just now';
  if (minutes < 60) return `last seen ${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `last seen ${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `last seen ${days} ${days === 1 ? 'day' : 'days'} ago`;
}

/** A row's state now: the server's for a declared ghadi, else moved on by the clock (the shared rule). */
export function stateNow(ghadi: TodayGhadi, now: number, overdueAfterMinutes: number): GhadiState {
  return ghadiState({
    dueAt: ghadi.dueAt,
    result: ghadi.Result === null ? null : { corrected: ghadi.state === 'corrected' },
    now,
    overdueAfterMinutes,
  });
}

/** The next instant a row without a result changes state by the clock alone, or null. */
export function nextChangeOf(board: TodayBoard | undefined, now: number): number | null {
  let next: number | null = null;
  for (const ghadi of board?.ghadis ?? []) {
    if (ghadi.Result !== null) continue;
    const at = nextStateChangeAt(ghadi.dueAt, board?.overdueAfterMinutes ?? 0, now);
    if (at !== null && (next === null || at < next)) next = at;
  }
  return next;
}

/** How often the countdowns and "last seen" texts are brought up to date between state changes. */
export const CLOCK_TICK_MS = 10_000;

/**
 * The time now for the board, moved on by a local timer, never by a request: every CLOCK_TICK_MS
 * for the texts, and exactly at `nextChangeAt`, when a row turns due or overdue.
 */
export function useBoardClock(nextChangeAt: (now: number) => number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const next = nextChangeAt(now);
  useEffect(() => {
    if (next === null) return;
    // A timer may fire a millisecond early; a little late is never wrong.
    const timer = setTimeout(() => setNow(Math.max(Date.now(), next)), Math.max(0, next - Date.now()) + 10);
    return () => clearTimeout(timer);
  }, [next]);
  return now;
}
