/**
 * How the pages read and write dates (YYYY-MM-DD) and months: "November 2026", "22 Nov 2026".
 * Pure: shared by the server and the web app.
 */

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

export function yearOf(date: string): number {
  return Number(date.slice(0, 4));
}

export function monthOf(date: string): number {
  return Number(date.slice(5, 7));
}

export function monthLabel(month: number, year: number): string {
  return `${MONTH_NAMES[month - 1] ?? ''} ${year}`;
}

/** "2026-11" as "November 2026". */
export function yearMonthLabel(yearMonth: string): string {
  return monthLabel(Number(yearMonth.slice(5, 7)), Number(yearMonth.slice(0, 4)));
}

/** "2026-11-22" as "22 November 2026". */
export function longDate(date: string): string {
  return `${Number(date.slice(8, 10))} ${monthLabel(monthOf(date), yearOf(date))}`;
}

/** "2026-11-22" as "22 Nov 2026". */
export function shortDate(date: string): string {
  return `${Number(date.slice(8, 10))} ${MONTH_NAMES[monthOf(date) - 1]?.slice(0, 3) ?? ''} ${yearOf(date)}`;
}

export function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}
