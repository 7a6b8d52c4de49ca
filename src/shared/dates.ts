/**
 * Business dates are calendar days ("YYYY-MM-DD") in the site's time zone.
 * Pure functions shared by the server and the web app.
 */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A wall-clock time: hours 00-23, minutes and seconds 00-59 (so 25:00 or 08:75 are no times). */
const TIME = String.raw`(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?`;
const LOCAL_DATE_TIME_PATTERN = new RegExp(String.raw`^(\d{4}-\d{2}-\d{2})T${TIME}$`);
const ISO_WITH_ZONE_PATTERN = new RegExp(String.raw`^\d{4}-\d{2}-\d{2}T${TIME}(?:Z|[+-]\d{2}:?\d{2})$`, 'i');

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per purpose and zone: building one costs far more than using it. */
function cachedFormatter(
  purpose: string,
  timeZone: string,
  make: (timeZone: string) => Intl.DateTimeFormat,
): Intl.DateTimeFormat {
  const key = `${purpose} ${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = make(timeZone);
    formatters.set(key, formatter);
  }
  return formatter;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  return cachedFormatter(
    'date',
    timeZone,
    (zone) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  );
}

/** True for a real calendar date written as YYYY-MM-DD (rejects 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The calendar date of an instant as seen in a time zone. */
export function dateInZone(instant: Date, timeZone: string): string {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Adds whole days to a calendar date. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

export function todayInZone(timeZone: string, now: Date = new Date()): string {
  return dateInZone(now, timeZone);
}

export function yesterdayInZone(timeZone: string, now: Date = new Date()): string {
  return addDays(todayInZone(timeZone, now), -1);
}

/**
 * The business date a submitted dateTime stands for, or null when it is none of:
 * a date ("2026-11-22"), a local date-time as datetime-local sends it ("2026-11-22T08:26"),
 * or a full ISO timestamp with a zone (its date in the site's time zone).
 */
export function businessDateOf(value: string, timeZone: string): string | null {
  const text = value.trim();
  if (DATE_PATTERN.test(text)) return isCalendarDate(text) ? text : null;
  const local = LOCAL_DATE_TIME_PATTERN.exec(text);
  if (local) return isCalendarDate(local[1] ?? '') ? (local[1] ?? null) : null;
  if (ISO_WITH_ZONE_PATTERN.test(text)) {
    if (!isCalendarDate(text.slice(0, 10))) return null;
    const instant = new Date(text);
    return Number.isNaN(instant.getTime()) ? null : dateInZone(instant, timeZone);
  }
  return null;
}

/** The business date as the API's DateTime: that day at UTC midnight. */
export function businessDateToIso(date: string): string {
  return `${date}T00:00:00.000Z`;
}

/**
 * The wall-clock time (24 h, "14:32") of an ISO instant in a time zone; "" for a value that is no
 * instant. Built from the parts with an explicit zone and hour cycle, so that the server's render and
 * the browser's hydration agree whatever either's locale and zone.
 */
export function timeInZone(iso: string, timeZone: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return '';
  const formatter = cachedFormatter(
    'clock',
    timeZone,
    (zone) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
  );
  const parts = formatter.formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('hour')}:${part('minute')}`;
}
