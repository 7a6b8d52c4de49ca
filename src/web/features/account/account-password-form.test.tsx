import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endSession, getSession, startSession } from '../../lib/session.js';
import { ADMIN_ONE } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { AccountPasswordForm, PASSWORD_CHANGED_TEXT } from './account-password-form.js';

let puts: unknown[] = [];
/** What PUT /api/users/me/password answers next. */
let answer: { status: number; body: unknown } = {
  status: 200,
  body: { success: true, message: 'Password changed' },
};

beforeEach(() => {
  startSession({ ...ADMIN_ONE, passwordChangeRequired: true, token: 'token' });
  puts = [];
  answer = { status: 200, body: { success: true, message: 'Password changed' } };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (init.method === 'PUT' && url === '/api/users/me/password') {
        puts.push(JSON.parse(String(init.body)));
        return json(answer.body, answer.status);
      }
      if (url === '/api/users/me/sessions') return json({ success: true, data: [] });
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

const field = (label: string) => screen.getByLabelText(label);

describe("the Account page's password form", () => {
  it('asks for every field, 8 or more characters, and the same new password twice, before sending', async () => {
    const user = userEvent.setup();
    renderWithQuery(<AccountPasswordForm />);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByText('Must be at least 8 characters')).toBeVisible();
    expect(field('Current password')).toHaveFocus();

    await user.type(field('Current password'), 'old-password');
    await user.type(field('New password'), 'short');
    await user.type(field('Confirm new password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Must be at least 8 characters')).toBeVisible();
    expect(field('New password')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(field('New password'));
    await user.type(field('New password'), 'a-new-password');
    await user.clear(field('Confirm new password'));
    await user.type(field('Confirm new password'), 'a-new-passwore');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The passwords do not match')).toBeVisible();
    expect(puts).toEqual([]);
  });

  it("shows the server's reason when the current password is wrong, and keeps the demand", async () => {
    answer = { status: 400, body: { success: false, message: 'The current password is not correct' } };
    const user = userEvent.setup();
    renderWithQuery(<AccountPasswordForm />);
    await user.type(field('Current password'), 'wrong-password');
    await user.type(field('New password'), 'a-new-password');
    await user.type(field('Confirm new password'), 'a-new-password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The current password is not correct');
    expect(getSession()?.passwordChangeRequired).toBe(true);
  });

  it('sends the current and new password, says the other sessions ended, and lifts the demand', async () => {
    const user = userEvent.setup();
    renderWithQuery(<AccountPasswordForm />);
    await user.type(field('Current password'), 'generated-password');
    await user.type(field('New password'), 'a-new-password');
    await user.type(field('Confirm new password'), 'a-new-password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('status')).toHaveTextContent(PASSWORD_CHANGED_TEXT);
    expect(puts).toEqual([{ CurrentPassword: 'generated-password', NewPassword: 'a-new-password' }]);
    await waitFor(() => expect(field('Current password')).toHaveValue(''));
    expect(getSession()?.passwordChangeRequired).toBeUndefined();
    expect(getSession()?.token).toBe('token');
  });
});
