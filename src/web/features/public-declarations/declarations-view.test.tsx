import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DeclarationsPageData } from '../../../shared/public-page-data.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import { TICKER } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { DeclarationsView } from './declarations-view.js';

function entry(seq: number, overrides: Partial<DeclarationEntry> = {}): DeclarationEntry {
  return {
    seq,
    GID: 1,
    Name: 'NCR',
    Date: '2026-11-22',
    Result: String(seq).padStart(2, '0'),
    Previous: null,
    DeclaredAt: '2026-11-22T09:02:00.000Z',
    prevHash: String(seq - 1).padStart(64, '0'),
    hash: String(seq).padStart(64, '0'),
    Step: null,
    ...overrides,
  };
}

const data = (overrides: Partial<DeclarationsPageData> = {}): DeclarationsPageData => ({
  page: 'declarations',
  siteName: 'Site',
  today: '2026-11-23',
  timeZone: 'Asia/Kolkata',
  ghadiNames: TICKER,
  head: { seq: 102, hash: 'ab'.repeat(32) },
  entries: [
    entry(102, { Result: '54', Previous: '45', DeclaredAt: '2026-11-23T03:35:00.000Z' }),
    entry(101, { Name: 'Gali', GID: 5, Date: '2026-10-31' }),
  ],
  pageNumber: 2,
  pageCount: 3,
  ...overrides,
});

/** Renders as the server does, then hydrates it; fails on any difference between the two. */
function serve(page: DeclarationsPageData) {
  return renderThenHydrate(<DeclarationsView data={page} language="en" />);
}

describe('the declaration log page', () => {
  it('lists the entries as given (newest first) with times in the site zone, corrections marked', async () => {
    await serve(data());
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Declaration Log');
    expect(screen.getByTestId('head-seq')).toHaveTextContent('102');
    expect(screen.getByTestId('head-hash')).toHaveTextContent('ab'.repeat(32));

    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.id)).toEqual(['seq-102', 'seq-101']);
    expect(rows[0]).toHaveTextContent('10223 Nov 202609:05#102NCRfor 22 Nov 202654✱corrected, was 45');
    expect(within(rows[0] as HTMLElement).getByTestId('correction-mark')).toHaveAttribute(
      'title',
      'corrected, was 45',
    );
    expect(rows[1]).toHaveTextContent('10122 Nov 202614:32#101Galifor 31 Oct 2026101');
    expect(within(rows[1] as HTMLElement).queryByTestId('correction-mark')).toBeNull();
    // Each entry links to its ghadi's month.
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'Gali' })).toHaveAttribute(
      'href',
      '/satta-results/gali?month=10&year=2026',
    );

    const pager = screen.getByRole('navigation', { name: 'Log pages' });
    expect(within(pager).getByRole('link', { name: '← Newer entries' })).toHaveAttribute(
      'href',
      '/declarations',
    );
    expect(within(pager).getByRole('link', { name: 'Older entries →' })).toHaveAttribute(
      'href',
      '/declarations?page=3',
    );
    expect(pager).toHaveTextContent('Page 2 of 3');

    const howTo = screen.getByRole('region', { name: 'How to check the log' });
    expect(howTo).toHaveTextContent(
      'prevHash + "\\n" + JSON.stringify([seq, GID, Date, Result, Previous, DeclaredAt])',
    );
    expect(howTo).toHaveTextContent('64 zeros');
    expect(howTo).toHaveTextContent('npm run verify -- URL');
    expect(howTo).toHaveTextContent('GET /api/declarations?after=0&limit=1000');
    expect(within(howTo).getByRole('link', { name: 'Atom feed' })).toHaveAttribute('href', '/feed.xml');
  });

  it('speaks to people first: what the page proves and how to check a screenshot, then the log, then the technical details', async () => {
    await serve(data());
    const main = screen.getByRole('main');
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent('Declaration Log: every result, as it was declared');
    expect(main).toHaveTextContent('Nothing here can be removed or quietly changed.');
    const screenshot = screen.getByRole('region', { name: 'Someone sent you a screenshot? Check it here' });
    expect(within(screenshot).getAllByRole('listitem')).toHaveLength(3);
    expect(screenshot).toHaveTextContent('do not trust the screenshot');
    const technical = screen.getByRole('region', { name: 'Technical details: the hash chain' });
    expect(within(technical).getByTestId('head-hash')).toHaveTextContent('ab'.repeat(32));
    expect(within(technical).getByRole('region', { name: 'How to check the log' })).toBeInTheDocument();
    // In reading order: the plain words, the log, then the hashes.
    const order = [heading, screenshot, screen.getByRole('table'), technical];
    for (const [index, element] of order.slice(1).entries()) {
      const before = order[index] as HTMLElement;
      expect(before.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
    // Nothing technical before the log.
    expect(screenshot.textContent).not.toMatch(/hash|SHA|API/i);
  });

  it('the first and last pages link one way only; a page past the end says so', async () => {
    for (const [pageNumber, links] of [
      [1, ['Older entries →']],
      [3, ['← Newer entries']],
    ] as const) {
      const page = await serve(data({ pageNumber }));
      const pager = screen.getByRole('navigation', { name: 'Log pages' });
      expect(
        within(pager)
          .getAllByRole('link')
          .map((link) => link.textContent),
        `page ${pageNumber}`,
      ).toEqual(links);
      page.unmount();
    }

    await serve(data({ pageNumber: 4, entries: [] }));
    expect(screen.getByText(/There is no page 4 of the log/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Log pages' })).toBeNull();
  });

  it('an empty log says nothing was declared yet', async () => {
    await serve(data({ head: { seq: 0, hash: '0'.repeat(64) }, entries: [], pageNumber: 1, pageCount: 1 }));
    expect(screen.getByText('Nothing has been declared yet.')).toBeInTheDocument();
    expect(screen.getByTestId('head-hash')).toHaveTextContent('0'.repeat(64));
  });
});
