import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import type { ResultsPageData } from '../../../shared/public-page-data.js';
import { renderThenHydrate } from '../../test/render.js';
import { resultsPageData } from '../../test/results-page-data.js';
import { PublicResultsView } from './public-results-view.js';

const data = resultsPageData;

const serve = (page: ResultsPageData, language: Language) =>
  renderThenHydrate(<PublicResultsView initial={page} language={language} />);

const rowText = (day: number) => within(screen.getByRole('table')).getAllByRole('row')[day]?.textContent;

const yearOptions = () =>
  within(screen.getByLabelText(/Year|साल/))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('a ghadi’s month in Hindi', () => {
  it('says everything in Hindi, names the ghadi by NameHn, and links to the Hindi pages', async () => {
    await serve(data(), 'hi');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^गली सट्टा रिज़ल्ट$/);
    expect(screen.getByText('Gali')).toHaveAttribute('lang', 'en');
    expect(screen.getByText(/रिज़ल्ट का समय 11:15 PM/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← चार्ट पर वापस' })).toHaveAttribute('href', '/hi');
    expect(screen.getByRole('link', { name: 'गली चार्ट 2026 (सभी महीने) →' })).toHaveAttribute(
      'href',
      '/hi/satta-results/gali/2026',
    );
    const month = screen.getByLabelText('महीना');
    expect(month).toHaveValue('11');
    expect(within(month).getAllByRole('option')[10]).toHaveTextContent('नवंबर');
    expect(yearOptions()).toEqual(['2026', '2025', '2024', '2023', '2022']);

    expect(screen.getByRole('table', { name: 'गली रिज़ल्ट – नवंबर 2026' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((head) => head.textContent),
    ).toEqual(['दिन', 'रिज़ल्ट', 'घोषित']);
    expect(rowText(22)).toBe('2254✱ (सुधारा गया, पहले 45 था)23 नवंबर 09:05 · पहले 45');
    expect(rowText(21)).toBe('210714:32');
    expect(rowText(23)).toBe('23इंतज़ार मेंसमय 11:15 PM');

    const toEnglish = screen.getByTestId('language-switch');
    expect(toEnglish).toHaveAttribute('href', '/satta-results/gali');
    expect(toEnglish).toHaveAttribute('hreflang', 'en');
    expect(toEnglish).toHaveTextContent('English');
  });

  it('an older year shows in the year selector, and the switch keeps the month', async () => {
    await serve(data({ month: 3, year: 2010, results: null }), 'hi');
    expect(yearOptions()).toEqual(['2026', '2025', '2024', '2023', '2022', '2010']);
    expect(screen.getByLabelText('साल')).toHaveValue('2010');
    expect(screen.getByText('गली के लिए कोई डेटा उपलब्ध नहीं है')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'गली चार्ट 2010 (सभी महीने) →' })).toHaveAttribute(
      'href',
      '/hi/satta-results/gali/2010',
    );
    expect(screen.getByTestId('language-switch')).toHaveAttribute(
      'href',
      '/satta-results/gali?month=3&year=2010',
    );
  });

  it('the English page keeps its text, links its year chart, and switches to /hi', async () => {
    await serve(data({ month: 3, year: 2010, results: null }), 'en');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Gali Satta Result$/);
    expect(screen.getByText('गली')).toHaveAttribute('lang', 'hi');
    expect(screen.getByText('No data available for gali')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to Chart' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Gali chart 2010 (all months) →' })).toHaveAttribute(
      'href',
      '/satta-results/gali/2010',
    );
    expect(within(screen.getByLabelText('Month')).getAllByRole('option')[2]).toHaveTextContent('March');
    expect(yearOptions()).toEqual(['2026', '2025', '2024', '2023', '2022', '2010']);
    const toHindi = screen.getByTestId('language-switch');
    expect(toHindi).toHaveAttribute('href', '/hi/satta-results/gali?month=3&year=2010');
    expect(toHindi).toHaveAttribute('lang', 'hi');
  });

  it('an unknown ghadi has no year chart link', async () => {
    await serve(data({ name: 'nobody', ghadi: null, results: null }), 'hi');
    expect(screen.getByText('nobody के लिए कोई डेटा उपलब्ध नहीं है')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /सभी महीने/ })).toBeNull();
  });
});
