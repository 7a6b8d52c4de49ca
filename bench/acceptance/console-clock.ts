/**
 * The console group's clock (console-checks.ts): the site's zone, chosen where it is day now, and what
 * the board must say of an RTime, reckoned here from outside (not with the app's src/shared/ghadi-due.ts).
 * Zones without daylight saving only, so that a wall time today is one fixed offset from UTC.
 */

/** Where the runner's zone is near midnight, one of these is near midday (offsets −10 to +14 h). */
const CANDIDATE_ZONES = [
  'Asia/Kolkata',
  'Asia/Tokyo',
  'Europe/Moscow',
  'Asia/Dubai',
  'America/Sao_Paulo',
  'America/Bogota',
  'Pacific/Honolulu',
  'Pacific/Kiritimati',
];

/** The group's RTimes reach from 2 h back to 3 h ahead; keep them, with a margin, within today. */
const EARLIEST_MINUTE = 2 * 60 + 15;
const LATEST_MINUTE = 24 * 60 - 3 * 60 - 15;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const two = (value: number) => String(value).padStart(2, '0');

/** The zone's wall clock at an instant, as if it were UTC (epoch ms, to the second). */
function wallAt(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

/** How far the zone's clocks are ahead of UTC (ms). */
function offsetAt(instant: number, zone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return wallAt(whole, zone) - whole;
}

export interface SiteClock {
  zone: string;
  /** Today in the zone (YYYY-MM-DD) when the group started. */
  today: string;
  yesterday: string;
  /** The zone's offset from UTC, ms (the same all day: no daylight saving). */
  offsetMs: number;
  /** The zone's wall time at `instant` as an RTime: "h:mm AM/PM" or, with `twentyFour`, "HH:mm". */
  rTimeAt(instant: number, twentyFour?: boolean): string;
  /** The ISO instant the board must give as dueAt for an RTime on a date (today by default); null for one it cannot read. */
  dueAtOf(rTime: string, date?: string): string | null;
}

/** The zone's date at an instant. */
export function dateIn(instant: number, zone: string): string {
  return new Date(wallAt(instant, zone)).toISOString().slice(0, 10);
}

/**
 * The first candidate (the runner's zone first) where the clock is between 02:15 and 20:45 and the
 * offset has not changed for days: RTimes from 2 h ago to 3 h ahead all fall today.
 */
export function chooseClock(preferred: string, now = Date.now()): SiteClock {
  const zone = [preferred, ...CANDIDATE_ZONES].find((candidate) => {
    // The same offset from 3 days back (the oldest date the group declares) to tomorrow.
    const offset = offsetAt(now, candidate);
    if ([-3, -2, -1, 1].some((days) => offsetAt(now + days * DAY_MS, candidate) !== offset)) return false;
    const minute = Math.floor(((now + offset) % DAY_MS) / MINUTE_MS);
    return minute >= EARLIEST_MINUTE && minute <= LATEST_MINUTE;
  });
  if (!zone) throw new Error('no candidate zone is between 02:15 and 20:45 now');
  const offsetMs = offsetAt(now, zone);
  const today = dateIn(now, zone);
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
  return {
    zone,
    today,
    yesterday,
    offsetMs,
    rTimeAt(instant, twentyFour = false) {
      const wall = new Date(instant + offsetMs);
      const [hour, minute] = [wall.getUTCHours(), wall.getUTCMinutes()];
      if (twentyFour) return `${two(hour)}:${two(minute)}`;
      return `${hour % 12 || 12}:${two(minute)} ${hour < 12 ? 'AM' : 'PM'}`;
    },
    dueAtOf(rTime, date = today) {
      const time = readRTime(rTime);
      if (!time) return null;
      const wall = Date.parse(`${date}T${two(time.hour)}:${two(time.minute)}:00Z`);
      return new Date(wall - offsetMs).toISOString();
    },
  };
}

/** "h:mm AM/PM" (12 AM midnight, 12 PM noon) or "HH:mm", as the issue reads an RTime; else null. */
function readRTime(rTime: string): { hour: number; minute: number } | null {
  const twelve = /^(\d{1,2}):(\d{2})\s*([AP])\.?M\.?$/i.exec(rTime.trim());
  if (twelve) {
    const [hour, minute] = [Number(twelve[1]), Number(twelve[2])];
    if (hour < 1 || hour > 12 || minute > 59) return null;
    return { hour: (hour % 12) + (twelve[3]?.toUpperCase() === 'P' ? 12 : 0), minute };
  }
  const twentyFour = /^(\d{1,2}):(\d{2})$/.exec(rTime.trim());
  if (twentyFour) {
    const [hour, minute] = [Number(twentyFour[1]), Number(twentyFour[2])];
    return hour <= 23 && minute <= 59 ? { hour, minute } : null;
  }
  return null;
}

export type BoardState = 'waiting' | 'due' | 'overdue' | 'declared' | 'corrected';

/** A ghadi's state at `now` by the rule. */
export function expectedState(
  dueAt: string | null,
  result: { corrected: boolean } | null,
  now: number,
  overdueAfterMinutes: number,
): BoardState {
  if (result) return result.corrected ? 'corrected' : 'declared';
  if (dueAt === null || now < Date.parse(dueAt)) return 'waiting';
  return now < Date.parse(dueAt) + overdueAfterMinutes * MINUTE_MS ? 'due' : 'overdue';
}
