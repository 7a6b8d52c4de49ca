import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import type { HomePageData } from '../../../shared/public-page-data.js';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { HomeView } from './home-view.js';

const TODAY = '2026-11-23';
/** 14:00 in Kolkata. */
const AT_TWO_PM = `${TODAY}T08:30:00.000Z`;

const data = (): HomePageData => ({
  page: 'home',
  version: 1,
  siteName: 'Site',
  today: TODAY,
  timeZone: 'Asia/Kolkata',
  updatedAt: AT_TWO_PM,
  recordMonth: '2026-11',
  ghadis: [
    ghadiRecord(1, {
      NameEn: 'NCR',
      NameHn: 'एनसीआर',
      RTime: '1:45 PM',
      TodayResult: '54',
      Corrected: true,
      Previous: '45',
      DeclaredAt: `${TODAY}T08:22:10.000Z`,
    }),
    ghadiRecord(3, { NameEn: 'Delhi Bazar', NameHn: 'दिल्ली बाज़ार', RTime: '2:45 PM' }),
    // No Hindi name: a Hindi page shows the English one.
    ghadiRecord(5, { NameEn: 'Gali', NameHn: '', RTime: '11:15 PM' }),
  ],
  record: [resultRecord(1, '2026-11-22', '54', { Name: 'NCR', Corrected: true, Previous: '45' })],
  blogHtml: null,
  bannerHtml: null,
});

const serve = (language: Language) => renderThenHydrate(<HomeView initial={data()} language={language} />);

function card(name: string): HTMLElement {
  return screen.getByRole('link', { name }).closest('li') as HTMLElement;
}

describe('the home page in Hindi', () => {
  // The board reckons "Next" from the browser's clock once hydrated: the test's clock, not the wall's,
  // so that it reads 14:00 in Kolkata whatever the hour the test runs at.
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse(AT_TWO_PM), toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says everything in Hindi and names the ghadis by NameHn', async () => {
    await serve('hi');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('आज के सट्टा रिज़ल्ट – लाइव चार्ट');
    expect(screen.getByRole('heading', { name: 'लाइव रिज़ल्ट चार्ट' })).toBeInTheDocument();
    expect(screen.getByText('आज 23 नवंबर 2026 है। रिज़ल्ट घोषित होते ही यहाँ दिखते हैं।')).toBeInTheDocument();

    expect(within(card('एनसीआर')).getByTestId('state')).toHaveTextContent(/^घोषित 13:52 बजे$/);
    expect(within(card('एनसीआर')).getByTestId('today')).toHaveTextContent('पहले 45');
    expect(within(card('दिल्ली बाज़ार')).getByTestId('state')).toHaveTextContent(/^अगला इंतज़ार में समय 2:45 PM$/);
    expect(within(card('Gali')).getByTestId('waiting')).toHaveTextContent('इंतज़ार');
    expect(within(card('दिल्ली बाज़ार')).getByText('कल')).toBeInTheDocument();
    // The English name under the Hindi one, marked as English.
    expect(within(card('दिल्ली बाज़ार')).getByText('Delhi Bazar')).toHaveAttribute('lang', 'en');
    expect(screen.getByTestId('board-counts')).toHaveTextContent(/^आज 1 घोषित · 2 इंतज़ार में$/);
    expect(screen.getByTestId('last-updated')).toHaveTextContent(/^अंतिम अपडेट 14:00 \(Asia\/Kolkata समय\)$/);

    const record = screen.getByRole('table', { name: 'रिकॉर्ड चार्ट – नवंबर 2026' });
    expect(
      within(record)
        .getAllByRole('columnheader')
        .map((head) => head.textContent),
    ).toEqual(['दिन', 'एनसीआर', 'दिल्ली बाज़ार', 'Gali']);
    expect(screen.getByTestId('record-corrections')).toHaveTextContent(
      '✱ पहली घोषणा के बाद सुधारे गए: एनसीआर 22: पहले 45',
    );
    expect(screen.getByRole('region', { name: 'Site – गेम रेट' })).toHaveTextContent('जोड़ी रेट10 के 1050');
    expect(
      within(screen.getByRole('table', { name: 'रिज़ल्ट समय सारणी' }))
        .getAllByRole('rowheader')
        .map((row) => row.textContent),
    ).toContain('दिल्ली बाज़ार');
    expect(screen.getByRole('heading', { name: 'ब्लॉग' })).toBeInTheDocument();
    expect(screen.getByText('यह अनुभाग नहीं मिला।')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'विज़िटर' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('© 2026 Site. सर्वाधिकार सुरक्षित।');
  });

  it('links to the Hindi pages, and its switch to the English page', async () => {
    await serve('hi');
    expect(screen.getByRole('link', { name: 'एनसीआर' })).toHaveAttribute('href', '/hi/satta-results/ncr');
    expect(screen.getByRole('link', { name: 'नवंबर 2026 का पूरा चार्ट →' })).toHaveAttribute(
      'href',
      '/hi/chart/2026-11',
    );
    const nav = screen.getByRole('navigation', { name: 'मुख्य' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['होम', '/hi'],
      ['लाइव चार्ट', '/hi#chart'],
      ['रिकॉर्ड चार्ट', '/hi#record'],
      ['समय सारणी', '/hi#time-table'],
      ['ब्लॉग', '/hi#blog'],
      ['मासिक चार्ट', '/hi/chart/2026-11'],
    ]);
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'घोषणा लॉग' })).toHaveAttribute(
      'href',
      '/hi/declarations',
    );
    expect(within(footer).getByRole('link', { name: 'साइटमैप' })).toHaveAttribute('href', '/sitemap.xml');

    const toEnglish = screen.getByTestId('language-switch');
    expect(toEnglish).toHaveTextContent('English');
    expect(toEnglish).toHaveAttribute('href', '/');
    expect(toEnglish).toHaveAttribute('hreflang', 'en');
    expect(toEnglish).toHaveAttribute('lang', 'en');
    expect(screen.getByRole('navigation', { name: 'शेयर करें' })).toBeInTheDocument();
  });

  it('the English page keeps its text, marks Hindi names as Hindi, and switches to /hi', async () => {
    await serve('en');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Satta Results Today – Live Chart');
    expect(within(card('Delhi Bazar')).getByText('दिल्ली बाज़ार')).toHaveAttribute('lang', 'hi');
    expect(screen.getByRole('link', { name: 'Delhi Bazar' })).toHaveAttribute(
      'href',
      '/satta-results/delhi%20bazar',
    );
    expect(screen.getByRole('link', { name: 'Full chart of November 2026 →' })).toHaveAttribute(
      'href',
      '/chart/2026-11',
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Charts' })).toHaveAttribute('href', '/chart/2026-11');
    expect(within(nav).getByRole('link', { name: 'Live Chart' })).toHaveAttribute('href', '/#chart');
    const toHindi = screen.getByTestId('language-switch');
    expect(toHindi).toHaveTextContent('हिन्दी');
    expect(toHindi).toHaveAttribute('href', '/hi');
    expect(toHindi).toHaveAttribute('hreflang', 'hi');
    expect(toHindi).toHaveAttribute('lang', 'hi');
  });
});
