import { todayInZone } from '../../../shared/dates.js';

/** Admins may date results from 2000 up to tomorrow (a late-night ghadi may be entered early). */
const EARLIEST_DATE = '2000-01-01';

/** The dates an admin may give a result: a submission's, or a line's of an import. */
export function adminDateRange(timeZone: string): { earliest: string; latest: string } {
  return {
    earliest: EARLIEST_DATE,
    latest: todayInZone(timeZone, new Date(Date.now() + 24 * 60 * 60 * 1000)),
  };
}
