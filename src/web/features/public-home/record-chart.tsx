import { monthCharted, monthChartPath } from '../../../shared/chart-pages.js';
import { twoDigits, yearMonthLabel } from '../../../shared/date-labels.js';
import { DAYS, recordGrid } from '../../../shared/month-tables.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { HOME_TEXT } from './home-text.js';

function Cell({ result, language }: { result: PublicResultRecord | undefined; language: Language }) {
  if (!result) return <td />;
  return (
    <td>
      {result.Result}
      {result.Corrected && <CorrectionMark previous={result.Previous} language={language} />}
    </td>
  );
}

/** 31 day rows of the month (UTC) by ghadi; the table scrolls sideways inside its box, never the page. */
export function RecordChart({
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
    <section id="record" aria-labelledby="record-title" className="scroll-mt-4">
      <h2 id="record-title" className="text-xl font-bold text-slate-900">
        {text.heading}
      </h2>
      {/* The record month is UTC's: before the site's zone reaches it, it has no chart page yet. */}
      {monthCharted(month, today) && (
        <p className="mt-1 text-sm">
          <a
            href={inLanguage(language, monthChartPath(month))}
            className="font-medium text-indigo-800 underline underline-offset-2 hover:text-indigo-950"
          >
            {text.fullChart(label)}
          </a>
        </p>
      )}
      <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        {/* Cell styles are in public-styles.css: 31 rows × every ghadi would repeat classes thousands of times. */}
        <table className="day-table record-table w-full border-collapse text-center text-sm">
          <caption className="bg-slate-800 px-3 py-2 text-left font-semibold text-white">
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
                  {ghadiName(ghadi, language)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {DAYS.map((day) => (
              <tr key={day} aria-current={day === todayDay ? 'date' : undefined}>
                <th scope="row">{twoDigits(day)}</th>
                {ghadis.map((ghadi) => (
                  <Cell key={ghadi.GID} result={grid.get(ghadi.NameEn)?.get(day)} language={language} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {corrections.length > 0 && (
        <p className="mt-2 text-xs text-slate-600" data-testid="record-corrections">
          <span aria-hidden="true" className="font-bold text-amber-600">
            ✱
          </span>{' '}
          {text.corrected} {corrections.join(' · ')}
        </p>
      )}
    </section>
  );
}
