import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { TodayBoard as Board, TodayGhadi } from '../../../shared/schemas/today.js';
import { renderWithQuery } from '../../test/render.js';
import { TodayBoard } from './today-board.js';

/** The page's live stream, driven by the test: what subscribeLive was given. */
const live = vi.hoisted(() => ({
  listeners: new Set<(id: number, event: unknown) => void>(),
  versions: [] as Array<number | undefined>,
}));
vi.mock('../../lib/live-updates.js', () => ({
  subscribeLive: (version: number | undefined, listener: (id: number, event: unknown) => void) => {
    live.versions.push(version);
    live.listeners.add(listener);
    return () => live.listeners.delete(listener);
  },
}));

const MINUTE = 60_000;
/** 14:00 in Kolkata on the board's day. */
const NOW = Date.parse('2026-11-28T08:30:00.000Z');
const at = (minutesFromNow: number) => new Date(NOW + minutesFromNow * MINUTE).toISOString();

function row(GID: number, NameEn: string, overrides: Partial<TodayGhadi> = {}): TodayGhadi {
  return {
    GID,
    NameEn,
    NameHn: `${NameEn} हिन्दी`,
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

function board(ghadis: TodayGhadi[]): Board {
  return { date: '2026-11-28', timeZone: 'Asia/Kolkata', overdueAfterMinutes: 15, ghadis };
}

const FIRST = board([
  row(1, 'Soon', {
    RTime: '2:12 PM',
    dueAt: at(12),
    agents: [
      { User_Id: 7, UserName: 'ravi', DisplayName: 'Ravi K', lastSeenAt: at(-3) },
      { User_Id: 8, UserName: 'sunita', DisplayName: '', lastSeenAt: null },
    ],
  }),
  row(2, 'Now', { RTime: '1:57 PM', dueAt: at(-3), state: 'due' }),
  row(3, 'Late', { RTime: '1:35 PM', dueAt: at(-25), state: 'overdue' }),
  row(4, 'Done', {
    RTime: '1:00 PM',
    dueAt: at(-60),
    state: 'declared',
    Result: '45',
    DeclaredAt: at(-58),
    DeclaredBy: 'Ravi K',
  }),
  row(5, 'Fixed', {
    RTime: '11:00',
    dueAt: at(-180),
    state: 'corrected',
    Result: '07',
    DeclaredAt: at(-100),
    DeclaredBy: 'Administrator',
  }),
  row(6, 'Vague', { RTime: 'Evening', dueAt: null }),
]);

let answers: Board[] = [];
let todayRequests = 0;

function stubApi() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      let body: unknown = { success: true, data: [] };
      if (url.pathname === '/api/today') {
        todayRequests += 1;
        body = { success: true, data: answers[Math.min(todayRequests, answers.length) - 1] };
      } else if (url.pathname === '/api/site') {
        body = { success: true, siteName: 'Ghadi Results', timeZone: 'Asia/Kolkata', today: '2026-11-28' };
      }
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

const rowOf = (name: string) => {
  const header = screen
    .getAllByRole('rowheader')
    .find((cell) => cell.firstElementChild?.textContent === name);
  if (!header) throw new Error(`no row for ${name}`);
  return header.closest('tr') as HTMLTableRowElement;
};
const stateOf = (name: string) => rowOf(name).dataset.state;
const emit = (event: LiveEvent) => {
  for (const listener of live.listeners) listener(100, event);
};
/** Moves the faked clock (and its timers) on, as the minutes pass. */
const pass = (milliseconds: number) => act(() => vi.advanceTimersByTime(milliseconds));

beforeEach(() => {
  // Timers and Date are faked from NOW; they also run on with real time, so that waits work.
  vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
  answers = [FIRST];
  todayRequests = 0;
  live.listeners.clear();
  live.versions.length = 0;
  stubApi();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("today's board", () => {
  it('shows each ghadi by order with its time, state in words, result and agents', async () => {
    renderWithQuery(<TodayBoard />);
    const table = await screen.findByRole('table', { name: /Today's ghadis/ });
    for (const header of ['Ghadi', 'Result time', 'State', 'Result', 'Agents', 'Update']) {
      expect(within(table).getByRole('columnheader', { name: header })).toHaveAttribute('scope', 'col');
    }
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'SoonSoon हिन्दी',
      'NowNow हिन्दी',
      'LateLate हिन्दी',
      'DoneDone हिन्दी',
      'FixedFixed हिन्दी',
      'VagueVague हिन्दी',
    ]);
    expect(screen.getByText('Saturday, 28 November 2026')).toBeInTheDocument();

    expect(['Soon', 'Now', 'Late', 'Done', 'Fixed', 'Vague'].map(stateOf)).toEqual([
      'waiting',
      'due',
      'overdue',
      'declared',
      'corrected',
      'waiting',
    ]);
    expect(within(rowOf('Soon')).getByText('Waiting')).toBeInTheDocument();
    expect(within(rowOf('Now')).getByText('Due')).toBeInTheDocument();
    expect(within(rowOf('Late')).getByText('Overdue')).toBeInTheDocument();
    expect(within(rowOf('Done')).getByText('Declared')).toBeInTheDocument();
    expect(within(rowOf('Fixed')).getByText('Corrected')).toBeInTheDocument();

    // The countdown, read on demand only.
    const countdown = within(rowOf('Soon')).getByText('in 12 min');
    expect(countdown).toHaveAttribute('aria-live', 'off');
    expect(within(rowOf('Now')).getByText('3 min past due')).toBeInTheDocument();
    expect(within(rowOf('Vague')).getByText('no set time')).toBeInTheDocument();

    expect(rowOf('Done')).toHaveTextContent('45by Ravi K at 1:02 PM');
    expect(rowOf('Fixed')).toHaveTextContent('07by Administrator at 12:20 PM');
    expect(rowOf('Late')).toHaveTextContent('Not declared yet');

    expect(rowOf('Soon')).toHaveTextContent('Ravi K · last seen 3 min ago');
    expect(rowOf('Soon')).toHaveTextContent('sunita · never seen');
    expect(rowOf('Now')).toHaveTextContent('No agent assigned');
  });

  it('makes overdue rows stand out in colour, icon and words, and counts them politely', async () => {
    renderWithQuery(<TodayBoard />);
    await screen.findByRole('table');
    const late = rowOf('Late');
    expect(late.className).toMatch(/bg-red-50/);
    expect(within(late).getByText('Overdue')).toBeInTheDocument();
    expect(within(late).getByText('25 min past due')).toBeInTheDocument();
    // An icon beside the name, hidden from screen readers (the badge says it in words).
    expect(within(late).getByRole('rowheader').querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    expect(rowOf('Now').className).not.toMatch(/bg-red-50/);

    const count = screen.getByRole('status');
    expect(count).toHaveTextContent('1 ghadi overdue');
    expect(screen.getByText('1 due · 2 waiting · 1 declared · 1 corrected')).toBeInTheDocument();
  });

  it('moves rows from waiting to due to overdue by the clock, with no request', async () => {
    renderWithQuery(<TodayBoard />);
    await screen.findByRole('table');
    expect(todayRequests).toBe(1);

    await pass(11 * MINUTE);
    expect(within(rowOf('Soon')).getByText('in 1 min')).toBeInTheDocument();
    expect(stateOf('Soon')).toBe('waiting');
    // "Now" was due 3 minutes before: 15 minutes after its time it turns overdue.
    expect(stateOf('Now')).toBe('due');
    await pass(1 * MINUTE);
    expect(stateOf('Soon')).toBe('due');
    expect(within(rowOf('Soon')).getByText('Due')).toBeInTheDocument();
    expect(stateOf('Now')).toBe('overdue');
    expect(screen.getByRole('status')).toHaveTextContent('2 ghadis overdue');

    await pass(15 * MINUTE);
    expect(stateOf('Soon')).toBe('overdue');
    expect(screen.getByRole('status')).toHaveTextContent('3 ghadis overdue');
    // Agents' "last seen" moves on with it.
    expect(rowOf('Soon')).toHaveTextContent('Ravi K · last seen 30 min ago');
    // Declared rows and a ghadi without a time stay as they are.
    expect([stateOf('Done'), stateOf('Fixed'), stateOf('Vague')]).toEqual([
      'declared',
      'corrected',
      'waiting',
    ]);
    expect(todayRequests).toBe(1);
  });

  it('turns at the exact instant, not at the next tick', async () => {
    answers = [board([row(1, 'Edge', { dueAt: new Date(NOW + 2_500).toISOString() })])];
    renderWithQuery(<TodayBoard />);
    await screen.findByRole('table');
    expect(stateOf('Edge')).toBe('waiting');
    await pass(2_600);
    expect(stateOf('Edge')).toBe('due');
  });

  it('refetches on a result or ghadi event from the stream (no polling), and the row flips', async () => {
    renderWithQuery(<TodayBoard />);
    await screen.findByRole('table');
    // The stream opens from now on: the board has just been loaded.
    expect(live.versions).toEqual([undefined]);
    expect(stateOf('Late')).toBe('overdue');

    answers = [
      FIRST,
      board(
        FIRST.ghadis.map((ghadi) =>
          ghadi.GID === 3
            ? { ...ghadi, state: 'declared', Result: '88', DeclaredAt: at(0), DeclaredBy: 'Sunita' }
            : ghadi,
        ),
      ),
    ];
    // A content block changing is nothing to the board.
    emit({ kind: 'content', slug: 'blog-section', block: null });
    await pass(1_000);
    expect(todayRequests).toBe(1);

    emit({ kind: 'result', gid: 3, date: '2026-11-28', ghadi: null, result: null, declaration: null });
    await waitFor(() => expect(stateOf('Late')).toBe('declared'));
    expect(todayRequests).toBe(2);
    expect(rowOf('Late')).toHaveTextContent('88by Sunita at 2:00 PM');
    expect(rowOf('Late').className).not.toMatch(/bg-red-50/);
    expect(screen.getByRole('status')).toHaveTextContent('No ghadi overdue');

    // Events that arrive together (a replay) ask once.
    emit({ kind: 'ghadi', gid: 3, ghadi: null });
    emit({ kind: 'ghadi', gid: 4, ghadi: null });
    emit({ kind: 'day', today: '2026-11-29', recordMonth: '2026-11', ghadis: [], record: null });
    await waitFor(() => expect(todayRequests).toBe(3));
    await pass(1_000);
    expect(todayRequests).toBe(3);

    // Thirty minutes with no event: no request.
    await pass(30 * MINUTE);
    expect(todayRequests).toBe(3);
  });

  it('opens the Update Result form under the row in one tap', async () => {
    renderWithQuery(<TodayBoard />);
    await screen.findByRole('table');
    const open = screen.getByRole('button', { name: 'Update Result of Late' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(open);
    expect(open).toHaveAttribute('aria-expanded', 'true');
    const form = screen.getByRole('form', { name: 'Update Result: Late' });
    expect(document.getElementById(open.getAttribute('aria-controls') ?? '')).toContainElement(form);
    expect(within(form).getByLabelText('Result')).toHaveFocus();
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(within(form).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it('says so when the board cannot be loaded, and Retry loads it', async () => {
    let fail = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        fail
          ? new Response(JSON.stringify({ success: false, message: 'down' }), { status: 500 })
          : new Response(JSON.stringify({ success: true, data: FIRST }), { status: 200 }),
      ),
    );
    renderWithQuery(<TodayBoard />);
    expect(await screen.findByRole('alert')).toHaveTextContent("Failed to load today's board");
    fail = false;
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });
});
