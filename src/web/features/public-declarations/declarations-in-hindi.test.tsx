import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DeclarationsPageData } from '../../../shared/public-page-data.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import { TICKER } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { DeclarationsView } from './declarations-view.js';

const entry = (seq: number, overrides: Partial<DeclarationEntry> = {}): DeclarationEntry => ({
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
});

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

describe('the declaration log in Hindi', () => {
  it('says everything in Hindi and links to the Hindi pages', async () => {
    await renderThenHydrate(<DeclarationsView data={data()} language="hi" />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('घोषणा लॉग: हर रिज़ल्ट, जैसा घोषित हुआ');
    expect(screen.getByRole('region', { name: 'किसी ने स्क्रीनशॉट भेजा है? यहाँ जाँचें' })).toHaveTextContent(
      'स्क्रीनशॉट पर भरोसा न करें',
    );
    expect(screen.getByRole('region', { name: 'तकनीकी जानकारी: हैश-शृंखला' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'लॉग का शीर्ष' })).toHaveTextContent('नवीनतम एंट्री102');
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((head) => head.textContent),
    ).toEqual(['#', 'घोषित', 'घड़ी', 'रिज़ल्ट']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('10223 नवंबर 202609:05#102NCRतारीख़ 22 नवंबर 202654✱सुधारा गया, पहले 45 था');
    const gali = within(rows[1] as HTMLElement).getByRole('link', { name: 'Gali' });
    expect(gali).toHaveAttribute('href', '/hi/satta-results/gali?month=10&year=2026');
    expect(gali).toHaveAttribute('lang', 'en');

    const pager = screen.getByRole('navigation', { name: 'लॉग के पेज' });
    expect(within(pager).getByRole('link', { name: '← नई एंट्री' })).toHaveAttribute(
      'href',
      '/hi/declarations',
    );
    expect(within(pager).getByRole('link', { name: 'पुरानी एंट्री →' })).toHaveAttribute(
      'href',
      '/hi/declarations?page=3',
    );
    expect(pager).toHaveTextContent('पेज 2 (कुल 3)');
    const howTo = screen.getByRole('region', { name: 'लॉग की जाँच कैसे करें' });
    expect(howTo).toHaveTextContent('npm run verify -- URL');
    expect(within(howTo).getByRole('link', { name: 'Atom फ़ीड' })).toHaveAttribute('href', '/feed.xml');

    const toEnglish = screen.getByTestId('language-switch');
    expect(toEnglish).toHaveAttribute('href', '/declarations?page=2');
    expect(toEnglish).toHaveAttribute('hreflang', 'en');
  });

  it('a page past the end says so in Hindi; the English page switches to /hi', async () => {
    const hindi = await renderThenHydrate(
      <DeclarationsView data={data({ pageNumber: 4, entries: [] })} language="hi" />,
    );
    expect(screen.getByText(/लॉग का पेज 4 मौजूद नहीं है।/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'नवीनतम एंट्री देखें' })).toHaveAttribute('href', '/hi/declarations');
    hindi.unmount();

    await renderThenHydrate(<DeclarationsView data={data()} language="en" />);
    expect(screen.getByTestId('language-switch')).toHaveAttribute('href', '/hi/declarations?page=2');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});
