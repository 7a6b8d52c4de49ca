import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResultHistoryEntry } from '../../../shared/schemas/declarations.js';
import { MISMATCH_MESSAGE, PENDING_MESSAGE } from '../../../shared/schemas/pending.js';
import { renderWithQuery } from '../../test/render.js';
import { UpdateResultForm } from './update-result-form.js';

/** Noon of 10 December 2026 in Kolkata, the site's zone. */
const NOW = Date.parse('2026-12-10T06:30:00Z');
const TODAY = '2026-12-10';

const declared = (date: string, value: string): ResultHistoryEntry => ({
  seq: 1,
  GID: 5,
  Name: 'Kalyan',
  Date: date,
  Result: value,
  Previous: null,
  DeclaredAt: `${date}T10:15:00.000Z`,
  prevHash: '0'.repeat(64),
  hash: '1'.repeat(64),
  Step: 'open',
  DeclaredById: 2,
  DeclaredByName: 'Ravi',
});

let stored: Record<string, string> = {};
let posts: unknown[] = [];
/** The submission's answer: published unless a test says otherwise. */
let submitted: { status: number; body: unknown } = { status: 200, body: { success: true, data: {} } };

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true, toFake: ['Date'] });
  stored = {};
  posts = [];
  submitted = { status: 200, body: { success: true, data: {} } };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (url.pathname === '/api/site') {
        return json({ success: true, siteName: 'Site', timeZone: 'Asia/Kolkata', today: TODAY });
      }
      if (url.pathname === '/api/result-history') {
        const date = url.searchParams.get('date') ?? '';
        const value = stored[date];
        return json({ success: true, data: value ? [declared(date, value)] : [] });
      }
      if (url.pathname === '/api/agent/my-ghadi/update-result') {
        posts.push(JSON.parse(String(init.body)));
        return json(submitted.body, submitted.status);
      }
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const MARKET = { GID: 5, NameEn: 'Kalyan', Kind: 'open-close' as const };

describe('UpdateResultForm on an open/close market', () => {
  it('reads the close panna against the day’s open half and sends the whole value', async () => {
    stored[TODAY] = '123-6';
    const user = userEvent.setup();
    renderWithQuery(<UpdateResultForm ghadi={MARKET} todayValue="123-6" onClose={() => {}} />);
    await waitFor(() => expect(screen.getByLabelText('Date')).toHaveValue(TODAY));
    expect(screen.getByText('Close panna due')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Result'), '459');
    expect(screen.getByTestId('entry-readout')).toHaveTextContent(
      'Close 459 · ank 8 · Jodi 68 · published as 123-68-459',
    );
    await user.click(screen.getByRole('button', { name: 'Save Result' }));
    expect(await screen.findByText('Result updated!')).toBeInTheDocument();
    expect(posts).toEqual([{ ghadiId: 5, result: '123-68-459', dateTime: TODAY }]);
  });

  it('reads another date against that date’s value', async () => {
    stored['2026-12-01'] = '128-1';
    const user = userEvent.setup();
    renderWithQuery(<UpdateResultForm ghadi={MARKET} todayValue={null} onClose={() => {}} />);
    const date = screen.getByLabelText('Date');
    await waitFor(() => expect(date).toHaveValue(TODAY));
    expect(screen.getByText('Open panna due')).toBeInTheDocument();
    await user.clear(date);
    await user.type(date, '2026-12-01');
    expect(await screen.findByText('Close panna due')).toBeInTheDocument();
  });

  it('refuses an impossible panna without a request', async () => {
    const user = userEvent.setup();
    renderWithQuery(<UpdateResultForm ghadi={MARKET} onClose={() => {}} />);
    await user.type(screen.getByLabelText('Result'), '213');
    await user.click(screen.getByRole('button', { name: 'Save Result' }));
    expect(screen.getByLabelText('Result')).toHaveAccessibleDescription(/213 is not a valid open panna/);
    expect(posts).toEqual([]);
  });
});

describe('UpdateResultForm on a jodi ghadi', () => {
  it('sends the value as typed, and asks for no declarations', async () => {
    const user = userEvent.setup();
    renderWithQuery(<UpdateResultForm ghadi={{ GID: 3, NameEn: 'Gali' }} onClose={() => {}} />);
    await user.type(screen.getByLabelText('Result'), '45');
    await user.click(screen.getByRole('button', { name: 'Save Result' }));
    expect(await screen.findByText('Result updated!')).toBeInTheDocument();
    expect(posts).toEqual([{ ghadiId: 3, result: '45', dateTime: TODAY }]);
    expect(screen.queryByTestId('entry-readout')).not.toBeInTheDocument();
    const asked = vi.mocked(fetch).mock.calls.map(([input]) => String(input));
    expect(asked.some((url) => url.startsWith('/api/result-history'))).toBe(false);
  });
});

describe('UpdateResultForm on a ghadi that needs two people', () => {
  const enter = async (value: string) => {
    const user = userEvent.setup();
    renderWithQuery(<UpdateResultForm ghadi={{ GID: 3, NameEn: 'Gali' }} onClose={() => {}} />);
    await user.type(screen.getByLabelText('Result'), value);
    await user.click(screen.getByRole('button', { name: 'Save Result' }));
  };

  it('says a held value is not published yet (202)', async () => {
    submitted = { status: 202, body: { success: true, pending: true, message: PENDING_MESSAGE } };
    await enter('45');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Waiting for a second confirmation: this ghadi needs two people to enter the same value. Nothing is published yet.',
    );
    expect(screen.queryByText('Result updated!')).not.toBeInTheDocument();
  });

  it('says a value that differs from another person’s is not published (409)', async () => {
    submitted = { status: 409, body: { success: false, mismatch: true, message: MISMATCH_MESSAGE } };
    await enter('54');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Not published. ${MISMATCH_MESSAGE}. See Pending results.`,
    );
  });
});
