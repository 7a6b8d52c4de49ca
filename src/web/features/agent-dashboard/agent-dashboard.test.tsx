import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../../shared/dates.js';
import { AGENT_HISTORY_PAGE_SIZE } from '../../../shared/schemas/results.js';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { ResultForm } from './result-form.js';
import { ResultHistory } from './result-history.js';
import { deferred, type FakeAnswer, fakeApi, historyOf, siteToday, startedQueue } from './test-support.js';

const GALI = ghadiRecord(7, { NameEn: 'Gali', NameHn: 'गली', RTime: '11:15 PM', OrderId: 6 });

/** 15 results of the days before today, newest first, valued 15 down to 01; the fifth newest is "XY". */
const HISTORY = Array.from({ length: 15 }, (_, index) =>
  resultRecord(
    7,
    addDays(siteToday(), -(index + 1)),
    index === 4 ? 'XY' : String(15 - index).padStart(2, '0'),
  ),
);

const historyRequests = (fetchMock: ReturnType<typeof fakeApi>) =>
  fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/api/agent/my-ghadi/results')
    .map((url) => url.search);

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ResultHistory', () => {
  it('asks the server for one page of 10 of the chosen ghadi, and pages with the pager', async () => {
    const fetchMock = fakeApi({ history: historyOf(HISTORY) });
    const user = userEvent.setup();
    renderWithQuery(<ResultHistory ghadi={GALI} />);

    await screen.findByRole('table', { name: 'Result history of Gali, newest first' });
    expect(bodyRows()).toHaveLength(AGENT_HISTORY_PAGE_SIZE);
    expect(bodyRows()[0]).toHaveTextContent('15');
    expect(screen.getByText('Showing 1–10 of 15')).toBeInTheDocument();
    expect(historyRequests(fetchMock)).toEqual(['?ghadiId=7&page=1&limit=10']);

    const pages = screen.getByRole('navigation', { name: 'Result history pages' });
    await user.click(within(pages).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(bodyRows()[4]).toHaveTextContent('01');
    expect(within(pages).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(historyRequests(fetchMock)).toEqual(['?ghadiId=7&page=1&limit=10', '?ghadiId=7&page=2&limit=10']);
  });

  it('keeps the page shown while the next one loads', async () => {
    const hold = deferred<FakeAnswer>();
    const serve = historyOf(HISTORY);
    fakeApi({
      history: (request) => (request.url.searchParams.get('page') === '2' ? hold.promise : serve(request)),
    });
    const user = userEvent.setup();
    renderWithQuery(<ResultHistory ghadi={GALI} />);
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByRole('table').closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    hold.resolve(
      await serve({ url: new URL('http://localhost/?page=2&limit=10'), method: 'GET', body: undefined }),
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(screen.getByRole('table').closest('[aria-busy]')).toHaveAttribute('aria-busy', 'false');
  });

  it('searches on the server once typing pauses, from page 1', async () => {
    const fetchMock = fakeApi({ history: historyOf(HISTORY) });
    const user = userEvent.setup();
    renderWithQuery(<ResultHistory ghadi={GALI} />);
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));

    await user.type(screen.getByLabelText('Search history'), ' xy ');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(bodyRows()[0]).toHaveTextContent('XY');
    expect(screen.getByText('1 result')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Result history pages' })).not.toBeInTheDocument();
    // One request for the settled search, trimmed, from page 1; none for each letter typed.
    expect(historyRequests(fetchMock).slice(2)).toEqual(['?ghadiId=7&q=xy&page=1&limit=10']);

    await user.clear(screen.getByLabelText('Search history'));
    await user.type(screen.getByLabelText('Search history'), 'zz');
    expect(await screen.findByText('No results found.')).toBeInTheDocument();
  });
});

describe('ResultForm', () => {
  it('keeps Update disabled while the result is empty or submitting, and keeps the value when saving fails', async () => {
    const hold = deferred<FakeAnswer>();
    const fetchMock = fakeApi({ submit: () => hold.promise });
    const user = userEvent.setup();
    renderWithQuery(<ResultForm ghadi={GALI} queue={await startedQueue()} />);

    const update = screen.getByRole('button', { name: 'Update' });
    expect(update).toBeDisabled();
    await user.type(screen.getByLabelText('Result'), '   ');
    expect(update).toBeDisabled();
    await user.clear(screen.getByLabelText('Result'));
    await user.type(screen.getByLabelText('Result'), '06');
    expect(update).toBeEnabled();

    await user.click(update);
    const busy = await screen.findByRole('button', { name: 'Updating...' });
    expect(busy).toBeDisabled();
    // The submission is stored on the phone before it is sent.
    const submitted = await vi.waitUntil(() =>
      fetchMock.mock.calls.find(([url]) => String(url).includes('update-result')),
    );
    expect(JSON.parse(String(submitted[1]?.body))).toMatchObject({ ghadiId: 7, result: '06' });

    hold.resolve({ status: 403, body: { success: false, message: 'This ghadi is not assigned to you' } });
    expect(await screen.findByText('This ghadi is not assigned to you')).toBeInTheDocument();
    expect(screen.getByLabelText('Result')).toHaveValue('06');
    expect(screen.getByRole('button', { name: 'Update' })).toBeEnabled();
  });
});
