import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { todayInZone } from '../../../shared/dates.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { renderWithQuery } from '../../test/render.js';
import { filterHistory, HISTORY_PAGE_SIZE } from './history-filter.js';
import { ResultForm } from './result-form.js';
import { ResultHistory } from './result-history.js';

const GHADI: GhadiRecord = {
  _id: '7',
  id: '7',
  GID: 7,
  NameEn: 'Gali',
  NameHn: 'गली',
  RTime: '11:15 PM',
  OrderId: 6,
  TodayResult: '',
  YesterdayResult: '',
  Result: '',
  isActive: true,
};

function row(day: number, value: string): PublicResultRecord {
  const date = `2026-10-${String(day).padStart(2, '0')}`;
  return {
    _id: String(day),
    id: String(day),
    GID: 7,
    Name: 'Gali',
    Result: value,
    DateTime: `${date}T00:00:00.000Z`,
    Date: date,
    isActive: true,
  };
}

/** 15 results, newest first: days 15 down to 1, values 15..1 with a leading zero under 10. */
const HISTORY = Array.from({ length: 15 }, (_, index) =>
  row(15 - index, String(15 - index).padStart(2, '0')),
);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers the agent dashboard's reads; `submit` decides the update-result answer. */
function stubApi(submit: () => Promise<Response> = async () => json({ success: false, message: 'x' }, 500)) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/api/site')) {
      return json({
        success: true,
        siteName: 'Ghadi Results',
        timeZone: 'Asia/Kolkata',
        today: '2026-11-22',
      });
    }
    if (url.startsWith('/api/agent/my-ghadi/results')) return json({ success: true, data: HISTORY });
    if (url.startsWith('/api/agent/my-ghadi/update-result')) return submit();
    return json({ success: false, message: `unexpected ${url}` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('filterHistory', () => {
  it('matches result and date (also written day first), ignoring case and keeping the order', () => {
    // The dates (2026-10-01..03) hold no 9, so a 9 can only match a value.
    const rows = [row(3, 'AB'), row(2, 'X9'), row(1, '97')];
    expect(filterHistory(rows, ' ab ').map((r) => r.Result)).toEqual(['AB']);
    expect(filterHistory(rows, '9').map((r) => r.Result)).toEqual(['X9', '97']);
    expect(filterHistory(rows, '2026-10-02').map((r) => r.Result)).toEqual(['X9']);
    expect(filterHistory(rows, '01/10/2026').map((r) => r.Result)).toEqual(['97']);
    expect(filterHistory(rows, '')).toBe(rows);
  });
});

describe('ResultHistory', () => {
  it('pages 10 rows at a time, and a search goes back to page 1', async () => {
    stubApi();
    const user = userEvent.setup();
    renderWithQuery(<ResultHistory ghadi={GHADI} />);

    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(HISTORY_PAGE_SIZE + 1);
    expect(within(table).getByText('15')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(5 + 1);
    expect(within(screen.getByRole('table')).getByText('05')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Search history'), '2026-10-1');
    // Days 10 to 15: six rows, shown from page 1 again.
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(6 + 1);
    expect(within(screen.getByRole('table')).getByText('15')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Page 2' })).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Search history'));
    await user.type(screen.getByLabelText('Search history'), 'zz');
    expect(screen.getByText('No results found.')).toBeInTheDocument();
  });
});

describe('ResultForm', () => {
  it('keeps Update disabled while the result is empty or submitting, and keeps the value when saving fails', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubApi(() => new Promise<Response>((resolve) => (answer = resolve)));
    const user = userEvent.setup();
    renderWithQuery(<ResultForm ghadi={GHADI} />);

    const update = screen.getByRole('button', { name: 'Update' });
    expect(update).toBeDisabled();
    // The date follows the site's zone once /api/site has answered (the browser here may be in another).
    await waitFor(() => expect(screen.getByLabelText('Date')).toHaveValue(todayInZone('Asia/Kolkata')));

    await user.type(screen.getByLabelText('Result'), '   ');
    expect(update).toBeDisabled();
    await user.clear(screen.getByLabelText('Result'));
    await user.type(screen.getByLabelText('Result'), '06');
    expect(update).toBeEnabled();

    await user.click(update);
    const busy = await screen.findByRole('button', { name: 'Updating...' });
    expect(busy).toBeDisabled();
    const submitted = fetchMock.mock.calls.find(([url]) => String(url).includes('update-result'));
    expect(JSON.parse(String(submitted?.[1]?.body))).toMatchObject({ ghadiId: 7, result: '06' });

    answer(json({ success: false, message: 'This ghadi is not assigned to you' }, 403));
    expect(await screen.findByText('This ghadi is not assigned to you')).toBeInTheDocument();
    expect(screen.getByLabelText('Result')).toHaveValue('06');
    expect(screen.getByRole('button', { name: 'Update' })).toBeEnabled();
  });
});
