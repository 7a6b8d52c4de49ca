/**
 * How a chart's cell shows a value of each kind of ghadi (the record chart, the year and month
 * charts). A grid cell has room for a jodi, not for an open/close day's `123-68-459`: such a cell
 * shows its jodi, and carries the whole value for a tooltip and for screen readers.
 */
import { type GhadiKind, partsOf } from './matka.js';

export interface CellForm {
  /** What the grid shows. */
  shown: string;
  /** The whole value when the grid shows less of it (a tooltip and the cell's spoken name), else null. */
  whole: string | null;
}

/**
 * A jodi ghadi's value as it is. An open/close day: its jodi (`68`), or while only the open half is
 * in, the open ank and a dash for the close ank still to come (`6-`: the ✱ already means corrected).
 * A starline (panna) result as it is (`128-1`): five characters fit a cell, and the panna is half of
 * what a starline chart is read for. A value of no known form is shown as it is.
 */
export function cellFormOf(kind: GhadiKind | undefined, value: string): CellForm {
  if (kind !== 'open-close') return { shown: value, whole: null };
  const parts = partsOf(kind, value);
  if (!parts) return { shown: value, whole: null };
  return { shown: parts.Close === null ? `${parts.Jodi}-` : parts.Jodi, whole: value };
}

/** A cell's spoken name when it shows less than the whole value: the value, and its correction if any. */
export function cellLabelOf(whole: string, correction: string | null): string {
  return correction ? `${whole} (${correction})` : whole;
}

/** The kind a chart carries for a ghadi: absent for a jodi ghadi, so jodi charts stay as they were. */
export function chartKindOf(kind: GhadiKind): { Kind?: Exclude<GhadiKind, 'jodi'> } {
  return kind === 'jodi' ? {} : { Kind: kind };
}
