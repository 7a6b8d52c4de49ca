import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HolidayRecord } from '../../../shared/schemas/holidays.js';
import { ghadiRecord } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { HolidaysPage } from './holidays-page.js';

/** Noon of Thursday 10 December 2026 in Kolkata, the site's zone: the page's today. */
const NOW = Date.parse('2026-12-10T06:30:00Z');
const TODAY = '2026-12-10';

const holiday = (id: number, date: string, GID: number | null, Note = ''): HolidayRecord => ({
  _id: String(id),
  id: String(id),
  Date: date,
  GID,
  Note,
});

let holidays: HolidayRecord[] = [];
let requests: Array<{ method: string; path: string; body: unknown }> = [];
let refuseAdd: { status: number; message: string } | null = null;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true, toFake: ['Date'] });
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  // As the server lists them: by date.
  holidays = [
    holiday(1, '2026-11-01', 99),
    holiday(2, TODAY, 1, 'Repairs'),
    holiday(3, '2026-12-12', 2, 'Maintenance'),
    holiday(4, '2026-12-25', null, 'Christmas'),
  ];
  requests = [];
  refuseAdd = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (url === '/api/site') {
        return json({ success: true, siteName: 'Ghadi Results', timeZone: 'Asia/Kolkata', today: TODAY });
      }
      if (url === '/api/ghadis') return json({ success: true, data: [ghadiRecord(1), ghadiRecord(2)] });
      if (method === 'GET' && url === '/api/holidays') return json({ success: true, data: holidays });
      requests.push({ method, path: url, body });
      if (method === 'POST' && url === '/api/holidays') {
        if (refuseAdd) return json({ success: false, message: refuseAdd.message }, refuseAdd.status);
        const added = holiday(9, body.Date, body.GID, body.Note);
        holidays = [...holidays, added].sort((a, b) => a.Date.localeCompare(b.Date));
        return json({ success: true, data: added }, 201);
      }
      if (method === 'DELETE') {
        holidays = holidays.filter((entry) => `/api/holidays/${entry._id}` !== url);
        return json({ success: true, message: 'Holiday removed' });
      }
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const form = () => screen.getByRole('form', { name: 'Add Holiday' });
const rowsOf = (caption: string) =>
  within(screen.getByRole('table', { name: caption }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const [date, ghadi, note] = within(row).getAllByRole('cell');
      // The ghadi cell's first line: a phone also shows the note under it.
      return [date?.textContent, ghadi?.firstElementChild?.textContent, note?.textContent];
    });

describe('the holidays screen', () => {
  it('lists upcoming holidays soonest first, then the past ones folded away', async () => {
    renderWithQuery(<HolidaysPage />);
    expect(await screen.findByRole('table', { name: 'Upcoming holidays' })).toBeInTheDocument();
    await waitFor(() => expect(rowsOf('Upcoming holidays')[0]?.[1]).toBe('Ghadi 1'));
    expect(rowsOf('Upcoming holidays')).toEqual([
      [`${TODAY}ThursdayToday`, 'Ghadi 1', 'Repairs'],
      ['2026-12-12Saturday', 'Ghadi 2', 'Maintenance'],
      ['2026-12-25Friday', 'All ghadis', 'Christmas'],
    ]);
    const past = screen.getByText('Past holidays (1)').closest('details') as HTMLElement;
    expect(past).not.toHaveAttribute('open');
    expect(within(past).getByRole('cell', { name: 'Ghadi 99 (deleted)' })).toBeInTheDocument();
  });

  it('adds a holiday of one ghadi, with its note, on a date that says its weekday', async () => {
    const user = userEvent.setup();
    renderWithQuery(<HolidaysPage />);
    const date = within(form()).getByLabelText('Date');
    await waitFor(() => expect(date).toHaveValue(TODAY));
    expect(date).toHaveAccessibleDescription('Thursday');
    await within(form()).findByRole('option', { name: 'Ghadi 2' });
    expect(within(form()).getByLabelText('Ghadi')).toHaveValue('');
    expect(within(form()).getByRole('option', { name: 'All ghadis' })).toBeInTheDocument();

    await user.clear(date);
    await user.type(date, '2027-01-26');
    expect(date).toHaveAccessibleDescription('Tuesday');
    await user.selectOptions(within(form()).getByLabelText('Ghadi'), 'Ghadi 2');
    await user.type(within(form()).getByLabelText('Note'), 'Republic Day');
    await user.click(within(form()).getByRole('button', { name: 'Add Holiday' }));

    expect(await screen.findByText('Holiday added.')).toBeInTheDocument();
    expect(requests).toEqual([
      { method: 'POST', path: '/api/holidays', body: { Date: '2027-01-26', GID: 2, Note: 'Republic Day' } },
    ]);
    await waitFor(() =>
      expect(rowsOf('Upcoming holidays').at(-1)).toEqual(['2027-01-26Tuesday', 'Ghadi 2', 'Republic Day']),
    );
    // The form is back to today, for all ghadis.
    expect(within(form()).getByLabelText('Date')).toHaveValue(TODAY);
  });

  it('shows the server’s reason when the date is a holiday already, and keeps what was typed', async () => {
    const user = userEvent.setup();
    refuseAdd = { status: 409, message: '2026-12-25 is already a holiday of every ghadi' };
    renderWithQuery(<HolidaysPage />);
    const date = within(form()).getByLabelText('Date');
    await waitFor(() => expect(date).toHaveValue(TODAY));
    await user.clear(date);
    await user.type(date, '2026-12-25');
    await user.click(within(form()).getByRole('button', { name: 'Add Holiday' }));
    expect(await within(form()).findByRole('alert')).toHaveTextContent(
      '2026-12-25 is already a holiday of every ghadi',
    );
    expect(date).toHaveValue('2026-12-25');
    expect(requests.map((request) => request.body)).toEqual([{ Date: '2026-12-25', GID: null, Note: '' }]);
  });

  it('asks for a date before sending', async () => {
    const user = userEvent.setup();
    renderWithQuery(<HolidaysPage />);
    const date = within(form()).getByLabelText('Date');
    await waitFor(() => expect(date).toHaveValue(TODAY));
    await user.clear(date);
    await user.click(within(form()).getByRole('button', { name: 'Add Holiday' }));
    expect(await within(form()).findByText('This field is required')).toBeInTheDocument();
    expect(requests).toEqual([]);
  });

  it('deletes a holiday once the admin confirms', async () => {
    const user = userEvent.setup();
    renderWithQuery(<HolidaysPage />);
    const remove = await screen.findByRole('button', { name: 'Delete holiday 2026-12-12 Ghadi 2' });
    await user.click(remove);
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Delete this holiday?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests).toEqual([]);

    await user.click(remove);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Holiday deleted.')).toBeInTheDocument();
    expect(requests).toEqual([{ method: 'DELETE', path: '/api/holidays/3', body: undefined }]);
    await waitFor(() =>
      expect(rowsOf('Upcoming holidays').map((row) => row[1])).toEqual(['Ghadi 1', 'All ghadis']),
    );
  });
});
