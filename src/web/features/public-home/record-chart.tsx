import { Fragment, memo } from 'react';
import { cellFormOf, cellLabelOf } from '../../../shared/chart-cell-form.js';
import { daysInMonth, monthCharted, monthChartPath } from '../../../shared/chart-pages.js';
import { correctionLabel } from '../../../shared/correction-label.js';
import { twoDigits, yearMonthLabel } from '../../../shared/date-labels.js';
import type { GhadiKind } from '../../../shared/matka.js';
import { DAYS, recordGrid } from '../../../shared/month-tables.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { NameText } from '../../components/public/ghadi-name.js';
import { NoResultCell, TableScroll } from '../../components/public/table-scroll.js';
import { TappedCells } from '../../components/public/tapped-cell.js';
import { HOME_TEXT } from './home-text.js';

/**
 * A day's value: an open/close market's shows its jodi (chart-cell-form.ts) and is named by the whole
 * value, which its title shows on hover (and TappedCells on a tap).
 */
function Cell({
  result,
  past,
  kind,
  language,
}: {
  result: PublicResultRecord | undefined;
  /** Before today: a missing result is marked as such, not left blank as a date still to come. */
  past: boolean;
  kind: GhadiKind;
  language: Language;
}) {
  if (!result) return past ? <NoResultCell label={HOME_TEXT[language].record.noResult} /> : <td />;
  const { shown, whole } = cellFormOf(kind, result.Result);
  const correction = result.Corrected ? correctionLabel(result.Previous, language) : null;
  return (
    <td title={whole ?? undefined} aria-label={whole ? cellLabelOf(whole, correction) : undefined}>
      {shown}
      {result.Corrected && <CorrectionMark previous={result.Previous} language={language} />}
    </td>
  );
}

/** Past this many ghadis the chart is wider than a wide screen's page: its scroll hint stays. */
const WIDE_COLUMNS = 8;

/**
 * 31 day rows of the month (UTC) by ghadi. The table scrolls sideways inside its box (never the
 * page), from the keyboard too, with the Day column held in view. Memoized: the home page's clock
 * re-renders the page each half minute, and a month's cells by every ghadi need not follow it.
 */
export const RecordChart = memo(function RecordChart({
  ghadis,
  results,
  month,
  today,
  language,
}: {
  ghadis: GhadiRecord[];
  results: PublicResultRecord[];
  /** YYYY-MM */
  month: string;
  today: string;
  language: Language;
}) {
  const text = HOME_TEXT[language].record;
  const label = yearMonthLabel(month, language);
  const grid = recordGrid(results, month);
  const todayDay = today.startsWith(month) ? Number(today.slice(8, 10)) : 0;
  // The spec's 31 rows whatever the month: a day it lacks is never a missing result.
  const length = daysInMonth(Number(month.slice(0, 4)), Number(month.slice(5, 7)));
  // An open/close market's cells show its jodi: a tap shows the whole value (a jodi chart is as it was).
  const Cells = ghadis.some((ghadi) => ghadi.Kind === 'open-close') ? TappedCells : Fragment;
  // Spelled out under the chart as well: a tooltip cannot be read on a touch screen.
  const corrections = ghadis.flatMap((ghadi) =>
    DAYS.flatMap((day) => {
      const result = grid.get(ghadi.NameEn)?.get(day);
      return result?.Corrected && result.Previous !== null
        ? [text.was(ghadiName(ghadi, language), twoDigits(day), result.Previous)]
        : [];
    }),
  );
  return (
    <section id="record" aria-labelledby="record-title" className="later scroll-mt-4">
      <h2 id="record-title" className="text-xl font-bold text-slate-900">
        {text.heading}
      </h2>
      {/* The record month is UTC's: before the site's zone reaches it, it has no chart page yet. */}
      {monthCharted(month, today) && (
        <p className="mt-1 text-sm">
          <a
            href={inLanguage(language, monthChartPath(month))}
            className="inline-flex min-h-6 items-center font-medium text-indigo-800 underline underline-offset-2 hover:text-indigo-950"
          >
            {text.fullChart(label)}
          </a>
        </p>
      )}
      <div className="mt-3">
        <Cells>
          <TableScroll labelledBy="record-caption" hint={text.scrollHint} wide={ghadis.length > WIDE_COLUMNS}>
            {/* Cell styles are in public-styles.css: 31 rows × every ghadi would repeat classes thousands of times. */}
            <table className="day-table record-table w-full border-collapse text-center text-sm">
              <caption
                id="record-caption"
                className="bg-slate-800 px-3 py-2 text-left font-semibold text-white"
              >
                {text.caption(label)}
              </caption>
              <thead>
                <tr className="bg-slate-100">
                  <th scope="col" className="sticky left-0 z-10 bg-slate-100 px-2 py-2 text-slate-700">
                    {text.day}
                  </th>
                  {ghadis.map((ghadi) => (
                    <th
                      key={ghadi.GID}
                      scope="col"
                      className="min-w-[4.5rem] px-2 py-2 font-semibold text-slate-700"
                    >
                      <NameText name={ghadiName(ghadi, language)} language={language} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {DAYS.map((day) => (
                  <tr key={day} aria-current={day === todayDay ? 'date' : undefined}>
                    <th scope="row">{twoDigits(day)}</th>
                    {ghadis.map((ghadi) => (
                      <Cell
                        key={ghadi.GID}
                        result={grid.get(ghadi.NameEn)?.get(day)}
                        past={day <= length && `${month}-${twoDigits(day)}` < today}
                        kind={ghadi.Kind}
                        language={language}
                      />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Cells>
      </div>
      {corrections.length > 0 && (
        <p className="mt-2 text-sm text-slate-600" data-testid="record-corrections">
          <span aria-hidden="true" className="font-bold text-amber-700">
            ✱
          </span>{' '}
          {text.corrected} {corrections.join(' · ')}
        </p>
      )}
    </section>
  );
});
