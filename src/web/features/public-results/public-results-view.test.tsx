import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ResultsPageData } from '../../../shared/public-page-data.js';
import { resultRecord } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { resultsPageData } from '../../test/results-page-data.js';
import { PublicResultsView } from './public-results-view.js';

const data = (overrides: Partial<ResultsPageData> = {}): ResultsPageData => {
  const base = resultsPageData();
  return resultsPageData({
    results: [
      ...(base.results ?? []),
      // Imported weeks later: its time says nothing of the game.
      resultRecord(5, '2026-11-01', '88', { Name: 'Gali', DeclaredAt: '2026-11-20T06:00:00.000Z' }),
    ],
    ...overrides,
  });
};

const row = (day: number) => within(screen.getByRole('table')).getAllByRole('row')[day] as HTMLElement;
const cells = (day: number) => [...row(day).querySelectorAll('td')].map((cell) => cell.textContent);

describe('a ghadi’s month marks corrections and says when each value was declared', () => {
  it('renders on the server and hydrates in the browser without a difference, a line a day', async () => {
    const { html } = await renderThenHydrate(<PublicResultsView initial={data()} language="en" />);
    // The server's time zone is not the site's: the times are reckoned in the site's all the same.
    expect(html).toContain('<time dateTime="2026-11-21T09:02:00.000Z">14:32</time>');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((head) => head.textContent),
    ).toEqual(['Day', 'Result', 'Declared']);

    // Declared the day after its date: the day is named, the year is the row's own.
    expect(cells(22)).toEqual(['54✱ (corrected, was 45)', '23 Nov 09:05 · was 45']);
    const mark = within(row(22)).getByTestId('correction-mark');
    expect(mark).toHaveAttribute('title', 'corrected, was 45');
    // The mark says it in full to screen readers; the short words beside the time are for the eye.
    expect(mark).not.toHaveAttribute('aria-hidden');
    expect(within(row(22)).getByText('· was 45', { exact: false })).toHaveAttribute('aria-hidden', 'true');
    expect(within(row(22)).getByText('23 Nov 09:05')).toHaveAttribute('dateTime', '2026-11-23T03:35:00.000Z');

    expect(cells(21)).toEqual(['07', '14:32']);
    expect(within(row(21)).queryByTestId('correction-mark')).toBeNull();
  });

  it('shows no time for a value added later, and says why once under the table', async () => {
    await renderThenHydrate(<PublicResultsView initial={data()} language="en" />);
    expect(cells(1)).toEqual(['88', '']);
    expect(screen.getByText(/A value without a time was added later/)).toBeInTheDocument();
  });

  it('says today is waiting and when it is due; an earlier day without a value has none; later days are blank', async () => {
    await renderThenHydrate(<PublicResultsView initial={data()} language="en" />);
    expect(cells(23)).toEqual(['Waiting', 'due 11:15 PM']);
    expect(row(23)).toHaveAttribute('aria-current', 'date');
    expect(cells(20)).toEqual(['–', '']);
    expect(row(20).querySelector('td')).toHaveAttribute('aria-label', 'No result');
    expect(cells(24)).toEqual(['', '']);
  });

  it('a month of values declared live has no note', async () => {
    const live = data().results?.filter((result) => result.Date !== '2026-11-01') ?? null;
    await renderThenHydrate(<PublicResultsView initial={data({ results: live })} language="en" />);
    expect(screen.queryByText(/added later/)).toBeNull();
    expect(cells(1)).toEqual(['–', '']);
  });

  it('an earlier month shows no waiting row', async () => {
    await renderThenHydrate(
      <PublicResultsView
        initial={data({
          month: 10,
          results: [resultRecord(5, '2026-10-05', '12', { DeclaredAt: '2026-10-05T17:50:00.000Z' })],
        })}
        language="en"
      />,
    );
    expect(screen.queryByTestId('waiting')).toBeNull();
    expect(cells(5)).toEqual(['12', '23:20']);
    expect(cells(31)).toEqual(['–', '']);
  });
});
