import { useEffect, useState } from 'react';
import { type GhadiState, nextStateChangeAt } from '../../../shared/ghadi-due.js';
import { awaitedDueAt, boardStateOf } from '../../../shared/open-close-steps.js';
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

/** The shared rule's view of a row: its day's value, whether that replaced another. */
const resultOf = (ghadi: TodayGhadi) =>
  ghadi.Result === null ? null : { corrected: ghadi.state === 'corrected' };

/**
 * A row's state now, moved on by the clock with the server's rule (src/shared/open-close-steps.ts): an
 * open/close market by its open time, then by its close; a closed ghadi is never due.
 */
export function stateNow(ghadi: TodayGhadi, now: number, overdueAfterMinutes: number): GhadiState {
  return boardStateOf({ ...ghadi, result: resultOf(ghadi), now, overdueAfterMinutes });
}

/** When the value a row waits for is due (epoch ms): a market's open, else its result time; null when none. */
export function awaitedDue(ghadi: TodayGhadi): number | null {
  const at = awaitedDueAt({ ...ghadi, result: resultOf(ghadi) });
  return at === null ? null : Date.parse(at);
}

/** The next instant a row still waiting for a value changes state by the clock alone, or null. */
export function nextChangeOf(board: TodayBoard | undefined, now: number): number | null {
  let next: number | null = null;
  for (const ghadi of board?.ghadis ?? []) {
    const due = awaitedDueAt({ ...ghadi, result: resultOf(ghadi) });
    const at = nextStateChangeAt(due, board?.overdueAfterMinutes ?? 0, now);
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
