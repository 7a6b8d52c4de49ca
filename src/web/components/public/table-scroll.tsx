import type { ReactNode } from 'react';
import './table-scroll-styles.css';

/**
 * A wide table's box: it scrolls sideways by itself (never the page) and can be scrolled from the
 * keyboard, so it takes focus and is named by the heading `labelledBy` names. Above it, a word that
 * it scrolls: on narrow screens, or on every screen when the table is wider than any (`wide`).
 */
export function TableScroll({
  labelledBy,
  hint,
  wide = false,
  children,
}: {
  labelledBy: string;
  hint: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div>
      <p className={wide ? 'table-hint table-hint-always' : 'table-hint'} aria-hidden="true">
        {hint}
      </p>
      {/* Named, a section is a region: screen readers list it among the page's landmarks. */}
      <section
        className="table-scroll overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus to be scrolled by keyboard (WCAG 2.1.1).
        tabIndex={0}
        aria-labelledby={labelledBy}
      >
        {children}
      </section>
    </div>
  );
}

/**
 * A past date's cell without a result: a dash, named for screen readers (a blank would read as a
 * date still to come). Its look is the table's (class n).
 */
export function NoResultCell({ label, current }: { label: string; current?: boolean }) {
  return (
    <td className="n" aria-label={label} aria-current={current ? 'date' : undefined}>
      –
    </td>
  );
}
