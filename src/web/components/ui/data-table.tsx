import type { ReactNode } from 'react';
import { TableScroller } from './card.js';

export interface DataColumn {
  label: string;
  /** The header still names the column for screen readers, but shows nothing (e.g. an actions column). */
  hideLabel?: boolean;
  /** Lets a long header break onto two lines, so it is no wider than its values on a phone. */
  wrap?: boolean;
  /** Extra header classes, e.g. `hidden sm:table-cell` for a column a phone folds into another. */
  className?: string;
}

/** Cells keep to one line: on a phone the table scrolls sideways instead of growing very tall rows. */
const CELL_BASE = 'px-2 py-2 align-middle text-slate-800 sm:px-3';
export const CELL = `whitespace-nowrap ${CELL_BASE}`;
/** For long names that may break onto more lines (adding whitespace-normal to CELL would lose to nowrap). */
export const WRAP_CELL = `break-words ${CELL_BASE}`;

/**
 * A table that scrolls inside its own box on a phone, with a caption and column headers scoped
 * for screen readers. The caption is visually hidden because the card around it shows a heading.
 */
export function DataTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: DataColumn[];
  children: ReactNode;
}) {
  return (
    <TableScroller label={caption}>
      {/* relative: visually hidden (absolutely positioned) labels stay inside the scroll box; otherwise
          a hidden header at the far right would widen the whole page on a phone. */}
      <table className="relative min-w-full divide-y divide-slate-200 text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={`${column.wrap ? '' : 'whitespace-nowrap'} px-2 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600 sm:px-3 ${column.className ?? ''}`}
              >
                {column.hideLabel ? <span className="sr-only">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">{children}</tbody>
      </table>
    </TableScroller>
  );
}
