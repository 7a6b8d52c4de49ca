import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import type { ResultsPageData } from '../../../shared/public-page-data.js';
import { renderThenHydrate } from '../../test/render.js';
import { resultsPageData } from '../../test/results-page-data.js';
import { PublicResultsView } from './public-results-view.js';

const page = (punctuality?: string | null): ResultsPageData => {
  const { ghadi } = resultsPageData();
  return resultsPageData({
    ghadi: ghadi && { ...ghadi, RTime: '1:45 PM' },
    results: null,
    ...(punctuality === undefined ? {} : { punctuality }),
  });
};

const serve = (data: ResultsPageData, language: Language) =>
  renderThenHydrate(<PublicResultsView initial={data} language={language} />);

const EN = 'Last 30 days: declared on 28 of 30 days, 26 on time; usually 4 min after 1:45 PM; 1 correction';
const HI = 'पिछले 30 दिन: 30 में से 28 दिन रिज़ल्ट घोषित, 26 समय पर; आम तौर पर 1:45 PM के 4 मिनट बाद; 1 सुधार';

describe('the punctuality line on a ghadi’s results page', () => {
  it('shows the line the server made, under the result time, in the page’s language', async () => {
    await serve(page(EN), 'en');
    const line = screen.getByText(EN);
    expect(line.tagName).toBe('P');
    // After the heading's lines, before the month's form.
    expect(screen.getByText(/Result time 1:45 PM/).compareDocumentPosition(line)).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it('shows the Hindi line on the Hindi page', async () => {
    await serve(page(HI), 'hi');
    expect(screen.getByText(HI)).toBeInTheDocument();
  });

  it('shows nothing when there is no line (another month, a new ghadi)', async () => {
    await serve(page(null), 'en');
    expect(screen.queryByText(/Last 30 days/)).toBeNull();
    await serve(page(), 'hi');
    expect(screen.queryByText(/पिछले 30 दिन/)).toBeNull();
  });
});
