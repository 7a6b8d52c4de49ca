/**
 * When a ghadi's result is due today, and where it stands: read from its `RTime` ("1:45 PM" or
 * "13:45") in the site's time zone. Pure, so that the server's board and the browser's countdowns
 * agree; zones are read through Intl, so any IANA zone and its daylight-saving days work.
 */

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
