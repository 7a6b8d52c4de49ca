import type { ReactNode } from 'react';
import type { Pagination as PageInfo } from '../../../shared/schemas/common.js';

type PagerSize = 'compact' | 'touch';

interface PaginationProps {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  label?: string;
  /** `touch` gives 44 px targets, for the screens agents use on their phones. */
  size?: PagerSize;
}

/** At most this many page numbers around the current one; the pager shows fewer when its box is narrow. */
const WINDOW = 5;

/**
 * Pixel sizes the pager is built from, used to decide which page numbers fit the width it has.
 * A digit is counted at 9 px (text-sm digits are 7.5 to 9 px wide depending on the font), so the
 * estimate errs towards showing a number fewer rather than wrapping onto a second row.
 */
const GEOMETRY = {
  compact: { button: 36, padding: 16, className: 'h-9 min-w-9 px-2' },
  touch: { button: 44, padding: 20, className: 'h-11 min-w-11 px-2.5' },
} as const;
const DIGIT_WIDTH = 9;
const GAP = 4;
const BORDER = 2;

/**
 * Container widths at which a page number appears. Written out in full so Tailwind generates each
 * class; a number needing more than the last one never shows (the current page always does).
 */
const SHOWN_FROM = [
  [200, '@min-[200px]:inline-flex'],
  [220, '@min-[220px]:inline-flex'],
  [240, '@min-[240px]:inline-flex'],
  [260, '@min-[260px]:inline-flex'],
  [280, '@min-[280px]:inline-flex'],
  [300, '@min-[300px]:inline-flex'],
  [320, '@min-[320px]:inline-flex'],
  [340, '@min-[340px]:inline-flex'],
  [360, '@min-[360px]:inline-flex'],
  [380, '@min-[380px]:inline-flex'],
  [400, '@min-[400px]:inline-flex'],
  [420, '@min-[420px]:inline-flex'],
  [440, '@min-[440px]:inline-flex'],
  [460, '@min-[460px]:inline-flex'],
  [480, '@min-[480px]:inline-flex'],
  [500, '@min-[500px]:inline-flex'],
  [520, '@min-[520px]:inline-flex'],
  [560, '@min-[560px]:inline-flex'],
  [600, '@min-[600px]:inline-flex'],
  [640, '@min-[640px]:inline-flex'],
] as const;

/** The page numbers to offer: up to five around the current page, kept five long at either end. */
export function pageWindow(page: number, pageCount: number): number[] {
  const length = Math.min(WINDOW, pageCount);
  const start = Math.min(Math.max(1, page - Math.floor(WINDOW / 2)), pageCount - length + 1);
  return Array.from({ length }, (_, index) => start + index);
}

/**
 * Each number of the window with the container width it needs to be shown. The current page always
 * shows; the others join in pairs, nearest first (one either side, so the window stays centred),
 * each pair when the row would still fit with it: the four arrow buttons, the numbers shown, each
 * as wide as the widest of them, and the gaps.
 */
export function pageNumberWidths(page: number, window: number[], size: PagerSize) {
  const { button, padding } = GEOMETRY[size];
  const byNearness = [...window].sort((a, b) => Math.abs(a - page) - Math.abs(b - page) || a - b);
  const needed = new Map<number, number>();
  byNearness.forEach((number, index) => {
    if (index === 0) {
      needed.set(number, 0);
      return;
    }
    const shown = byNearness.slice(0, 2 * Math.ceil(index / 2) + 1);
    const digits = Math.max(...shown.map((shownNumber) => String(shownNumber).length));
    const numberWidth = Math.max(button, digits * DIGIT_WIDTH + padding + BORDER);
    needed.set(number, 4 * button + shown.length * numberWidth + (shown.length + 3) * GAP);
  });
  return needed;
}

function visibilityClass(width: number): string {
  if (width === 0) return 'inline-flex';
  const threshold = SHOWN_FROM.find(([min]) => min >= width);
  return threshold ? `hidden ${threshold[1]}` : 'hidden';
}

const BUTTON =
  'items-center justify-center rounded-md border text-sm font-medium tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed';
const IDLE = 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-300';
const CURRENT = 'border-indigo-600 bg-indigo-600 text-white';

function Arrow({ path }: { path: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="size-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}

const ARROWS = {
  first: 'M15 15l-5-5 5-5M9 15l-5-5 5-5',
  previous: 'M12.5 15l-5-5 5-5',
  next: 'M7.5 5l5 5-5 5',
  last: 'M5 5l5 5-5 5M11 5l5 5-5 5',
};

/**
 * First, previous, a window of page numbers, next and last, on one row at any width down to a
 * 360 px phone: the window shrinks to what fits its box (a container query), down to the current
 * page alone. Hidden when everything fits on one page.
 */
export function Pagination({ page, pageCount, onPage, label = 'Pages', size = 'compact' }: PaginationProps) {
  if (pageCount <= 1) return null;
  const current = Math.min(Math.max(1, page), pageCount);
  const numbers = pageWindow(current, pageCount);
  const widths = pageNumberWidths(current, numbers, size);
  const sizing = GEOMETRY[size].className;

  const arrow = (name: string, target: number, disabled: boolean, icon: ReactNode) => (
    <li>
      <button
        type="button"
        aria-label={name}
        disabled={disabled}
        onClick={() => onPage(target)}
        className={`inline-flex ${BUTTON} ${IDLE} ${sizing}`}
      >
        {icon}
      </button>
    </li>
  );

  return (
    <div className="@container">
      <nav aria-label={label}>
        <ul className="flex flex-nowrap items-center gap-1">
          {arrow('First page', 1, current <= 1, <Arrow path={ARROWS.first} />)}
          {arrow('Previous page', current - 1, current <= 1, <Arrow path={ARROWS.previous} />)}
          {numbers.map((number) => (
            <li key={number} className={visibilityClass(widths.get(number) ?? 0)}>
              <button
                type="button"
                aria-label={`Page ${number}`}
                aria-current={number === current ? 'page' : undefined}
                onClick={() => onPage(number)}
                className={`inline-flex ${BUTTON} ${number === current ? CURRENT : IDLE} ${sizing}`}
              >
                {number}
              </button>
            </li>
          ))}
          {arrow('Next page', current + 1, current >= pageCount, <Arrow path={ARROWS.next} />)}
          {arrow('Last page', pageCount, current >= pageCount, <Arrow path={ARROWS.last} />)}
        </ul>
      </nav>
    </div>
  );
}

const count = (value: number) => value.toLocaleString('en-IN');

/**
 * What a page of a server-paged list holds, announced politely as it changes: "12 results" when one
 * page holds them all, else "Showing 11–15 of 10,950 · Page 3 of 2,190". The two parts never break
 * inside, so a narrow screen wraps between them.
 */
export function PageSummary({
  pagination,
  rows,
  noun = ['result', 'results'],
}: {
  pagination: PageInfo;
  rows: number;
  /** What a row is, one and many, for "12 results". */
  noun?: readonly [string, string];
}) {
  const { page, limit, total, totalPages } = pagination;
  const first = (page - 1) * limit + 1;
  let shown: string;
  if (rows === 0) shown = `No rows on page ${count(page)}.`;
  else if (totalPages <= 1) shown = `${count(total)} ${total === 1 ? noun[0] : noun[1]}`;
  else shown = `Showing ${count(first)}–${count(first + rows - 1)} of ${count(total)}`;
  return (
    <p aria-live="polite" className="text-sm text-slate-600">
      <span className="whitespace-nowrap">{shown}</span>
      {totalPages > 1 && rows > 0 && (
        <>
          {' '}
          <span className="whitespace-nowrap">
            · Page {count(page)} of {count(totalPages)}
          </span>
        </>
      )}
    </p>
  );
}

/** The rows of one page of a short list held in memory; a page past the end shows the last page instead. */
export function pageOf<T>(
  rows: T[],
  page: number,
  pageSize: number,
): { rows: T[]; page: number; pageCount: number } {
  const pageCount = Math.max(1, Math.ceil(rows.length / pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  return { rows: rows.slice((current - 1) * pageSize, current * pageSize), page: current, pageCount };
}
