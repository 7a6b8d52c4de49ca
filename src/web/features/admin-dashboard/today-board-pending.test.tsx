import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PendingDeclaration } from '../../../shared/schemas/pending.js';
import type { TodayGhadi } from '../../../shared/schemas/today.js';
import { renderWithQuery } from '../../test/render.js';
import { TodayBoard } from './today-board.js';

vi.mock('../../lib/live-updates.js', () => ({ subscribeLive: () => () => {} }));

/** 14:00 in Kolkata on the board's day. */
const NOW = Date.parse('2026-11-28T08:30:00.000Z');
const DAY = '2026-11-28';

const row = (GID: number, NameEn: string): TodayGhadi => ({
  GID,
  NameEn,
  NameHn: `${NameEn} हिन्दी`,
  RTime: '6:00 PM',
  dueAt: '2026-11-28T12:30:00.000Z',
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
});

const pendingOf = (GID: number, date: string, Mismatch: boolean): PendingDeclaration => ({
  GID,
  Name: `Ghadi ${GID}`,
  Date: date,
  Current: null,
  Mismatch,
  Entries: [],
});

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true, toFake: ['Date'] });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const json = (value: unknown) => new Response(JSON.stringify(value), { status: 200 });
      if (url === '/api/today') {
        const ghadis = [row(1, 'Waits'), row(2, 'Differs'), row(3, 'Plain'), row(4, 'Yesterday')];
        return json({
          success: true,
          data: { date: DAY, timeZone: 'Asia/Kolkata', overdueAfterMinutes: 15, ghadis },
        });
      }
      if (url === '/api/pending') {
        // Ghadi 4's entry is of yesterday: today's board does not mark it.
        const data = [pendingOf(1, DAY, false), pendingOf(2, DAY, true), pendingOf(4, '2026-11-27', false)];
        return json({ success: true, data });
      }
      return json({ success: true, data: [] });
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

describe('today’s board and pending results', () => {
  it('marks a ghadi whose value of today waits for a second person, or for a decision', async () => {
    renderWithQuery(<TodayBoard />);
    await screen.findByRole('table', { name: /Today's ghadis/ });
    await waitFor(() => expect(within(rowOf('Waits')).getByText('Waiting for 2nd')).toBeInTheDocument());
    expect(within(rowOf('Waits')).getByText('Waiting for 2nd').closest('span')).toHaveTextContent(
      'Waiting for 2nd confirmation',
    );
    expect(within(rowOf('Differs')).getByText('Entries differ')).toBeInTheDocument();
    expect(within(rowOf('Differs')).queryByText('Waiting for 2nd')).not.toBeInTheDocument();
    for (const name of ['Plain', 'Yesterday']) {
      expect(rowOf(name)).not.toHaveTextContent('Waiting for 2nd');
      expect(rowOf(name)).not.toHaveTextContent('Entries differ');
    }
  });
});
