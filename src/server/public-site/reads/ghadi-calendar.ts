import { TZDate } from '@date-fns/tz';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalEventRepeatingFreq, ICalWeekday } from 'ical-generator';
import { addDays } from '../../../shared/dates.js';
import { parseResultTime, type WallTime } from '../../../shared/ghadi-due.js';
import { CALENDAR_TYPE } from '../../../shared/ghadi-feed-paths.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { ALL_DAYS, weekdayOf } from '../../../shared/matka.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { SITE_NAME } from '../../../shared/site.js';
import { type CachedAnswer, type PrepareOptions, prepareAnswer } from '../model/cached-answer.js';

/**
 * The result-time calendars (/calendar.ics, /satta-results/{name}/calendar.ics): one recurring event
 * per ghadi at its RTime, and one at its open time for an open/close market, in the site's zone
 * (events carry its TZID, and the calendar its VTIMEZONE), on the weekdays it runs.
 */

/**
 * Every series starts here (the first day on or after it that the ghadi runs) and every event is
 * stamped with it: the bytes then change only when a ghadi does, so a calendar's ETag holds until
 * the ghadi list is dropped.
 */
const SERIES_START = '2026-01-01';
const STAMP = new Date(`${SERIES_START}T00:00:00Z`);
/** How long an event lasts: the calendar marks a moment, but a zero-length event hides in most views. */
const EVENT_MINUTES = 15;
/** How often a subscribed calendar is read again (REFRESH-INTERVAL): ghadis seldom change their times. */
const REFRESH_SECONDS = 6 * 60 * 60;
/** UIDs are the ghadi's and the kind's, under one fixed domain whatever address served them. */
const UID_DOMAIN = 'ghadi-results.calendar';

/** RFC 5545's weekday names by JavaScript's numbers (0 = Sunday). */
const WEEKDAYS = [
  ICalWeekday.SU,
  ICalWeekday.MO,
  ICalWeekday.TU,
  ICalWeekday.WE,
  ICalWeekday.TH,
  ICalWeekday.FR,
  ICalWeekday.SA,
] as const;

export type CalendarEventKind = 'result' | 'open';

/** A ghadi's event of one kind, identified the same in every calendar and every build. */
export const calendarUid = (gid: number, kind: CalendarEventKind) => `ghadi-${gid}-${kind}@${UID_DOMAIN}`;

/** The first day of the series on which the ghadi runs (its Days, every day when it lists none). */
function firstRunningDay(days: readonly number[]): string {
  for (let offset = 0; offset < 7; offset += 1) {
    const date = addDays(SERIES_START, offset);
    if (days.includes(weekdayOf(date))) return date;
  }
  return SERIES_START;
}

/** The wall-clock moment in the site's zone (TZDate: ical-generator writes its zone's fields, not the server's). */
function wallClock(date: string, time: WallTime, timeZone: string, plusMinutes = 0): TZDate {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new TZDate(year, month - 1, day, time.hour, time.minute + plusMinutes, timeZone);
}

/**
 * A calendar of `ghadis` with absolute addresses under `origin`. A ghadi whose time cannot be read
 * (RTime is free text to the API) has no event of that kind.
 */
export function ghadiCalendar(
  origin: string,
  title: string,
  ghadis: readonly GhadiRecord[],
  timeZone: string,
): string {
  const calendar = ical({
    name: title,
    prodId: { company: SITE_NAME, product: 'Result times', language: 'EN' },
    // No zone on the calendar itself: DTSTAMP stays UTC, as RFC 5545 asks. The generator still
    // writes a VTIMEZONE for the zone the events name.
    timezone: { name: null, generator: getVtimezoneComponent },
    ttl: REFRESH_SECONDS,
  });
  for (const ghadi of ghadis) {
    const days = ghadi.Days.length > 0 ? ghadi.Days : ALL_DAYS;
    const daily = ALL_DAYS.every((day) => days.includes(day));
    const url = `${origin}${ghadiPagePath(ghadi.NameEn)}`;
    const start = firstRunningDay(days);
    const times: Array<[CalendarEventKind, string | null]> = [
      ['open', ghadi.Kind === 'open-close' ? ghadi.OpenTime : null],
      ['result', ghadi.RTime],
    ];
    for (const [kind, text] of times) {
      const time = text === null ? null : parseResultTime(text);
      if (time === null || text === null) continue;
      const what = kind === 'open' ? 'open' : 'result';
      const hindi = ghadi.NameHn.trim() === '' ? '' : `${ghadi.NameHn} (${ghadi.NameEn})`;
      calendar.createEvent({
        id: calendarUid(ghadi.GID, kind),
        start: wallClock(start, time, timeZone),
        end: wallClock(start, time, timeZone, EVENT_MINUTES),
        timezone: timeZone,
        stamp: STAMP,
        summary: `${ghadi.NameEn} ${what}`,
        description: [hindi, `${ghadi.NameEn} ${what} at ${text} (${timeZone}).`, url]
          .filter(Boolean)
          .join('\n'),
        url,
        repeating: daily
          ? { freq: ICalEventRepeatingFreq.DAILY }
          : {
              freq: ICalEventRepeatingFreq.WEEKLY,
              byDay: days.map((day) => WEEKDAYS[day] ?? ICalWeekday.SU),
            },
      });
    }
  }
  // RFC 5545 ends every content line with CRLF, the last too; the library leaves the last bare.
  return `${calendar.toString().replace(/\r\n$/, '')}\r\n`;
}

export function calendarAnswer(
  origin: string,
  title: string,
  ghadis: readonly GhadiRecord[],
  timeZone: string,
  options: PrepareOptions,
): Promise<CachedAnswer> {
  return prepareAnswer(200, CALENDAR_TYPE, ghadiCalendar(origin, title, ghadis, timeZone), options);
}
