/**
 * When a ghadi's result is due today, and where it stands: read from its `RTime` ("1:45 PM" or
 * "13:45") in the site's time zone. Pure, so that the server's board and the browser's countdowns
 * agree; zones are read through Intl, so any IANA zone and its daylight-saving days work.
 */

import { type GhadiKind, stepOf } from './matka.js';

export const GHADI_STATES = ['waiting', 'due', 'overdue', 'declared', 'corrected'] as const;
export type GhadiState = (typeof GHADI_STATES)[number];

/** A wall-clock time of day, 24-hour. */
export interface WallTime {
  hour: number;
  minute: number;
}

const TWELVE_HOUR = /^(\d{1,2}):([0-5]\d)\s*([ap])\.?\s*m\.?$/i;
const TWENTY_FOUR_HOUR = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** An `RTime` as a time of day: "h:mm AM/PM" (12 AM is midnight, 12 PM noon) or "HH:mm"; else null. */
export function parseResultTime(rTime: string): WallTime | null {
  const text = rTime.trim();
  const twelve = TWELVE_HOUR.exec(text);
  if (twelve) {
    const hour = Number(twelve[1]);
    if (hour < 1 || hour > 12) return null;
    const afternoon = twelve[3]?.toLowerCase() === 'p';
    return { hour: (hour % 12) + (afternoon ? 12 : 0), minute: Number(twelve[2]) };
  }
  const twentyFour = TWENTY_FOUR_HOUR.exec(text);
  if (twentyFour) return { hour: Number(twentyFour[1]), minute: Number(twentyFour[2]) };
  return null;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** How far the zone's wall clock is ahead of UTC at an instant (epoch ms), in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  const parts = offsetFormatter(timeZone).formatToParts(whole);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - whole;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The instant (epoch ms) a zone's clocks show `time` on `date` (YYYY-MM-DD). As Temporal's
 * "compatible" reading does: a time the clocks repeat (autumn) is its first occurrence, and a time
 * they skip (spring) is read with the offset before the change, so it lands that much later.
 */
export function instantInZone(date: string, time: WallTime, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day, time.hour, time.minute);
  // No zone changes its offset twice within a day of itself, so these are the offsets in play.
  const before = wall - offsetAt(wall - DAY_MS, timeZone);
  const after = wall - offsetAt(wall + DAY_MS, timeZone);
  const valid = [before, after].filter((instant) => instant + offsetAt(instant, timeZone) === wall);
  return valid.length > 0 ? Math.min(...valid) : before;
}

/**
 * `instantInZone` for many times of one date: on a day whose offset does not change (every day but
 * the few with a clock change) one reading of the zone serves every time, which a range of a year of
 * ghadis needs (thousands of readings through Intl otherwise); on a day it changes, each time is read
 * as `instantInZone` reads it.
 */
export function instantsOnDate(
  date: string,
  times: ReadonlyArray<WallTime | null>,
  timeZone: string,
): Array<number | null> {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const wall = (time: WallTime) => Date.UTC(year, month - 1, day, time.hour, time.minute);
  const first = { hour: 0, minute: 0 };
  const last = { hour: 23, minute: 59 };
  const start = instantInZone(date, first, timeZone);
  const end = instantInZone(date, last, timeZone);
  const offset = wall(first) - start;
  const steady =
    wall(last) - end === offset && offsetAt(start, timeZone) === offset && offsetAt(end, timeZone) === offset;
  return times.map((time) => {
    if (time === null) return null;
    return steady ? wall(time) - offset : instantInZone(date, time, timeZone);
  });
}

/** When a ghadi with this `RTime` is due on `date` in the zone, as an ISO instant; null for an unreadable time. */
export function dueAtOf(rTime: string, date: string, timeZone: string): string | null {
  const time = parseResultTime(rTime);
  return time ? new Date(instantInZone(date, time, timeZone)).toISOString() : null;
}

export interface StateInput {
  /** Today's due instant (ISO), or null when the RTime cannot be read. */
  dueAt: string | null;
  /** Today's result, or null while there is none; `corrected` when it replaced another value. */
  result: { corrected: boolean } | null;
  /** The time now, epoch ms. */
  now: number;
  /** How long after dueAt a missing result is overdue (OVERDUE_AFTER_MINUTES). */
  overdueAfterMinutes: number;
}

/**
 * A ghadi's state today: declared (or corrected) once its result exists; before that waiting until
 * dueAt, due from dueAt, and overdue from dueAt + the allowance on. Without a dueAt it waits.
 */
export function ghadiState({ dueAt, result, now, overdueAfterMinutes }: StateInput): GhadiState {
  if (result) return result.corrected ? 'corrected' : 'declared';
  if (dueAt === null) return 'waiting';
  const due = Date.parse(dueAt);
  if (now < due) return 'waiting';
  return now < due + overdueAfterMinutes * 60_000 ? 'due' : 'overdue';
}

/**
 * When a ghadi without a result next changes state by the clock alone (to due, then to overdue), as
 * epoch ms; null when it will not (no dueAt, or overdue already). A countdown re-renders then.
 */
export function nextStateChangeAt(
  dueAt: string | null,
  overdueAfterMinutes: number,
  now: number,
): number | null {
  if (dueAt === null) return null;
  const due = Date.parse(dueAt);
  if (now < due) return due;
  const overdue = due + overdueAfterMinutes * 60_000;
  return now < overdue ? overdue : null;
}

/** Why a ghadi does not run today: a holiday, or a weekday not among its Days (GhadiRecord.Closed). */
export type Closure = 'holiday' | 'off-day';

/**
 * What a ghadi's day still waits for: its one result (jodi, panna), or an open/close market's open
 * half and then its close. Null once the day is complete; a value of no known form counts as complete.
 */
export type Awaited = 'result' | 'open' | 'close';

export function awaitedOf(kind: GhadiKind, value: string): Awaited | null {
  if (kind !== 'open-close') return value ? null : 'result';
  if (!value) return 'open';
  return stepOf(kind, value) === 'open' ? 'close' : null;
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

/** A ghadi's state on a day it may not run: a closure is neither waiting nor late. */
export type DayState = GhadiState | Closure;

export interface DayStateInput {
  ghadi: DueTimes & { Closed: Closure | null };
  /** The day's stored value, "" while there is none (an open half counts: the close is still due). */
  value: string;
  /** The value replaced an earlier one. */
  corrected: boolean;
  /** The day (YYYY-MM-DD) in the site's zone, and the zone. */
  date: string;
  timeZone: string;
  now: number;
  overdueAfterMinutes: number;
}

export interface DayStanding {
  state: DayState;
  /** What the day still waits for (null once complete): a board says "open" or "close". */
  awaited: Awaited | null;
  /** When that is due (ISO); null once complete, on a closure, or for an unreadable time. */
  dueAt: string | null;
}

/**
 * `ghadiState` for every kind and for days a ghadi does not run. A complete day is declared (or
 * corrected); a closure (holiday, off-day) is never due nor overdue, so nothing counts it late; an
 * open/close market is due at its open time, then, once the open half is in, at its close time.
 * `nextStateChangeAt(standing.dueAt, …)` is then when its state next moves by the clock.
 */
export function dayStateOf({
  ghadi,
  value,
  corrected,
  date,
  timeZone,
  now,
  overdueAfterMinutes,
}: DayStateInput): DayStanding {
  const awaited = awaitedOf(ghadi.Kind, value);
  if (awaited === null) return { state: corrected ? 'corrected' : 'declared', awaited, dueAt: null };
  if (ghadi.Closed) return { state: ghadi.Closed, awaited, dueAt: null };
  const time = awaitedTimeOf(ghadi, value) as string;
  const dueAt = dueAtOf(time, date, timeZone);
  return { state: ghadiState({ dueAt, result: null, now, overdueAfterMinutes }), awaited, dueAt };
}
