import type { Language } from '../../../shared/page-language.js';
import './receipt-styles.css';

/**
 * A tapped value's receipt. The pages carry only this: the panel that reads and shows the receipt
 * (receipt-panel.tsx) is loaded on the first tap, so that no page's script grows by it.
 */
export interface ReceiptAsked {
  gid: number;
  /** The ghadi's name as the page shows it. */
  name: string;
  date: string;
  /** The value the page shows (the log may have a newer one). */
  shown: string;
  language: Language;
  timeZone: string;
  /** What takes the focus back when the panel closes. */
  opener: HTMLElement;
}

export function openReceipt(asked: ReceiptAsked): void {
  void import('./receipt-panel.js').then((panel) => panel.showReceipt(asked));
}

type Tap = { target: EventTarget | null };
type Ghadi = Omit<ReceiptAsked, 'date' | 'shown' | 'opener'>;

/** A tap in a ghadi's month: on a value's button (day-cells.tsx), which names its date. */
export function tapMonthValue(event: Tap, ghadi: Ghadi | null): void {
  const button = event.target instanceof Element ? event.target.closest('button[data-date]') : null;
  if (!ghadi || !(button instanceof HTMLElement)) return;
  openReceipt({ ...ghadi, date: button.dataset.date ?? '', shown: button.textContent ?? '', opener: button });
}

/**
 * A tap in a year chart (day rows, month columns) on a day with a value. Cells stay plain (372 of
 * them): one listener on the table finds the day by the cell's place and the value in the chart.
 */
export function tapYearCell(
  event: Tap,
  ghadi: Omit<Ghadi, 'gid'>,
  chart: { GID: number; year: number; months: ReadonlyArray<ReadonlyArray<{ Result: string } | null>> },
): void {
  const cell = event.target instanceof Element ? event.target.closest('tbody td') : null;
  if (!(cell instanceof HTMLTableCellElement)) return;
  const month = cell.cellIndex;
  const day = (cell.parentElement as HTMLTableRowElement).sectionRowIndex + 1;
  const value = chart.months[month - 1]?.[day - 1];
  if (!value) return;
  const two = (number: number) => String(number).padStart(2, '0');
  openReceipt({
    ...ghadi,
    gid: chart.GID,
    date: `${chart.year}-${two(month)}-${two(day)}`,
    shown: value.Result,
    opener: cell,
  });
}
