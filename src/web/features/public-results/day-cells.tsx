import { shortDate } from '../../../shared/date-labels.js';
import { addDays, dateInZone, timeInZone } from '../../../shared/dates.js';
import type { Language } from '../../../shared/page-language.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { NoResultCell } from '../../components/public/table-scroll.js';
import type { ResultsText } from './results-text.js';

/**
 * Whether a result was declared live: on its own date, or the day after (a ghadi due after midnight).
 * One declared later was added afterwards (imported, back-filled): its time says nothing of the game.
 */
export function declaredLive(result: PublicResultRecord, timeZone: string): boolean {
  const instant = new Date(result.DeclaredAt);
  if (Number.isNaN(instant.getTime())) return false;
  const date = dateInZone(instant, timeZone);
  return date === result.Date || date === addDays(result.Date, 1);
}

/** "14:32", with the day in front when it was declared the day after the result's ("24 Nov 04:02"). */
function declaredAt(result: PublicResultRecord, timeZone: string, language: Language): string {
  const time = timeInZone(result.DeclaredAt, timeZone);
  const date = dateInZone(new Date(result.DeclaredAt), timeZone);
  return date === result.Date ? time : `${dayAndMonth(date, language)} ${time}`;
}

/** "24 Nov" (or "24 नवंबर"): the year is the row's own. */
function dayAndMonth(date: string, language: Language): string {
  return shortDate(date, language).replace(/ \d{4}$/, '');
}

/**
 * A day's row after its date: the value in its stored form (an open/close market's open half
 * `123-6`, its whole day `123-68-459`) with its correction mark, and, when it was declared live, the
 * time in the site's zone. Today's row without a value says it is waiting and when it is due (a
 * market's open time); an earlier one says there was no result, or, on a weekday the ghadi does not
 * run, that it was closed.
 */
export function DayCells({
  result,
  state,
  due,
  offDay = false,
  timeZone,
  language,
  text,
}: {
  result: PublicResultRecord | undefined;
  state: 'past' | 'today' | 'later';
  /** When today's value is due (RTime, or an open/close market's open time); null when unknown. */
  due: string | null;
  /** A weekday the ghadi does not run. */
  offDay?: boolean;
  timeZone: string;
  language: Language;
  text: ResultsText;
}) {
  if (!result) {
    if (offDay && state !== 'later')
      return (
        <>
          <td className="n" data-testid="closed">
            {text.closed}
          </td>
          <td />
        </>
      );
    if (state === 'today' && due !== null)
      return (
        <>
          <td className="wait" data-testid="waiting">
            {text.waiting}
          </td>
          <td>{text.due(due)}</td>
        </>
      );
    return (
      <>
        {state === 'later' ? <td /> : <NoResultCell label={text.noResult} />}
        <td />
      </>
    );
  }
  const live = declaredLive(result, timeZone);
  return (
    <>
      <td className="v">
        {/* Its receipt on a tap (results view's table listener, receipt-tap.ts). */}
        <button type="button" className="rc" data-date={result.Date} aria-haspopup="dialog">
          {result.Result}
        </button>
        {result.Corrected && <CorrectionMark previous={result.Previous} language={language} />}
      </td>
      <td>
        {live && <time dateTime={result.DeclaredAt}>{declaredAt(result, timeZone, language)}</time>}
        {/* Short, to keep the row one line; the mark says it in full to screen readers. */}
        {result.Corrected && result.Previous !== null && (
          <span className="was" aria-hidden="true">
            {live && ' · '}
            {text.was(result.Previous)}
          </span>
        )}
      </td>
    </>
  );
}
