import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResultRecord } from '../../../shared/schemas/results.js';
import { renderWithQuery } from '../../test/render.js';
import { ResultsPage } from './results-page.js';

function result(index: number, overrides: Partial<ResultRecord> = {}): ResultRecord {
  const day = String(10 + index).padStart(2, '0');
  return {
    _id: String(index),
    id: String(index),
    GID: 1,
    Name: 'Gali',
    Result: String(10 + index),
    DateTime: `2026-10-${day}T00:00:00.000Z`,
    Date: `2026-10-${day}`,
    isActive: true,
    CreatedById: 2,
    CreatedByName: 'Ravi',
    UpdatedAt: '2026-10-01T00:00:00.000Z',
    ...overrides,
  };
}

/** 12 results: Ravi's Gali results, then three of Sunita's Disawer ones on other dates. */
const RESULTS = [
  ...Array.from({ length: 9 }, (_, index) => result(index + 1)),
  result(10, {
    Name: 'Disawer',
    CreatedByName: 'Sunita',
    Result: 'X9',
    Date: '2026-11-20',
    DateTime: '2026-11-20T00:00:00.000Z',
  }),
  result(11, { Name: 'Disawer', CreatedByName: 'Sunita', Result: '77', isActive: false }),
  result(12, { Name: 'Disawer', CreatedByName: 'Sunita', Result: '88' }),
];

function stubResults(...answers: Array<{ status: number; body: unknown }>) {
  const fetchMock = vi.fn(async () => {
    const answer = answers.length > 1 ? answers.shift() : answers[0];
    return new Response(JSON.stringify(answer?.body), { status: answer?.status ?? 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ResultsPage', () => {
  it('shows 5 rows per page by default and offers 5, 10 or 15', async () => {
    stubResults({ status: 200, body: { success: true, data: RESULTS } });
    renderWithQuery(<ResultsPage />);
    expect(await screen.findByRole('table', { name: 'All Agents Ghadi Results' })).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(5);
    const perPage = screen.getByLabelText<HTMLSelectElement>('Rows per page');
    expect(perPage.value).toBe('5');
    expect(
      within(perPage)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['5', '10', '15']);
    for (const header of ['Agent', 'Ghadi', 'Result', 'Date Time', 'Status']) {
      expect(screen.getByRole('columnheader', { name: header })).toHaveAttribute('scope', 'col');
    }

    await userEvent.selectOptions(perPage, '10');
    expect(bodyRows()).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(bodyRows()).toHaveLength(2);
    await userEvent.selectOptions(perPage, '15');
    expect(bodyRows()).toHaveLength(12);
    expect(screen.queryByRole('navigation', { name: 'Results pages' })).not.toBeInTheDocument();
  });

  it('searches agent, ghadi, result and date without regard to case, and goes back to page 1', async () => {
    stubResults({ status: 200, body: { success: true, data: RESULTS } });
    renderWithQuery(<ResultsPage />);
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');

    const search = screen.getByLabelText('Search');
    await userEvent.type(search, 'sUNITA');
    expect(bodyRows()).toHaveLength(3);
    expect(screen.getByText('Showing 1–3 of 3')).toBeInTheDocument();

    await userEvent.clear(search);
    await userEvent.type(search, 'disawer');
    expect(bodyRows()).toHaveLength(3);

    await userEvent.clear(search);
    await userEvent.type(search, 'x9');
    expect(bodyRows()).toHaveLength(1);
    expect(within(bodyRows()[0] as HTMLElement).getByText('20 Nov 2026')).toBeInTheDocument();

    await userEvent.clear(search);
    await userEvent.type(search, '2026-11-20');
    expect(bodyRows()).toHaveLength(1);
    await userEvent.clear(search);
    await userEvent.type(search, '20 nov');
    expect(bodyRows()).toHaveLength(1);

    // Matches on page 2 of a search, then a new search starts again at page 1.
    await userEvent.clear(search);
    await userEvent.type(search, 'ravi');
    expect(screen.getByText('Showing 1–5 of 9')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(screen.getByText('Showing 6–9 of 9')).toBeInTheDocument();
    await userEvent.type(search, ' ');
    await userEvent.type(search, '{Backspace}');
    expect(screen.getByText('Showing 1–5 of 9')).toBeInTheDocument();

    await userEvent.type(search, 'nobody');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText(/No results match/)).toBeInTheDocument();
  });

  it('shows the status as Active or Inactive', async () => {
    stubResults({ status: 200, body: { success: true, data: RESULTS } });
    renderWithQuery(<ResultsPage />);
    await screen.findByRole('table');
    await userEvent.type(screen.getByLabelText('Search'), '77');
    expect(within(bodyRows()[0] as HTMLElement).getByText('Inactive')).toBeInTheDocument();
  });

  it('says Failed to load data, and Retry loads it again', async () => {
    const fetchMock = stubResults(
      { status: 500, body: { success: false, message: 'boom' } },
      { status: 200, body: { success: true, data: RESULTS } },
    );
    renderWithQuery(<ResultsPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load data');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('has an empty state', async () => {
    stubResults({ status: 200, body: { success: true, data: [] } });
    renderWithQuery(<ResultsPage />);
    expect(await screen.findByText('No results found.')).toBeInTheDocument();
  });
});
