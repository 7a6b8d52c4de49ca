import { type ReactNode, useRef } from 'react';
import { useOverflows } from '../../hooks/use-overflows.js';

export function Card({
  title,
  children,
  actions,
}: {
  title?: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          {title && <h2 className="text-lg font-semibold text-slate-900">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

export function PageTitle({ children }: { children: ReactNode }) {
  return <h1 className="mb-4 text-xl font-bold text-slate-900 sm:text-2xl">{children}</h1>;
}

/**
 * Wide tables scroll inside their own box, never the page. While the box scrolls it takes focus, so
 * the arrow keys scroll it (WCAG 2.1.1: a table of text has nothing else to focus), and is a region
 * named `label`; when everything fits, it is a plain box and no extra stop for the Tab key.
 */
export function TableScroller({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const scrolls = useOverflows(box);
  return (
    <div
      ref={box}
      className="-mx-4 overflow-x-auto px-4 focus-visible:outline-2 focus-visible:outline-indigo-600 sm:mx-0 sm:px-0"
      {...(scrolls ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
}
