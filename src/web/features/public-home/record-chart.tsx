import { twoDigits, yearMonthLabel } from '../../../shared/date-labels.js';
import { DAYS, recordGrid } from '../../../shared/month-tables.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';

function Cell({ result }: { result: PublicResultRecord | undefined }) {
  if (!result) return <td />;
  return (
    <td>
      {result.Result}
      {result.Corrected && <CorrectionMark previous={result.Previous} />}
    </td>
  );
}

/** 31 day rows of the month (UTC) by ghadi; the table scrolls sideways inside its box, never the page. */
export function RecordChart({
  ghadis,
  results,
  month,
  today,
}: {
  ghadis: GhadiRecord[];
  results: PublicResultRecord[];
  /** YYYY-MM */
  month: string;
  today: string;
}) {
  const grid = recordGrid(results, month);
  const todayDay = today.startsWith(month) ? Number(today.slice(8, 10)) : 0;
  // Spelled out under the chart as well: a tooltip cannot be read on a touch screen.
  const corrections = ghadis.flatMap((ghadi) =>
    DAYS.flatMap((day) => {
      const result = grid.get(ghadi.NameEn)?.get(day);
      return result?.Corrected && result.Previous !== null
        ? [`${ghadi.NameEn} ${twoDigits(day)}: was ${result.Previous}`]
        : [];
    }),
  );
  return (
    <section id="record" aria-labelledby="record-title" className="scroll-mt-4">
      <h2 id="record-title" className="text-xl font-bold text-slate-900">
        Monthly Record Chart
      </h2>
      <div className="mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        {/* Cell styles are in public-styles.css: 31 rows × every ghadi would repeat classes thousands of times. */}
        <table className="day-table record-table w-full border-collapse text-center text-sm">
          <caption className="bg-slate-800 px-3 py-2 text-left font-semibold text-white">
            Record chart – {yearMonthLabel(month)}
          </caption>
          <thead>
            <tr className="bg-slate-100">
              <th scope="col" className="sticky left-0 z-10 bg-slate-100 px-2 py-2 text-slate-700">
                Day
              </th>
              {ghadis.map((ghadi) => (
                <th
                  key={ghadi.GID}
                  scope="col"
                  className="min-w-[4.5rem] px-2 py-2 font-semibold text-slate-700"
                >
                  {ghadi.NameEn}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {DAYS.map((day) => (
              <tr key={day} aria-current={day === todayDay ? 'date' : undefined}>
                <th scope="row">{twoDigits(day)}</th>
                {ghadis.map((ghadi) => (
                  <Cell key={ghadi.GID} result={grid.get(ghadi.NameEn)?.get(day)} />
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
          Corrected after it was first declared: {corrections.join(' · ')}
        </p>
      )}
    </section>
  );
}
