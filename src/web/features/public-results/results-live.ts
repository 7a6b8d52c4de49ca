import { twoDigits } from '../../../shared/date-labels.js';
import type { LiveEvent } from '../../../shared/live-events.js';
import { looseName } from '../../../shared/names.js';
import type { PublicGhadi, ResultsPageData } from '../../../shared/public-page-data.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';

/** What a ghadi's page shows of one month; live events keep it current. */
export type MonthData = Pick<ResultsPageData, 'name' | 'today' | 'ghadi' | 'month' | 'year' | 'results'>;

function publicGhadi({ GID, NameEn, NameHn, RTime, Kind, OpenTime, Days }: GhadiRecord): PublicGhadi {
  return { GID, NameEn, NameHn, RTime, Kind, OpenTime, Days };
}

/** Newest first, as GET /api/results/{name} lists them. */
function newestFirst(a: PublicResultRecord, b: PublicResultRecord): number {
  return a.Date < b.Date ? 1 : a.Date > b.Date ? -1 : 0;
}

/** The month's results with one day's result replaced, added or (null) removed; null when none are left. */
function withDay(
  results: PublicResultRecord[] | null,
  date: string,
  result: PublicResultRecord | null,
): PublicResultRecord[] | null {
  const others = (results ?? []).filter((row) => row.Date !== date);
  const rows = result ? [result, ...others].sort(newestFirst) : others;
  return rows.length > 0 ? rows : null;
}

/** The page's month after a live event; the same object when the event does not concern it. */
export function applyResultsEvent(data: MonthData, event: LiveEvent): MonthData {
  switch (event.kind) {
    case 'result': {
      if (data.ghadi?.GID !== event.gid) return data;
      // Deleted meanwhile: its results are no longer public.
      if (!event.ghadi) return { ...data, ghadi: null, results: null };
      const ghadi = publicGhadi(event.ghadi);
      if (!event.date.startsWith(`${data.year}-${twoDigits(data.month)}`)) return { ...data, ghadi };
      return { ...data, ghadi, results: withDay(data.results, event.date, event.result) };
    }
    case 'ghadi': {
      if (data.ghadi?.GID === event.gid)
        return event.ghadi
          ? { ...data, ghadi: publicGhadi(event.ghadi) }
          : { ...data, ghadi: null, results: null };
      // A ghadi created under the name this page was asked for.
      if (!data.ghadi && event.ghadi && looseName(event.ghadi.NameEn) === looseName(data.name))
        return { ...data, ghadi: publicGhadi(event.ghadi) };
      return data;
    }
    case 'day':
      return { ...data, today: event.today };
    default:
      return data;
  }
}
