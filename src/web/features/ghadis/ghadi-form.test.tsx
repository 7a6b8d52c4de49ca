import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { ghadiRecord } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { GhadisPage } from './ghadis-page.js';

const MARKET = ghadiRecord(1, {
  NameEn: 'Kalyan',
  Kind: 'open-close',
  OpenTime: '3:45 PM',
  RTime: '5:45 PM',
  Days: [1, 2, 3, 4, 5, 6],
});
const STARLINE = ghadiRecord(2, { NameEn: 'Starline', Kind: 'panna' });
const DAILY = ghadiRecord(3, { NameEn: 'Daily' });
const WITNESSED = ghadiRecord(4, { NameEn: 'Witnessed', Confirmations: 2 });

let posted: Array<{ method: string; path: string; body: unknown }> = [];

beforeEach(() => {
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (method === 'GET' && url === '/api/ghadis') {
        return json({ success: true, data: [MARKET, STARLINE, DAILY, WITNESSED] });
      }
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Partial<GhadiRecord>) : {};
      posted.push({ method, path: url, body });
      return json({ success: true, data: { ...DAILY, ...body, GID: 9 } }, method === 'POST' ? 201 : 200);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const form = () => screen.getByRole('form', { name: /Ghadi/ });
const days = () => within(form()).getByRole('group', { name: 'Days' });

async function fillBasics(user: ReturnType<typeof userEvent.setup>) {
  await user.type(within(form()).getByLabelText('Name (English)'), 'Milan');
  await user.type(within(form()).getByLabelText('Name (Hindi)'), 'मिलन');
  await user.type(within(form()).getByLabelText('Result Time'), '5:45 PM');
  await user.type(within(form()).getByLabelText('Order'), '8');
}

describe('the ghadi form’s kind, open time and days', () => {
  it('offers the three kinds, a jodi ghadi by default running every day, with no open time', async () => {
    renderWithQuery(<GhadisPage />);
    const kind = within(form()).getByLabelText('Kind');
    expect(kind).toHaveValue('jodi');
    expect(
      within(kind)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Jodi (one value a day)', 'Panna (starline)', 'Open/close market']);
    expect(within(form()).queryByLabelText('Open time')).not.toBeInTheDocument();
    const boxes = within(days()).getAllByRole('checkbox');
    expect(boxes.map((box) => box.getAttribute('aria-label'))).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
    for (const box of boxes) expect(box).toBeChecked();
  });

  it('asks an open/close market for its open time, before its close, and sends it', async () => {
    const user = userEvent.setup();
    renderWithQuery(<GhadisPage />);
    await fillBasics(user);
    await user.selectOptions(within(form()).getByLabelText('Kind'), 'open-close');
    const open = within(form()).getByLabelText('Open time');
    await user.click(within(form()).getByRole('button', { name: 'Add Ghadi' }));
    expect(open).toHaveAccessibleDescription(/This field is required/);
    expect(open).toHaveFocus();

    await user.type(open, '6:00 PM');
    await user.click(within(form()).getByRole('button', { name: 'Add Ghadi' }));
    expect(await within(form()).findByText(/Must be earlier in the day than the Result Time/)).toBeVisible();
    expect(posted).toEqual([]);

    await user.clear(open);
    await user.type(open, '3:45 PM');
    await user.click(within(form()).getByRole('button', { name: 'Add Ghadi' }));
    expect(await screen.findByText('Ghadi added.')).toBeInTheDocument();
    expect(posted).toEqual([
      {
        method: 'POST',
        path: '/api/ghadis',
        body: {
          NameEn: 'Milan',
          NameHn: 'मिलन',
          RTime: '5:45 PM',
          OrderId: 8,
          Kind: 'open-close',
          OpenTime: '3:45 PM',
          Days: [0, 1, 2, 3, 4, 5, 6],
          Confirmations: 1,
        },
      },
    ]);
  });

  it('needs at least one day, and sends the days ticked', async () => {
    const user = userEvent.setup();
    renderWithQuery(<GhadisPage />);
    await fillBasics(user);
    for (const box of within(days()).getAllByRole('checkbox')) await user.click(box);
    await user.click(within(form()).getByRole('button', { name: 'Add Ghadi' }));
    expect(await within(form()).findByRole('alert')).toHaveTextContent('Pick at least one day');
    expect(posted).toEqual([]);

    for (const day of ['Monday', 'Wednesday', 'Friday']) {
      await user.click(within(days()).getByRole('checkbox', { name: day }));
    }
    await user.click(within(form()).getByRole('button', { name: 'Add Ghadi' }));
    expect(await screen.findByText('Ghadi added.')).toBeInTheDocument();
    expect(posted[0]?.body).toMatchObject({ Kind: 'jodi', OpenTime: null, Days: [1, 3, 5] });
  });

  it('edits a market as it is, and a market made a jodi ghadi loses its open time', async () => {
    const user = userEvent.setup();
    renderWithQuery(<GhadisPage />);
    await user.click(await screen.findByRole('button', { name: 'Edit Kalyan' }));
    expect(within(form()).getByLabelText('Kind')).toHaveValue('open-close');
    expect(within(form()).getByLabelText('Open time')).toHaveValue('3:45 PM');
    expect(within(days()).getByRole('checkbox', { name: 'Sunday' })).not.toBeChecked();
    expect(within(days()).getByRole('checkbox', { name: 'Monday' })).toBeChecked();

    await user.selectOptions(within(form()).getByLabelText('Kind'), 'jodi');
    expect(within(form()).queryByLabelText('Open time')).not.toBeInTheDocument();
    await user.click(within(form()).getByRole('button', { name: 'Update Ghadi' }));
    expect(await screen.findByText('Ghadi updated.')).toBeInTheDocument();
    expect(posted[0]).toMatchObject({
      method: 'PUT',
      path: `/api/ghadis/${MARKET._id}`,
      body: { Kind: 'jodi', OpenTime: null, Days: [1, 2, 3, 4, 5, 6] },
    });
  });
});

describe('the ghadi list’s kinds, times and days', () => {
  it('badges each kind, gives a market its open and close, and says the days of one not daily', async () => {
    renderWithQuery(<GhadisPage />);
    const rowOf = async (name: string) =>
      (await screen.findByRole('cell', { name: new RegExp(`^${name}`) })).closest('tr') as HTMLElement;
    const market = await rowOf('Kalyan');
    expect(within(market).getByText('Open/close')).toBeInTheDocument();
    expect(within(market).getAllByText('open 3:45 PM · close 5:45 PM').length).toBeGreaterThan(0);
    expect(within(market).getAllByText('Mon–Sat').length).toBeGreaterThan(0);

    const starline = await rowOf('Starline');
    expect(within(starline).getByText('Panna')).toBeInTheDocument();
    const daily = await rowOf('Daily');
    expect(within(daily).getByText('Jodi')).toBeInTheDocument();
    expect(daily).not.toHaveTextContent('Every day');
    expect(daily).not.toHaveTextContent('open ');
  });
});

describe('the ghadi form’s confirmations', () => {
  it('publishes on one person’s word by default, and says what 2 means', async () => {
    const user = userEvent.setup();
    renderWithQuery(<GhadisPage />);
    const confirmations = within(form()).getByLabelText('Confirmations');
    expect(confirmations).toHaveValue('1');
    expect(
      within(confirmations)
        .getAllByRole('option')
        .map((option) => [option.getAttribute('value'), option.textContent]),
    ).toEqual([
      ['1', '1: one person publishes'],
      ['2', '2: two people must agree'],
    ]);
    expect(confirmations).toHaveAccessibleDescription(/a result stays hidden until a second person/);

    await fillBasics(user);
    await user.click(within(form()).getByRole('button', { name: 'Add Ghadi' }));
    expect(await screen.findByText('Ghadi added.')).toBeInTheDocument();
    expect(posted[0]?.body).toMatchObject({ Confirmations: 1 });
  });

  it('sends 2 when two people must enter the same value', async () => {
    const user = userEvent.setup();
    renderWithQuery(<GhadisPage />);
    await fillBasics(user);
    await user.selectOptions(within(form()).getByLabelText('Confirmations'), '2');
    await user.click(within(form()).getByRole('button', { name: 'Add Ghadi' }));
    expect(await screen.findByText('Ghadi added.')).toBeInTheDocument();
    expect(posted).toEqual([
      {
        method: 'POST',
        path: '/api/ghadis',
        body: expect.objectContaining({ NameEn: 'Milan', Confirmations: 2 }),
      },
    ]);
  });

  it('edits a ghadi needing two with 2 chosen, and can set it back to 1', async () => {
    const user = userEvent.setup();
    renderWithQuery(<GhadisPage />);
    await user.click(await screen.findByRole('button', { name: 'Edit Witnessed' }));
    expect(within(form()).getByLabelText('Confirmations')).toHaveValue('2');
    await user.selectOptions(within(form()).getByLabelText('Confirmations'), '1');
    await user.click(within(form()).getByRole('button', { name: 'Update Ghadi' }));
    expect(await screen.findByText('Ghadi updated.')).toBeInTheDocument();
    expect(posted[0]).toMatchObject({
      method: 'PUT',
      path: `/api/ghadis/${WITNESSED._id}`,
      body: { NameEn: 'Witnessed', Confirmations: 1 },
    });
  });

  it('marks in the list only the ghadis that need two people', async () => {
    renderWithQuery(<GhadisPage />);
    const rowOf = async (name: string) =>
      (await screen.findByRole('cell', { name: new RegExp(`^${name}`) })).closest('tr') as HTMLElement;
    expect(within(await rowOf('Witnessed')).getByText('2 confirmations')).toBeInTheDocument();
    expect(await rowOf('Daily')).not.toHaveTextContent('confirmations');
  });
});
