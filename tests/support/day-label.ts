/** "28 Nov" (or its Hindi form): a result's date as the notifications word it, made here independently. */
export function dayLabel(date: string, locale = 'en-GB'): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}
