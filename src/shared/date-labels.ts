/**
 * How the pages read and write dates (YYYY-MM-DD) and months: "November 2026", "22 Nov 2026".
 * Pure: shared by the server and the web app.
 */
import type { Language } from './page-language.js';

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

/** The months as Hindi pages name them. */
export const HINDI_MONTH_NAMES = [
  'जनवरी',
  'फ़रवरी',
  'मार्च',
  'अप्रैल',
  'मई',
  'जून',
  'जुलाई',
  'अगस्त',
  'सितंबर',
  'अक्टूबर',
  'नवंबर',
  'दिसंबर',
] as const;

/** A month's name (1-12) in a page's language. */
export function monthName(month: number, language: Language = 'en'): string {
  return (language === 'hi' ? HINDI_MONTH_NAMES : MONTH_NAMES)[month - 1] ?? '';
}

export function yearOf(date: string): number {
  return Number(date.slice(0, 4));
}

export function monthOf(date: string): number {
  return Number(date.slice(5, 7));
}

export function monthLabel(month: number, year: number, language: Language = 'en'): string {
  return `${monthName(month, language)} ${year}`;
}

/** "2026-11" as "November 2026" (or "नवंबर 2026"). */
export function yearMonthLabel(yearMonth: string, language: Language = 'en'): string {
  return monthLabel(Number(yearMonth.slice(5, 7)), Number(yearMonth.slice(0, 4)), language);
}

/** "2026-11-22" as "22 November 2026" (or "22 नवंबर 2026"). */
export function longDate(date: string, language: Language = 'en'): string {
  return `${Number(date.slice(8, 10))} ${monthLabel(monthOf(date), yearOf(date), language)}`;
}

/**
 * "2026-11-22" as "22 Nov 2026". Hindi has no customary three-letter months, so a Hindi page names
 * the month in full ("22 नवंबर 2026").
 */
export function shortDate(date: string, language: Language = 'en'): string {
  const month = language === 'hi' ? monthName(monthOf(date), language) : monthName(monthOf(date)).slice(0, 3);
  return `${Number(date.slice(8, 10))} ${month} ${yearOf(date)}`;
}

export function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}
