import { dueAtOf } from '../../src/shared/ghadi-due.js';
import { SITE_TIMEZONE } from './test-app.js';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

const wallFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SITE_TIMEZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant as the site's clocks show it: its date and its time as an RTime ("HH:mm"). */
export function wall(instant: number): { date: string; time: string } {
  const parts = wallFormat.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
  };
}

/** When a ghadi with this RTime is due on a date of the site's zone (epoch ms). */
export const dueAt = (rTime: string, date: string) =>
  Date.parse(dueAtOf(rTime, date, SITE_TIMEZONE) ?? 'none');

/** Milliseconds as minutes to one decimal, as the punctuality figures give them. */
export const minutes = (milliseconds: number) => Math.round((milliseconds / MINUTE) * 10) / 10;

/** Noon of a date in the site's zone (Asia/Kolkata, +05:30), epoch ms. */
export const noonOf = (date: string) => Date.parse(`${date}T12:00:00+05:30`);
