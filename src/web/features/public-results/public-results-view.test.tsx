import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ResultsPageData } from '../../../shared/public-page-data.js';
import { resultRecord } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { PublicResultsView } from './public-results-view.js';

const data = (): ResultsPageData => ({
  page: 'results',
  version: 1,
  siteName: 'Site',
  name: 'gali',
  today: '2026-11-23',
  timeZone: 'Asia/Kolkata',
  month: 11,
  year: 2026,
  ghadi: { GID: 5, NameEn: 'Gali', NameHn: 'गली', RTime: '11:15 PM' },
  results: [
    // Corrected the next morning, 09:05 in Kolkata.
    resultRecord(5, '2026-11-22', '54', {
      Name: 'Gali',
      Corrected: true,
      Previous: '45',
      DeclaredAt: '2026-11-23T03:35:00.000Z',
    }),
    resultRecord(5, '2026-11-21', '07', { Name: 'Gali', DeclaredAt: '2026-11-21T09:02:00.000Z' }),
  ],
});

const dayCell = (day: number) =>
  within(screen.getByRole('table')).getAllByRole('row')[day]?.querySelector('td') as HTMLElement;

describe('a ghadi’s month marks corrections and says when each value was declared', () => {
  it('renders on the server and hydrates in the browser without a difference', async () => {
    const { html } = await renderThenHydrate(<PublicResultsView initial={data()} language="en" />);
    // The server's time zone is not the site's: the times are reckoned in the site's all the same.
    expect(html).toContain('declared <!-- -->14:32');

    const corrected = dayCell(22);
    expect(corrected).toHaveTextContent('54✱ corrected, was 45 declared 23 Nov 2026 09:05');
    const mark = within(corrected).getByTestId('correction-mark');
    expect(mark).toHaveAttribute('title', 'corrected, was 45');
    // The words are next to it: the mark itself is not read out a second time.
    expect(mark).toHaveAttribute('aria-hidden', 'true');
    expect(within(corrected).getByText(/^declared/)).toHaveAttribute('dateTime', '2026-11-23T03:35:00.000Z');

    const plain = dayCell(21);
    expect(plain).toHaveTextContent(/^07 declared 14:32$/);
    expect(within(plain).queryByTestId('correction-mark')).toBeNull();
    expect(dayCell(20)).toHaveTextContent(/^$/);
  });
});
