import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '../../../shared/schemas/users.js';
import { startSession } from '../../lib/session.js';
import { renderWithQuery } from '../../test/render.js';
import { AgentsPage } from './agents-page.js';

const user = (User_Id: number, UserName: string, UserType: 'admin' | 'agent'): UserRecord => ({
  _id: String(User_Id),
  id: String(User_Id),
  User_Id,
  UserName,
  DisplayName: `${UserName} name`,
  Email: `${UserName}@example.com`,
  UserType,
  userType: UserType,
  isActive: true,
  createdAt: '',
  updatedAt: '',
});

const ADMIN = user(1, 'admin', 'admin');
const AGENT = user(2, 'ravi', 'agent');

let writes: Array<{ method: string; url: string; body: Record<string, unknown> }> = [];
let saveAnswer: { status: number; body: unknown } = { status: 200, body: { success: true, data: AGENT } };

beforeEach(() => {
  writes = [];
  saveAnswer = { status: 200, body: { success: true, data: AGENT } };
  startSession({ ...ADMIN, token: 'token' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      const method = init.method ?? 'GET';
      if (method !== 'GET') {
        writes.push({ method, url, body: JSON.parse(String(init.body ?? '{}')) });
        return json(saveAnswer.body, saveAnswer.status);
      }
      if (url === '/api/users') return json({ success: true, data: [ADMIN, AGENT] });
      if (url.endsWith('/count')) return json({ success: true, count: 1 });
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function fillIdentity(form: HTMLElement, name: string) {
  await userEvent.type(within(form).getByLabelText('Username'), name);
  await userEvent.type(within(form).getByLabelText('Display Name'), `${name} name`);
  await userEvent.type(within(form).getByLabelText('Email'), `${name}@example.com`);
}

describe('AgentsPage form', () => {
  it('requires username, display name, a valid email and, when creating, a password', async () => {
    renderWithQuery(<AgentsPage />);
    const form = screen.getByRole('form', { name: 'Add Agent' });
    await userEvent.click(within(form).getByRole('button', { name: 'Add Agent' }));
    expect(await within(form).findAllByText('This field is required')).toHaveLength(4);

    await userEvent.type(within(form).getByLabelText('Email'), 'not-an-email');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Agent' }));
    expect(await within(form).findByText('Must be a valid email address')).toBeInTheDocument();
    expect(writes).toEqual([]);
  });

  it('creates an agent with a password and without a UserType', async () => {
    renderWithQuery(<AgentsPage />);
    const form = screen.getByRole('form', { name: 'Add Agent' });
    await fillIdentity(form, 'sunita');
    await userEvent.type(within(form).getByLabelText('Password'), 'short');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Agent' }));
    expect(await within(form).findByText('Must be at least 8 characters')).toBeInTheDocument();

    await userEvent.type(within(form).getByLabelText('Password'), '-and-long');
    await userEvent.selectOptions(within(form).getByLabelText('Status'), 'Inactive');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Agent' }));
    expect(await screen.findByText('Agent created.')).toBeInTheDocument();
    expect(writes).toEqual([
      {
        method: 'POST',
        url: '/api/users',
        body: {
          UserName: 'sunita',
          DisplayName: 'sunita name',
          Email: 'sunita@example.com',
          Password: 'short-and-long',
          isActive: false,
        },
      },
    ]);
    expect(screen.getByRole('form', { name: 'Add Agent' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('');
  });

  it('edits without a password: a blank one is not sent, so the old one stays', async () => {
    renderWithQuery(<AgentsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit ravi' }));
    const form = screen.getByRole('form', { name: 'Edit Agent: ravi' });
    expect(within(form).getByLabelText('Username')).toHaveValue('ravi');
    expect(within(form).getByLabelText('Password')).toHaveValue('');
    expect(within(form).getByText('Leave blank to keep the current password.')).toBeInTheDocument();

    await userEvent.clear(within(form).getByLabelText('Display Name'));
    await userEvent.type(within(form).getByLabelText('Display Name'), 'Ravi Kumar');
    await userEvent.click(within(form).getByRole('button', { name: 'Update Agent' }));
    expect(await screen.findByText('Agent updated.')).toBeInTheDocument();
    expect(writes).toEqual([
      {
        method: 'PUT',
        url: '/api/users/2',
        body: { UserName: 'ravi', DisplayName: 'Ravi Kumar', Email: 'ravi@example.com', isActive: true },
      },
    ]);
    expect(screen.getByRole('form', { name: 'Add Agent' })).toBeInTheDocument();
  });

  it('Cancel leaves edit mode and clears the form', async () => {
    renderWithQuery(<AgentsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit ravi' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('form', { name: 'Add Agent' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('');
  });

  it('shows the server message when a save fails, e.g. a duplicate username', async () => {
    saveAnswer = { status: 409, body: { success: false, message: 'Username already exists' } };
    renderWithQuery(<AgentsPage />);
    const form = screen.getByRole('form', { name: 'Add Agent' });
    await fillIdentity(form, 'ravi');
    await userEvent.type(within(form).getByLabelText('Password'), 'password-1');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Agent' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Username already exists');
  });

  it('marks admins and offers no Delete for the signed-in account', async () => {
    renderWithQuery(<AgentsPage />);
    const adminRow = (await screen.findByRole('button', { name: 'Edit admin' })).closest('tr') as HTMLElement;
    expect(within(adminRow).getByText('Admin')).toBeInTheDocument();
    expect(within(adminRow).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete ravi' })).toBeInTheDocument();
  });
});
