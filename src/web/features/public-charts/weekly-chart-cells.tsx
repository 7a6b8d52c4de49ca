import { Fragment, type ReactNode } from 'react';
import type { Language } from '../../../shared/page-language.js';
import type { WeekCell, WeeklyChart } from '../../../shared/schemas/charts.js';
import type { WeeklyView } from '../../../shared/weekly-chart-pages.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { NoResultCell } from '../../components/public/table-scroll.js';
import { CHART_TEXT } from './chart-text.js';
import { WEEKLY_TABLE_TEXT } from './weekly-table-text.js';

type ResultCell = Extract<WeekCell, { Result: string }>;

/**
 * The part of an open half still to come: stars, as matka charts write it; said in words once
 * (`spoken`), where the cell's last part is.
 */
function ToCome({ stars, spoken, language }: { stars: string; spoken: boolean; language: Language }) {
  return (
    <>
      <span aria-hidden="true" className="p">
        {stars}
      </span>
      {spoken && <span className="sr-only"> ({WEEKLY_TABLE_TEXT[language].closeToCome})</span>}
    </>
  );
}

/**
 * What a result shows. Jodi view: the jodi (an open half's open ank and a star for the close ank; a
 * starline panna's ank). Panel view, stacked: open panna, jodi, close panna (a starline result: its
 * panna and ank). The correction mark ends the last part.
 */
function ResultParts({
  cell,
  kind,
  view,
  language,
}: {
  cell: ResultCell;
  kind: WeeklyChart['Kind'];
  view: WeeklyView;
  language: Language;
}) {
  const pending = kind === 'open-close' && cell.Close === null;
  const mark = cell.Corrected && <CorrectionMark previous={null} language={language} />;
  const jodi = (
    <>
      {cell.Jodi}
      {pending && <ToCome stars="*" spoken={view === 'jodi'} language={language} />}
    </>
  );
  if (view === 'jodi')
    return (
      <>
        {jodi}
        {mark}
      </>
    );
  const parts: ReactNode[] = [];
  if (cell.Open !== '') parts.push(cell.Open);
  parts.push(jodi);
  if (kind === 'open-close')
    parts.push(pending ? <ToCome stars="***" spoken language={language} /> : cell.Close);
  // Spaces between the parts: copied or read aloud, they stay apart.
  return parts.map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts are in a fixed order, never moved.
    <Fragment key={index}>
      {index > 0 && ' '}
      <span>
        {part}
        {index === parts.length - 1 && mark}
      </span>
    </Fragment>
  ));
}

/** A weekday's cell of a week: a result, a holiday, nothing (yet), or a date of another year. */
export function DayCell({
  cell,
  date,
  chart,
  view,
  today,
  language,
}: {
  cell: WeekCell;
  date: string;
  chart: WeeklyChart;
  view: WeeklyView;
  today: string;
  language: Language;
}) {
  const current = date === today ? 'date' : undefined;
  if (!date.startsWith(`${chart.year}-`))
    return <td className="x" aria-label={WEEKLY_TABLE_TEXT[language].notInYear(chart.year)} />;
  if (cell === null) {
    if (date < today)
      return <NoResultCell label={CHART_TEXT[language].noResult} current={current !== undefined} />;
    return <td aria-current={current} />;
  }
  if ('Holiday' in cell)
    return (
      <td className="h" aria-current={current}>
        {WEEKLY_TABLE_TEXT[language].holiday}
      </td>
    );
  return (
    <td aria-current={current}>
      <ResultParts cell={cell} kind={chart.Kind} view={view} language={language} />
    </td>
  );
}
