import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithQuery } from '../../test/render.js';
import { AssignGhadiPage } from './assign-ghadi-page.js';

const user = (User_Id: number, UserName: string, UserType: 'admin' | 'agent') => ({
  _id: String(User_Id),
  id: String(User_Id),
  User_Id,
  UserName,
  DisplayName: UserName.toUpperCase(),
  Email: `${UserName}@example.com`,
  UserType,
  userType: UserType,
  isActive: true,
  createdAt: '',
  updatedAt: '',
});

const ghadi = (GID: number, NameEn: string) => ({
  _id: String(GID),
  id: String(GID),
  GID,
  NameEn,
  NameHn: NameEn,
  RTime: '1:45 PM',
  OrderId: GID,
  TodayResult: '',
  YesterdayResult: '',
  Result: '',
  isActive: true,
});

let posted: unknown[] = [];
/** What POST /api/usermaps answers next. */
let assignAnswer: { status: number; body: unknown } = { status: 201, body: { success: true, data: [] } };

beforeEach(() => {
  posted = [];
  assignAnswer = { status: 201, body: { success: true, data: [] } };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (init.method === 'POST' && url === '/api/usermaps') {
        posted.push(JSON.parse(String(init.body)));
        return json(assignAnswer.body, assignAnswer.status);
      }
      if (url === '/api/users') {
        return json({
          success: true,
          data: [user(1, 'admin', 'admin'), user(2, 'ravi', 'agent'), user(3, 'sunita', 'agent')],
        });
      }
      if (url === '/api/ghadis') return json({ success: true, data: [ghadi(5, 'NCR'), ghadi(6, 'Gali')] });
      if (url === '/api/usermaps') return json({ success: true, data: [] });
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function renderForm() {
  renderWithQuery(<AssignGhadiPage />);
  return screen.findByRole('form', { name: 'Assign Ghadi' });
}

describe('AssignGhadiPage form', () => {
  it('lists agents only and requires one to be selected', async () => {
    const form = await renderForm();
    const agent = within(form).getByLabelText('Agent');
    expect(
      within(agent)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Select an agent', 'RAVI (ravi)', 'SUNITA (sunita)']);
    await userEvent.click(within(form).getByRole('checkbox', { name: 'NCR' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Assign Ghadi' }));
    expect(await within(form).findByText('Please select an agent')).toBeInTheDocument();
    expect(posted).toEqual([]);
  });

  it('sends exactly one ticked ghadi as a number', async () => {
    const form = await renderForm();
    await userEvent.selectOptions(within(form).getByLabelText('Agent'), '2');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Gali' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Assign Ghadi' }));
    expect(await screen.findByText('Ghadi assigned.')).toBeInTheDocument();
    expect(posted).toEqual([{ User_Id: 2, GID: 6 }]);
    // The ticks clear for the next assignment; the agent stays chosen.
    expect(within(form).getByRole('checkbox', { name: 'Gali' })).not.toBeChecked();
    expect(within(form).getByLabelText('Agent')).toHaveValue('2');
  });

  it('sends several ticked ghadis as a list', async () => {
    const form = await renderForm();
    await userEvent.selectOptions(within(form).getByLabelText('Agent'), '3');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'NCR' }));
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Gali' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Assign Ghadi' }));
    await screen.findByText('Ghadi assigned.');
    expect(posted).toEqual([{ User_Id: 3, GID: [5, 6] }]);
  });

  it('lets the server judge an empty choice and shows its message', async () => {
    assignAnswer = { status: 400, body: { success: false, message: 'GID: Select at least one ghadi' } };
    const form = await renderForm();
    await userEvent.selectOptions(within(form).getByLabelText('Agent'), '2');
    await userEvent.click(within(form).getByRole('button', { name: 'Assign Ghadi' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ghadis: Select at least one ghadi');
    expect(posted).toEqual([{ User_Id: 2, GID: [] }]);
  });

  it('falls back to Failed to assign Ghadi when the server gives no message', async () => {
    assignAnswer = { status: 500, body: {} };
    const form = await renderForm();
    await userEvent.selectOptions(within(form).getByLabelText('Agent'), '2');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'NCR' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Assign Ghadi' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to assign Ghadi');
  });
});
