import type { ReactNode } from 'react';
import { cellFormOf, cellLabelOf } from '../../../shared/chart-cell-form.js';
import { correctionLabel } from '../../../shared/correction-label.js';
import type { GhadiKind } from '../../../shared/matka.js';
import type { Language } from '../../../shared/page-language.js';
import type { ChartCell } from '../../../shared/schemas/charts.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { NoResultCell, TableScroll } from '../../components/public/table-scroll.js';
import { CHART_TEXT } from './chart-text.js';
import './chart-styles.css';

/** The one heading each chart page has; its table and scroll box are named by it. */
export const CHART_TITLE_ID = 'chart-title';

export const linkClass =
  'inline-flex min-h-6 items-center font-medium text-indigo-800 underline decoration-indigo-300 underline-offset-2 hover:text-indigo-950 hover:decoration-indigo-800';

const pillClass =
  'inline-block rounded-md bg-white px-3 py-1.5 text-sm font-medium text-indigo-800 shadow-sm ring-1 ring-slate-200 hover:bg-indigo-50';

/** The table's box, named by the page's heading; `wide` when its columns outgrow a wide screen. */
export function ChartScroll({
  language,
  wide,
  children,
}: {
  language: Language;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <TableScroll labelledBy={CHART_TITLE_ID} hint={CHART_TEXT[language].scrollHint} wide={wide}>
      {children}
    </TableScroll>
  );
}

/**
 * A date's cell. Cells carry no class lists: a year chart has 372 of them and must stay light, so
 * chart-styles.css styles them through the table and two short classes (n: no result, x: no such day).
 * A cell of an open/close market shows its jodi (chart-cell-form.ts) and is named by the whole value,
 * which its title shows on hover (and TappedCells on a tap).
 */
export function ResultCell({
  cell,
  past,
  current,
  kind,
  language,
}: {
  cell: ChartCell;
  /** Before today: a missing result is marked as such, not left blank as a date still to come. */
  past: boolean;
  /** Today's cell (the year chart marks the cell; the monthly chart marks the whole row instead). */
  current?: boolean;
  /** The ghadi's kind (a jodi ghadi's when absent). */
  kind?: GhadiKind;
  language: Language;
}) {
  const currentDate = current ? 'date' : undefined;
  if (cell) {
    const { shown, whole } = cellFormOf(kind, cell.Result);
    const correction = cell.Corrected ? correctionLabel(null, language) : null;
    return (
      <td
        aria-current={currentDate}
        title={whole ?? undefined}
        aria-label={whole ? cellLabelOf(whole, correction) : undefined}
      >
        {shown}
        {cell.Corrected && <ChartCorrectionMark language={language} />}
      </td>
    );
  }
  if (past) return <NoResultCell label={CHART_TEXT[language].noResult} current={current} />;
  return <td aria-current={currentDate} />;
}

/** A day the month does not have (30 February): hatched, with no text. */
export function MissingDay({ language, span }: { language: Language; span?: number }) {
  return <td className="x" colSpan={span} aria-label={CHART_TEXT[language].noSuchDay} />;
}

/** The chart has no previous value to name, so the mark says only that the value was corrected. */
function ChartCorrectionMark({ language }: { language: Language }) {
  return <CorrectionMark previous={null} language={language} />;
}

/** What every chart's legend says first: the marks of an empty cell and of a corrected value. */
export function CommonLegendItems({ language }: { language: Language }) {
  const t = CHART_TEXT[language];
  return (
    <>
      <li>
        <span aria-hidden="true" className="chart-legend-n">
          –
        </span>{' '}
        {t.noResult}
      </li>
      <li>
        <span aria-hidden="true" className="chart-legend-c">
          ✱
        </span>{' '}
        {t.corrected}
      </li>
    </>
  );
}

/**
 * What the marks mean: a tooltip cannot be read on a touch screen. The symbols are spoken in each
 * cell. Only the marks the table can show are listed.
 */
export function ChartLegend({
  language,
  missingDays,
  today,
  openHalf = false,
}: {
  language: Language;
  missingDays: boolean;
  today: boolean;
  /** The chart has an open/close market, whose open half shows as `6-`. */
  openHalf?: boolean;
}) {
  const t = CHART_TEXT[language];
  return (
    <ul className="chart-legend">
      <CommonLegendItems language={language} />
      {openHalf && (
        <li>
          <span aria-hidden="true" className="chart-legend-n">
            6-
          </span>{' '}
          {t.openHalf}
        </li>
      )}
      {missingDays && (
        <li>
          <span aria-hidden="true" className="chart-legend-x" /> {t.noSuchDay}
        </li>
      )}
      {today && (
        <li>
          <span aria-hidden="true" className="chart-legend-t" /> {t.today}
        </li>
      )}
    </ul>
  );
}

/** A row of page links (home, results, previous and next): plain full loads. */
export function PageLinks({ label, children }: { label: string; children: ReactNode }) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-2">
      {children}
    </nav>
  );
}

export function PillLink({ href, rel, children }: { href: string; rel?: string; children: ReactNode }) {
  return (
    <a href={href} rel={rel} className={pillClass}>
      {children}
    </a>
  );
}
