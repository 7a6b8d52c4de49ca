import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResultRecord } from '../../../shared/schemas/results.js';
import { adminResultRecord, ghadiRecord, pagedAnswer } from '../../test/records.js';
import { renderRoutes } from '../../test/render.js';
import { ResultsPage } from './results-page.js';

const day = (index: number) => `2026-10-${String(10 + index).padStart(2, '0')}`;

/** 12 results, newest first: three of Sunita's Disawer ones, then nine of Ravi's Gali ones. */
const RESULTS: ResultRecord[] = [
  adminResultRecord(2, '2026-11-20', 'X9', {
    Name: 'Disawer',
    CreatedByName: 'Sunita',
    Corrected: true,
    Previous: '45',
    DeclaredAt: '2026-11-21T19:05:00.000Z',
  }),
  adminResultRecord(2, day(11), '77', { Name: 'Disawer', CreatedByName: 'Sunita', isActive: false }),
  adminResultRecord(2, day(10), '88', { Name: 'Disawer', CreatedByName: 'Sunita' }),
  ...Array.from({ length: 9 }, (_, index) =>
    adminResultRecord(1, day(9 - index), String(19 - index), { Name: 'Gali' }),
  ),
];

interface Answer {
  status: number;
  body: unknown;
}

/** The ghadis the export form offers. */
const GHADIS = [ghadiRecord(1, { NameEn: 'Gali' }), ghadiRecord(2, { NameEn: 'Disawer' })];

/**
 * A fake of the server: GET /api/ghadis, and GET /api/results with a case-insensitive search over
 * agent, ghadi, result and date, one page by page and limit (the whole list without them).
 */
function serve(url: URL): Answer {
  if (url.pathname === '/api/ghadis') return { status: 200, body: { success: true, data: GHADIS } };
  if (url.pathname === '/api/site') {
    return {
      status: 200,
      body: { success: true, siteName: 'Ghadi Results', timeZone: 'Asia/Kolkata', today: '2026-11-22' },
    };
  }
  const q = (url.searchParams.get('q') ?? '').toLowerCase();
  const matching = RESULTS.filter((result) =>
    [result.CreatedByName, result.Name, result.Result, result.Date].some((field) =>
      field.toLowerCase().includes(q),
    ),
  );
  const page = url.searchParams.get('page');
  const limit = url.searchParams.get('limit');
  if (!page || !limit) return { status: 200, body: { success: true, data: matching } };
  return { status: 200, body: pagedAnswer(matching, Number(page), Number(limit)) };
}

/** Stubs fetch; `answer` may hold or change an answer, and defaults to the fake server. */
function stubApi(answer: (url: URL) => Answer | Promise<Answer> = serve) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const { status, body } = await answer(url);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  /** The query strings of the results requests made so far. */
  return () =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname === '/api/results')
      .map((url) => url.search);
}

const renderPage = (path = '/admin/results') =>
  renderRoutes([{ path: '/admin/results', element: <ResultsPage /> }], path);

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
/** The value in each row's Result cell, without the correction mark (and, on a phone, the status) after it. */
const results = () =>
  bodyRows().map(
    (row) => within(row).getAllByRole('cell')[2]?.querySelector('span')?.firstChild?.textContent,
  );
const pager = () => screen.getByRole('navigation', { name: 'Results pages' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ResultsPage', () => {
  it('asks the server for 5 rows of page 1, and offers 5, 10 or 15 rows per page', async () => {
    const requests = stubApi();
    const { router } = renderPage();
    expect(await screen.findByRole('table', { name: 'All Agents Ghadi Results' })).toBeInTheDocument();
    expect(results()).toEqual(['X9', '77', '88', '19', '18']);
    expect(screen.getByText(/Showing 1–5 of 12/).closest('p')).toHaveTextContent(
      'Showing 1–5 of 12 · Page 1 of 3',
    );
    for (const header of ['Agent', 'Ghadi', 'Result', 'Date Time', 'Status']) {
      expect(screen.getByRole('columnheader', { name: header })).toHaveAttribute('scope', 'col');
    }
    const perPage = screen.getByLabelText<HTMLSelectElement>('Rows per page');
    expect(perPage.value).toBe('5');
    expect(
      within(perPage)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['5', '10', '15']);

    await userEvent.selectOptions(perPage, '10');
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    expect(router.state.location.search).toBe('?limit=10');
    await userEvent.click(within(pager()).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(results()).toEqual(['12', '11']));
    expect(router.state.location.search).toBe('?page=2&limit=10');
    // At 15 a page, the rows shown (11 and 12) are on page 1: the first row shown stays on screen.
    await userEvent.selectOptions(perPage, '15');
    await waitFor(() => expect(bodyRows()).toHaveLength(12));
    expect(screen.queryByRole('navigation', { name: 'Results pages' })).not.toBeInTheDocument();

    // Every request names a page and a size: the screen never downloads the whole table.
    expect(requests()).toEqual([
      '?page=1&limit=5',
      '?page=1&limit=10',
      '?page=2&limit=10',
      '?page=1&limit=15',
    ]);
  });

  it('keeps the page shown, marked busy, while the next one loads', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    stubApi(async (url) => {
      if (url.searchParams.get('page') === '2') await held;
      return serve(url);
    });
    renderPage();
    await screen.findByRole('table');
    await userEvent.click(within(pager()).getByRole('button', { name: 'Next page' }));

    expect(results()).toEqual(['X9', '77', '88', '19', '18']);
    expect(screen.getByRole('table').closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
    expect(within(pager()).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    release();
    await waitFor(() => expect(results()).toEqual(['17', '16', '15', '14', '13']));
    expect(screen.getByRole('table').closest('[aria-busy]')).toHaveAttribute('aria-busy', 'false');
  });

  it('searches on the server once typing pauses, from page 1, and keeps the search in the address', async () => {
    const requests = stubApi();
    const { router } = renderPage('/admin/results?page=3');
    await waitFor(() => expect(results()).toEqual(['12', '11']));

    await userEvent.type(screen.getByLabelText('Search'), ' sUNITA ');
    await waitFor(() => expect(results()).toEqual(['X9', '77', '88']));
    expect(screen.getByText('3 results')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=sUNITA');
    // One request for the settled, trimmed search, from page 1; none for each letter typed.
    expect(requests()).toEqual(['?page=3&limit=5', '?q=sUNITA&page=1&limit=5']);

    await userEvent.clear(screen.getByLabelText('Search'));
    await userEvent.type(screen.getByLabelText('Search'), '2026-11-20{Enter}');
    await waitFor(() => expect(results()).toEqual(['X9']));
    const row = bodyRows()[0] as HTMLElement;
    expect(within(row).getAllByText('20 Nov 2026').length).toBeGreaterThan(0);

    await userEvent.clear(screen.getByLabelText('Search'));
    await userEvent.type(screen.getByLabelText('Search'), 'nobody');
    expect(await screen.findByText('No results match “nobody”.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('opens the page, search and size the address names, and follows the back button', async () => {
    const requests = stubApi();
    const { router } = renderPage('/admin/results?q=gali&page=2&limit=5');
    await waitFor(() => expect(results()).toEqual(['14', '13', '12', '11']));
    expect(screen.getByLabelText('Search')).toHaveValue('gali');
    expect(within(pager()).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');

    await userEvent.click(within(pager()).getByRole('button', { name: 'First page' }));
    await waitFor(() => expect(results()).toEqual(['19', '18', '17', '16', '15']));
    await router.navigate(-1);
    await waitFor(() => expect(results()).toEqual(['14', '13', '12', '11']));

    await userEvent.clear(screen.getByLabelText('Search'));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(router.state.location.search).toBe('');
    await router.navigate(-1);
    await waitFor(() => expect(screen.getByLabelText('Search')).toHaveValue('gali'));
    expect(requests()[0]).toBe('?q=gali&page=2&limit=5');
  });

  it('falls back to the defaults for a bad address, and to the last page past the end', async () => {
    const requests = stubApi();
    const { router } = renderPage('/admin/results?page=abc&limit=7');
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(requests()).toEqual(['?page=1&limit=5']);

    await router.navigate('/admin/results?page=99');
    await waitFor(() => expect(results()).toEqual(['12', '11']));
    expect(router.state.location.search).toBe('?page=3');
  });

  it('shows the status as Active or Inactive', async () => {
    stubApi();
    renderPage();
    await screen.findByRole('table');
    const inactive = bodyRows()[1] as HTMLElement;
    expect(within(inactive).getAllByText('Inactive').length).toBeGreaterThan(0);
    expect(within(bodyRows()[0] as HTMLElement).getAllByText('Active').length).toBeGreaterThan(0);
  });

  it('says Failed to load data, and Retry loads it again', async () => {
    let fail = true;
    const requests = stubApi((url) => (fail ? { status: 500, body: { success: false } } : serve(url)));
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load data');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(requests()).toHaveLength(2);
  });

  it('has an empty state', async () => {
    stubApi(() => ({ status: 200, body: pagedAnswer([], 1, 5) }));
    renderPage();
    expect(await screen.findByText('No results found.')).toBeInTheDocument();
  });

  it('shows the date and the time of declaration in the site’s zone, and marks a correction', async () => {
    stubApi();
    renderPage();
    await screen.findByRole('table');
    // Declared at 08:26 UTC on its own date: 13:56 in Kolkata.
    const onTime = bodyRows()[2] as HTMLElement;
    await waitFor(() => expect(within(onTime).getAllByText('13:56')).not.toHaveLength(0));
    expect(onTime).toHaveTextContent('20 Oct 2026, 13:56');
    expect(within(onTime).queryByTestId('correction-mark')).toBeNull();

    // Corrected the next day (00:35 on 22 Nov in Kolkata): the day is named, and the value marked.
    const corrected = bodyRows()[0] as HTMLElement;
    expect(corrected).toHaveTextContent('20 Nov 2026declared 22 Nov 2026, 00:35');
    const mark = within(corrected).getByTestId('correction-mark');
    expect(mark).toHaveAttribute('title', 'corrected, was 45');
    expect(mark).toHaveTextContent('(corrected, was 45)');
    expect(screen.getByText(/in the site’s time zone \(Asia\/Kolkata\)/)).toBeInTheDocument();
  });
});
