import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TodayBoard as Board, TodayGhadi } from '../../../shared/schemas/today.js';
import { renderWithQuery } from '../../test/render.js';
import { TodayBoard } from './today-board.js';

/* Open/close markets and closed ghadis on the board; today-board-view.test.tsx has the rest. */

vi.mock('../../lib/live-updates.js', () => ({ subscribeLive: () => () => {} }));

const MINUTE = 60_000;
/** 14:00 in Kolkata on the board's day. */
const NOW = Date.parse('2026-11-28T08:30:00.000Z');
const at = (minutesFromNow: number) => new Date(NOW + minutesFromNow * MINUTE).toISOString();

function row(GID: number, NameEn: string, overrides: Partial<TodayGhadi> = {}): TodayGhadi {
  return {
    GID,
    NameEn,
    NameHn: '',
    RTime: '2:00 PM',
    dueAt: at(0),
    state: 'waiting',
    Kind: 'jodi',
    OpenTime: null,
    openDueAt: null,
    step: null,
    closed: null,
    closedNote: null,
    Result: null,
    DeclaredAt: null,
    DeclaredBy: null,
    agents: [],
    ...overrides,
  };
}

const market = (GID: number, NameEn: string, overrides: Partial<TodayGhadi>) =>
  row(GID, NameEn, {
    Kind: 'open-close',
    OpenTime: '1:55 PM',
    openDueAt: at(-5),
    RTime: '3:30 PM',
    dueAt: at(90),
    step: 'open',
    ...overrides,
  });

const BOARD: Board = {
  date: '2026-11-28',
  timeZone: 'Asia/Kolkata',
  overdueAfterMinutes: 15,
  ghadis: [
    market(1, 'Opening', { state: 'due' }),
    market(2, 'Closing', { step: 'close', Result: '123-6', DeclaredAt: at(-4), DeclaredBy: 'Ravi' }),
    market(3, 'Whole', { step: 'complete', state: 'declared', Result: '123-68-459', DeclaredAt: at(-1) }),
    row(4, 'Festival', { RTime: '1:00 PM', dueAt: at(-60), closed: 'holiday', closedNote: 'Diwali' }),
    row(5, 'Sunday only', { RTime: '1:00 PM', dueAt: at(-60), closed: 'off-day' }),
    market(6, 'Shut market', { closed: 'holiday' }),
  ],
};

let requests = 0;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
  requests = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/today') requests += 1;
      const body =
        url.pathname === '/api/today'
          ? { success: true, data: BOARD }
          : { success: true, siteName: 'Ghadi Results', timeZone: 'Asia/Kolkata', today: '2026-11-28' };
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const rowOf = (name: string) =>
  screen
    .getAllByRole('rowheader')
    .find((cell) => cell.firstElementChild?.textContent === name)
    ?.closest('tr') as HTMLTableRowElement;

describe("today's board: markets and closures", () => {
  it('says the step each market waits for, timed by its open, then its close', async () => {
    renderWithQuery(<TodayBoard />);
    await screen.findByRole('table');
    expect(rowOf('Opening')).toHaveTextContent('Open due 1:55 PM');
    expect(within(rowOf('Opening')).getByText('5 min past due')).toBeInTheDocument();
    expect(rowOf('Opening').dataset.state).toBe('due');

    expect(rowOf('Closing')).toHaveTextContent('Close due 3:30 PM');
    expect(within(rowOf('Closing')).getByText('in 1 h 30 min')).toBeInTheDocument();
    expect(within(rowOf('Closing')).getByText('Waiting')).toBeInTheDocument();
    expect(rowOf('Closing')).toHaveTextContent('123-6by Ravi');

    expect(rowOf('Whole')).toHaveTextContent('Complete');
    expect(within(rowOf('Whole')).getByText('Declared')).toBeInTheDocument();

    // The open panna 15 minutes late is overdue, by the clock and with no request.
    await act(() => vi.advanceTimersByTime(10 * MINUTE));
    expect(rowOf('Opening').dataset.state).toBe('overdue');
    expect(rowOf('Closing').dataset.state).toBe('waiting');
    expect(requests).toBe(1);
  });

  it('shows closed ghadis as Holiday or Closed today, never overdue, and counts them apart', async () => {
    renderWithQuery(<TodayBoard />);
    await screen.findByRole('table');
    const festival = rowOf('Festival');
    expect(festival.dataset.state).toBe('closed');
    expect(within(festival).getByText('Holiday')).toBeInTheDocument();
    expect(festival).toHaveTextContent('Holiday: Diwali');
    expect(festival.className).not.toMatch(/bg-red-50/);
    expect(festival).not.toHaveTextContent('past due');

    const offDay = rowOf('Sunday only');
    expect(within(offDay).getByText('Closed today')).toBeInTheDocument();
    expect(offDay).toHaveTextContent('Closed today: not one of its days');

    expect(rowOf('Shut market')).toHaveTextContent('Open 1:55 PM · Close 3:30 PM');
    expect(rowOf('Shut market').dataset.state).toBe('closed');

    expect(screen.getByRole('status')).toHaveTextContent('No ghadi overdue');
    expect(screen.getByText('1 due · 1 waiting · 1 declared · 0 corrected · 3 closed')).toBeInTheDocument();
  });
});
