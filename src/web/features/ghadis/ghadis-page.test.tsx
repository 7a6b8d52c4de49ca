import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { todayInZone } from '../../../shared/dates.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { renderWithQuery } from '../../test/render.js';
import { GhadisPage } from './ghadis-page.js';

const GHADIS: GhadiRecord[] = Array.from({ length: 23 }, (_, index) => ({
  _id: String(index + 1),
  id: String(index + 1),
  GID: index + 1,
  NameEn: `Ghadi ${index + 1}`,
  NameHn: `घड़ी ${index + 1}`,
  RTime: '1:45 PM',
  OrderId: index + 1,
  Kind: 'jodi',
  OpenTime: null,
  Days: [0, 1, 2, 3, 4, 5, 6],
  Confirmations: 1,
  Closed: null,
  TodayResult: index === 0 ? '42' : '',
  YesterdayResult: '',
  Result: '',
  isActive: true,
  Corrected: false,
  Previous: null,
  DeclaredAt: index === 0 ? '2026-11-22T08:26:03.123Z' : null,
}));

let requests: Array<{ method: string; path: string; body: unknown }> = [];

beforeEach(() => {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      requests.push({ method, path: url, body });
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (method === 'GET' && url === '/api/ghadis') return json({ success: true, data: GHADIS });
      if (url === '/api/site') {
        return json({ success: true, siteName: 'Ghadi Results', timeZone: 'Asia/Kolkata', today: '' });
      }
      if (url === '/api/agent/my-ghadi/update-result') return json({ success: true, data: {} });
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const ghadiNames = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]?.querySelector('span')?.textContent);

describe('GhadisPage list', () => {
  it('pages the list 10 at a time with page-number buttons', async () => {
    renderWithQuery(<GhadisPage />);
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(ghadiNames()).toEqual(GHADIS.slice(0, 10).map((ghadi) => ghadi.NameEn));

    const pages = screen.getByRole('navigation', { name: 'Ghadi list pages' });
    expect(within(pages).getAllByRole('button', { name: /^Page / })).toHaveLength(3);
    expect(within(pages).getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    await userEvent.click(within(pages).getByRole('button', { name: 'Page 2' }));
    expect(ghadiNames()).toEqual(GHADIS.slice(10, 20).map((ghadi) => ghadi.NameEn));
    await userEvent.click(within(pages).getByRole('button', { name: 'Page 3' }));
    expect(ghadiNames()).toEqual(['Ghadi 21', 'Ghadi 22', 'Ghadi 23']);
    expect(within(pages).getByRole('button', { name: 'Next page' })).toBeDisabled();
    await userEvent.click(within(pages).getByRole('button', { name: 'Previous page' }));
    expect(ghadiNames()[0]).toBe('Ghadi 11');
  });

  it("shows today's result in the row", async () => {
    renderWithQuery(<GhadisPage />);
    const row = (await screen.findByRole('cell', { name: /Ghadi 1\b/ })).closest('tr') as HTMLElement;
    expect(within(row).getByText('42')).toBeInTheDocument();
  });

  it('Update Result sends ghadiId, result and the site-zone date of today', async () => {
    renderWithQuery(<GhadisPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Update Result of Ghadi 2' }));
    const form = screen.getByRole('form', { name: 'Update Result: Ghadi 2' });
    const date = within(form).getByLabelText('Date');
    await vi.waitFor(() => expect(date).toHaveValue(todayInZone('Asia/Kolkata')));

    await userEvent.click(within(form).getByRole('button', { name: 'Save Result' }));
    expect(within(form).getByText('This field is required')).toBeInTheDocument();

    await userEvent.type(within(form).getByLabelText('Result'), '57');
    await userEvent.click(within(form).getByRole('button', { name: 'Save Result' }));
    expect(await within(form).findByText('Result updated!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      ghadiId: 2,
      result: '57',
      dateTime: todayInZone('Asia/Kolkata'),
    });
  });

  it("names a field the server refuses by the form's label, not the API's code name", async () => {
    const refusal = 'dateTime: Must be between 2000-01-01 and 2026-11-28';
    const answer = vi.mocked(fetch).getMockImplementation();
    vi.mocked(fetch).mockImplementation(async (url, init) =>
      url === '/api/agent/my-ghadi/update-result'
        ? new Response(JSON.stringify({ success: false, message: refusal }), { status: 400 })
        : (answer?.(url, init) as Promise<Response>),
    );
    renderWithQuery(<GhadisPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Update Result of Ghadi 2' }));
    const form = screen.getByRole('form', { name: 'Update Result: Ghadi 2' });
    await userEvent.type(within(form).getByLabelText('Result'), '57');
    await userEvent.click(within(form).getByRole('button', { name: 'Save Result' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Date: Must be between 2000-01-01 and 2026-11-28',
    );
    expect(form).not.toHaveTextContent('dateTime');
  });
});
