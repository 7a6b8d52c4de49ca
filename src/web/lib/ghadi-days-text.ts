/**
 * A ghadi's kind, times and weekdays in words, for the admin's list and form and the agent's form.
 * Weekday numbers are the API's (0 = Sunday … 6 = Saturday); lists read Monday first, as the matka
 * week (and the weekly charts) does.
 */
import { ALL_DAYS, type GhadiKind, mondayFirst, weekdayOf } from '../../shared/matka.js';

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const WEEKDAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export const KIND_LABELS: Record<GhadiKind, string> = {
  jodi: 'Jodi (one value a day)',
  panna: 'Panna (starline)',
  'open-close': 'Open/close market',
};

/** The list's badge: short, so that it fits beside a name on a phone. */
export const KIND_BADGES: Record<GhadiKind, string> = {
  jodi: 'Jodi',
  panna: 'Panna',
  'open-close': 'Open/close',
};

/** The weekday of a calendar date, by name: "Sunday". */
export function weekdayNameOf(date: string): string {
  return WEEKDAY_NAMES[weekdayOf(date)] ?? date;
}

/**
 * The days a ghadi runs: "Every day", a run of three or more days as a range ("Mon–Sat"), other
 * days listed ("Mon, Wed, Fri"), Monday first.
 */
export function daysText(days: readonly number[]): string {
  if (ALL_DAYS.every((day) => days.includes(day))) return 'Every day';
  const ordered = mondayFirst(days);
  // Positions in the Monday-first week, so that Sunday follows Saturday.
  const position = (day: number) => (day + 6) % 7;
  const runs: number[][] = [];
  for (const day of ordered) {
    const last = runs.at(-1);
    const previous = last?.at(-1);
    if (last && previous !== undefined && position(day) === position(previous) + 1) last.push(day);
    else runs.push([day]);
  }
  return runs
    .flatMap((run) => {
      const names = run.map((day) => WEEKDAY_SHORT[day] as string);
      return run.length >= 3 ? [`${names[0]}–${names.at(-1)}`] : names;
    })
    .join(', ');
}

/** A ghadi's times: "open 3:45 PM · close 5:45 PM" for an open/close market, else its result time. */
export function timesText(ghadi: { Kind: GhadiKind; OpenTime: string | null; RTime: string }): string {
  return ghadi.Kind === 'open-close' && ghadi.OpenTime
    ? `open ${ghadi.OpenTime} · close ${ghadi.RTime}`
    : ghadi.RTime;
}
