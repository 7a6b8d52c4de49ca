/**
 * Where an open/close market's day stands, and what that means for the admin's board: the step it
 * waits for and when that step is due. Pure, so that the server's board (src/server/modules/today),
 * the board's clock in the browser and the agent's form read a day alike. The rules of the values
 * themselves are src/shared/matka.ts.
 */
import { type GhadiState, ghadiState } from './ghadi-due.js';
import { type GhadiKind, stepOf } from './matka.js';

/** What an open/close market's day waits for: its open panna, its close panna, or nothing more. */
export const MARKET_STEPS = ['open', 'close', 'complete'] as const;
export type MarketStep = (typeof MARKET_STEPS)[number];

/**
 * The step a day with this stored value (null: none) waits for; null for a ghadi of another kind. A
 * stored value of no open/close form (one declared before the ghadi became a market) is read as the
 * server reads it, as no value: the open panna replaces it.
 */
export function marketStepOf(kind: GhadiKind, value: string | null): MarketStep | null {
  if (kind !== 'open-close') return null;
  const stored = value === null ? null : stepOf(kind, value);
  if (stored === 'open') return 'close';
  if (stored === 'close') return 'complete';
  return 'open';
}

/** Why a ghadi does not run on a day: a holiday, or a weekday it does not run. */
export type Closure = 'holiday' | 'off-day';

export interface BoardStateInput {
  /** When the day's result (an open/close market's close) is due, ISO; null when RTime is unreadable. */
  dueAt: string | null;
  /** An open/close market's open time on the day, ISO; null for other kinds or an unreadable time. */
  openDueAt: string | null;
  /** The step an open/close market waits for; null for other kinds. */
  step: MarketStep | null;
  closed: Closure | null;
  /** The day's stored value, or null; `corrected` when it replaced another value. */
  result: { corrected: boolean } | null;
  now: number;
  overdueAfterMinutes: number;
}

/**
 * The instant the awaited value is due: the open time while a market waits for its open panna, the
 * result time otherwise; null when nothing is awaited (a complete day, a closed one, no readable time).
 */
export function awaitedDueAt({
  dueAt,
  openDueAt,
  step,
  closed,
  result,
}: Pick<BoardStateInput, 'dueAt' | 'openDueAt' | 'step' | 'closed' | 'result'>): string | null {
  if (step === 'complete') return null;
  if (step === 'open') return closed ? null : openDueAt;
  if (step === 'close') return closed ? null : dueAt;
  return closed || result ? null : dueAt;
}

/**
 * A ghadi's state on the board (the states of src/shared/ghadi-due.ts, so older clients read it):
 * an open/close market waits, is due and is overdue for its open panna by its open time, then for its
 * close panna by its result time, and is declared once complete. A closed ghadi with no value waits,
 * and is never due nor overdue.
 */
export function boardStateOf(input: BoardStateInput): GhadiState {
  const { step, closed, result, now, overdueAfterMinutes } = input;
  const complete = step === null ? result !== null : step === 'complete';
  if (complete && result) return result.corrected ? 'corrected' : 'declared';
  if (closed) return 'waiting';
  return ghadiState({ dueAt: awaitedDueAt(input), result: null, now, overdueAfterMinutes });
}

/**
 * What a ghadi's day still waits for: its one result (jodi, panna), or an open/close market's open
 * half and then its close (as marketStepOf reads it). Null once the day is complete.
 */
export type Awaited = 'result' | 'open' | 'close';

export function awaitedOf(kind: GhadiKind, value: string): Awaited | null {
  const step = marketStepOf(kind, value || null);
  if (step === null) return value ? null : 'result';
  return step === 'complete' ? null : step;
}

/** What the due time of a ghadi's day is read from: an open/close market has two. */
export interface DueTimes {
  Kind: GhadiKind;
  /** The result time; an open/close market's close. */
  RTime: string;
  /** An open/close market's open time; null for other kinds. */
  OpenTime: string | null;
}

/**
 * The time (as the admins typed it) of what the day waits for: an open/close market's open time until
 * its open half, its close time after; RTime for other kinds. Null once the day is complete.
 */
export function awaitedTimeOf(ghadi: DueTimes, value: string): string | null {
  const awaited = awaitedOf(ghadi.Kind, value);
  if (awaited === null) return null;
  return awaited === 'open' ? (ghadi.OpenTime ?? ghadi.RTime) : ghadi.RTime;
}
