import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PageSummary, Pagination, pageNumberWidths, pageOf, pageWindow } from './pagination.js';

/** The container width (px) from which each page number shows, read from its classes; 0 for always. */
function shownFrom(): Map<string, number> {
  const widths = new Map<string, number>();
  for (const button of within(screen.getByRole('navigation')).getAllByRole('button', { name: /^Page / })) {
    const item = button.closest('li') as HTMLElement;
    const threshold = /@min-\[(\d+)px\]/.exec(item.className);
    const hidden = item.classList.contains('hidden');
    widths.set(button.textContent ?? '', hidden ? Number(threshold?.[1] ?? Number.POSITIVE_INFINITY) : 0);
  }
  return widths;
}

/** A 360 px phone leaves a card 294 px for its content (page and card padding, borders). */
const PHONE_CARD = 294;

describe('pageWindow', () => {
  it('offers five numbers around the page, kept five long at either end', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 22_000)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(5_000, 22_000)).toEqual([4_998, 4_999, 5_000, 5_001, 5_002]);
    expect(pageWindow(22_000, 22_000)).toEqual([21_996, 21_997, 21_998, 21_999, 22_000]);
  });
});

describe('pageNumberWidths', () => {
  it('always shows the current page, then the nearest numbers first, as the width allows', () => {
    const widths = pageNumberWidths(5_000, pageWindow(5_000, 22_000), 'compact');
    expect(widths.get(5_000)).toBe(0);
    const needed = (page: number) => widths.get(page) ?? 0;
    // In pairs, one either side, so the window stays centred.
    expect(needed(4_999)).toBe(needed(5_001));
    expect(needed(4_998)).toBe(needed(5_002));
    expect(needed(4_999)).toBeLessThan(needed(4_998));
    // At the first page the window runs on to the right, still two at a time.
    const start = pageNumberWidths(1, pageWindow(1, 22_000), 'compact');
    expect(start.get(2)).toBe(start.get(3));
    expect(start.get(4)).toBe(start.get(5));
    expect(start.get(2)).toBeLessThan(start.get(4) ?? 0);
    // Wider numbers need more room than short ones at the same distance.
    expect(pageNumberWidths(2, [1, 2, 3], 'compact').get(3)).toBeLessThan(needed(5_001));
    // Thumb-sized buttons need more room than compact ones.
    expect(pageNumberWidths(5_000, pageWindow(5_000, 22_000), 'touch').get(4_999)).toBeGreaterThan(
      needed(4_999),
    );
  });
});

describe('Pagination', () => {
  it('is a labelled nav with first, previous, the window, next and last, the current page marked', async () => {
    const onPage = vi.fn();
    render(<Pagination page={5_000} pageCount={22_000} onPage={onPage} label="Results pages" />);
    const nav = screen.getByRole('navigation', { name: 'Results pages' });
    expect(
      within(nav)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'First page',
      'Previous page',
      'Page 4998',
      'Page 4999',
      'Page 5000',
      'Page 5001',
      'Page 5002',
      'Next page',
      'Last page',
    ]);
    expect(within(nav).getByRole('button', { name: 'Page 5000' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('button', { name: 'Page 5001' })).not.toHaveAttribute('aria-current');

    for (const [name, page] of [
      ['First page', 1],
      ['Previous page', 4_999],
      ['Page 5002', 5_002],
      ['Next page', 5_001],
      ['Last page', 22_000],
    ] as const) {
      await userEvent.click(within(nav).getByRole('button', { name }));
      expect(onPage).toHaveBeenLastCalledWith(page);
    }
  });

  it('fits a phone: large page numbers show alone beside the arrows, short ones with their neighbours', () => {
    const { rerender } = render(<Pagination page={5_000} pageCount={22_000} onPage={() => {}} />);
    const large = shownFrom();
    expect(large.get('5000')).toBe(0);
    for (const page of ['4998', '4999', '5001', '5002']) {
      expect(large.get(page)).toBeGreaterThan(PHONE_CARD);
      expect(large.get(page)).toBeLessThanOrEqual(640);
    }

    rerender(<Pagination page={2} pageCount={3} onPage={() => {}} />);
    expect(shownFrom()).toEqual(
      new Map([
        ['1', expect.any(Number)],
        ['2', 0],
        ['3', expect.any(Number)],
      ]),
    );
    for (const width of shownFrom().values()) expect(width).toBeLessThanOrEqual(PHONE_CARD);

    // Thumb-sized buttons leave room for the current page alone on a phone.
    rerender(<Pagination page={2} pageCount={3} onPage={() => {}} size="touch" />);
    expect(shownFrom().get('1')).toBeGreaterThan(PHONE_CARD);
  });

  it('disables the way back on the first page and the way on at the last', () => {
    const { rerender } = render(<Pagination page={1} pageCount={3} onPage={() => {}} />);
    expect(screen.getByRole('button', { name: 'First page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeEnabled();
    rerender(<Pagination page={3} pageCount={3} onPage={() => {}} />);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Last page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'First page' })).toBeEnabled();
  });

  it('is not shown when everything fits on one page', () => {
    render(<Pagination page={1} pageCount={1} onPage={() => {}} />);
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });
});

describe('PageSummary', () => {
  it('counts the results of one page, or shows which rows of how many on which page', () => {
    const { container, rerender } = render(
      <PageSummary pagination={{ page: 1, limit: 10, total: 1, totalPages: 1 }} rows={1} />,
    );
    expect(container).toHaveTextContent(/^1 result$/);
    rerender(<PageSummary pagination={{ page: 1, limit: 15, total: 12, totalPages: 1 }} rows={12} />);
    expect(container).toHaveTextContent(/^12 results$/);
    rerender(<PageSummary pagination={{ page: 3, limit: 5, total: 110_000, totalPages: 22_000 }} rows={5} />);
    expect(container).toHaveTextContent('Showing 11–15 of 1,10,000 · Page 3 of 22,000');
    rerender(
      <PageSummary pagination={{ page: 22_000, limit: 5, total: 109_998, totalPages: 22_000 }} rows={3} />,
    );
    expect(container).toHaveTextContent('Showing 1,09,996–1,09,998 of 1,09,998 · Page 22,000 of 22,000');
    rerender(<PageSummary pagination={{ page: 9, limit: 5, total: 12, totalPages: 3 }} rows={0} />);
    expect(container).toHaveTextContent(/^No rows on page 9\.$/);
  });
});

describe('pageOf', () => {
  it('slices a short list, showing the last page for a page past the end', () => {
    const rows = Array.from({ length: 23 }, (_, index) => index + 1);
    expect(pageOf(rows, 3, 10)).toEqual({ rows: [21, 22, 23], page: 3, pageCount: 3 });
    expect(pageOf(rows, 9, 10).page).toBe(3);
    expect(pageOf([], 1, 10)).toEqual({ rows: [], page: 1, pageCount: 1 });
  });
});
