import { Button } from './button.js';

interface PaginationProps {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  label?: string;
}

/** Page-number buttons, as the spec's lists have; hidden when everything fits on one page. */
export function Pagination({ page, pageCount, onPage, label = 'Pages' }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-1">
      <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      {Array.from({ length: pageCount }, (_, index) => index + 1).map((number) => (
        <Button
          key={number}
          size="sm"
          variant={number === page ? 'primary' : 'secondary'}
          aria-current={number === page ? 'page' : undefined}
          aria-label={`Page ${number}`}
          onClick={() => onPage(number)}
        >
          {number}
        </Button>
      ))}
      <Button size="sm" variant="secondary" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

/** The rows of one page; a page past the end shows the last page instead. */
export function pageOf<T>(
  rows: T[],
  page: number,
  pageSize: number,
): { rows: T[]; page: number; pageCount: number } {
  const pageCount = Math.max(1, Math.ceil(rows.length / pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  return { rows: rows.slice((current - 1) * pageSize, current * pageSize), page: current, pageCount };
}
