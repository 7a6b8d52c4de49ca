import { timeInZone } from '../../../shared/dates.js';
import { awaitedOf, awaitedTimeOf } from '../../../shared/open-close-steps.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';

/** A due time as the admins type it ("1:45 PM", "01:45 pm", "13:45", "4 AM") in minutes after midnight; null when it is none. */
export function dueMinutes(rTime: string): number | null {
  const match =
    /^\s*(\d{1,2})(?:[:.](\d{2}))?\s*([AaPp])\.?\s*[Mm]?\.?\s*$|^\s*(\d{1,2})[:.](\d{2})\s*$/.exec(rTime);
  if (!match) return null;
  const twelveHour = match[3] !== undefined;
  const hour = Number(twelveHour ? match[1] : match[4]);
  const minute = Number((twelveHour ? match[2] : match[5]) ?? 0);
  if (minute > 59) return null;
  if (twelveHour) {
    if (hour < 1 || hour > 12) return null;
    const pm = match[3]?.toLowerCase() === 'p';
    return (hour % 12) * 60 + minute + (pm ? 12 * 60 : 0);
  }
  return hour > 23 ? null : hour * 60 + minute;
}

/** The wall-clock minutes after midnight of an instant in the site's zone; null for no instant. */
function minutesInZone(iso: string, timeZone: string): number | null {
  const clock = timeInZone(iso, timeZone);
  if (!clock) return null;
  const [hour, minute] = clock.split(':').map(Number);
  return (hour ?? 0) * 60 + (minute ?? 0);
}

/**
 * The next ghadi due: of those still waiting for today's result, the one whose due time today (site's
 * zone) is the soonest still ahead of now, the chart's order breaking ties (the chart's order need not
 * follow the clock); null when none is. A due time that cannot be read is never "next" rather than guessed.
 * An open/close market is due at its open time, then at its close; a ghadi closed today never is.
 */
export function nextDueGid(ghadis: readonly GhadiRecord[], now: string, timeZone: string): number | null {
  const nowMinutes = minutesInZone(now, timeZone);
  if (nowMinutes === null) return null;
  let next: { gid: number; due: number } | null = null;
  for (const ghadi of ghadis) {
    const time = ghadi.Closed ? null : awaitedTimeOf(ghadi, ghadi.TodayResult);
    if (time === null) continue;
    const due = dueMinutes(time);
    if (due !== null && due > nowMinutes && (next === null || due < next.due)) next = { gid: ghadi.GID, due };
  }
  return next?.gid ?? null;
}

/** Today's result is complete: an open/close market's open half still waits for its close. */
export function isComplete(ghadi: GhadiRecord): boolean {
  return awaitedOf(ghadi.Kind, ghadi.TodayResult) === null;
}

/**
 * How many ghadis have today's result, how many still wait for it, and how many do not run today
 * (a holiday, an off-day) and have nothing to wait for.
 */
export function boardCounts(ghadis: readonly GhadiRecord[]): {
  declared: number;
  waiting: number;
  closed: number;
} {
  let declared = 0;
  let closed = 0;
  for (const ghadi of ghadis) {
    if (isComplete(ghadi)) declared += 1;
    else if (ghadi.Closed) closed += 1;
  }
  return { declared, waiting: ghadis.length - declared - closed, closed };
}
