import { runsOn } from '../../../shared/matka.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { useHolidays } from '../../api/holidays-api.js';
import { weekdayNameOf } from '../../lib/ghadi-days-text.js';

export interface Closure {
  reason: 'holiday' | 'off-day';
  text: string;
}

/**
 * Why the ghadi does not run on the chosen date, or null: the server refuses an agent's result then
 * (409), so the form says so before the agent types. Today's answer is the ghadi's own Closed (the
 * server's, in the site's zone); for yesterday the form reads the holidays and the ghadi's Days. The
 * holidays add their note, and one added since the ghadis were read.
 */
export function useDayClosure(ghadi: GhadiRecord, date: string, today: string): Closure | null {
  const holidays = useHolidays();
  const holiday = holidays.data?.find(
    (entry) => entry.Date === date && (entry.GID === null || entry.GID === ghadi.GID),
  );
  if (holiday || (date === today && ghadi.Closed === 'holiday')) {
    return {
      reason: 'holiday',
      text: holiday?.Note ? `Closed for a holiday (${holiday.Note})` : 'Closed for a holiday',
    };
  }
  const offDay = date === today ? ghadi.Closed === 'off-day' : !runsOn(ghadi.Days, date);
  return offDay ? { reason: 'off-day', text: `Does not run on ${weekdayNameOf(date)}s` } : null;
}

/** The closure, said where the agent looks before typing; the form still sends (the server decides). */
export function ClosureNotice({ closure, date }: { closure: Closure; date: string }) {
  return (
    <div
      role="status"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <strong className="block font-semibold">{closure.text}</strong>
      <span>
        No result is due for <span className="whitespace-nowrap">{date}</span>: the server refuses one from an
        agent. Ask an admin if a result must be declared.
      </span>
    </div>
  );
}
