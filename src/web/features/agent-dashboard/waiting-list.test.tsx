import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../../shared/dates.js';
import type { PendingDeclaration } from '../../../shared/schemas/pending.js';
import { endSession } from '../../lib/session.js';
import { ghadiRecord } from '../../test/records.js';
import { renderRoutes } from '../../test/render.js';
import { AgentDashboardPage } from './agent-dashboard-page.js';
import { heldRows } from './held-entries.js';
import { HeldList, MISMATCH_TEXT } from './held-list.js';
import type { Submission } from './submission-entry.js';
import type { QueueSnapshot } from './submission-queue.js';
import {
  fakeApi,
  freshPhoneStorage,
  heldDeclarationOf,
  list,
  saved,
  signInAgent,
  siteToday,
} from './test-support.js';
import type { MyPending } from './use-my-pending.js';
import { WaitingList } from './waiting-list.js';

const TODAY = '2026-11-26';
const NOW = Date.parse('2026-11-26T10:06:00.000Z');

function submission(overrides: Partial<Submission>): Submission {
  return {
    key: `key-${overrides.order ?? 1}`,
    userId: 42,
    order: 1,
    ghadiId: 1,
    ghadiName: 'Gali',
    date: TODAY,
    result: '45',
    enteredAt: '2026-11-26T10:00:00.000Z',
    state: 'waiting',
    attempts: 1,
    listed: true,
    message: 'No connection',
    ...overrides,
  };
}

const snapshotOf = (submissions: Submission[], signInNeeded = false): QueueSnapshot => ({
  submissions,
  signInNeeded,
  nextAttemptAt: null,
});

const items = () => within(screen.getByRole('list')).getAllByRole('listitem');

describe('WaitingList', () => {
  it('shows nothing while the phone keeps nothing', () => {
    const { container } = render(
      <WaitingList
        snapshot={snapshotOf([])}
        today={TODAY}
        now={NOW}
        onSendNow={() => {}}
        onDismiss={() => {}}
        onSendAnyway={() => {}}
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('lists each entry with its ghadi, day, value and state, in the order entered', async () => {
    const user = userEvent.setup();
    const onSendNow = vi.fn();
    const onDismiss = vi.fn();
    render(
      <WaitingList
        snapshot={snapshotOf([
          submission({ order: 1, ghadiName: 'Gali', result: '45' }),
          submission({
            order: 2,
            ghadiName: 'Desawar',
            date: addDays(TODAY, -1),
            result: '07',
            state: 'sending',
          }),
          submission({ order: 3, ghadiName: 'Faridabad', result: '12', replaced: '21', attempts: 0 }),
          submission({
            order: 4,
            ghadiName: 'Ghaziabad',
            result: '88',
            state: 'saved',
            savedAt: '2026-11-26T10:05:09.000Z',
          }),
          submission({
            order: 5,
            ghadiName: 'Old',
            date: '2026-11-20',
            result: '03',
            state: 'refused',
            message: 'Agents may only enter today or yesterday',
          }),
        ])}
        today={TODAY}
        now={NOW}
        onSendAnyway={() => {}}
        onSendNow={onSendNow}
        onDismiss={onDismiss}
      />,
    );

    expect(screen.getByRole('heading', { name: 'Waiting to send (3)' })).toBeInTheDocument();
    expect(items().map((item) => item.getAttribute('aria-label'))).toEqual([
      'Gali, Today: 45, Waiting',
      'Desawar, Yesterday: 07, Sending…',
      'Faridabad, Today: 12, Waiting',
      'Ghaziabad, Today: 88, Saved',
      'Old, 2026-11-20: 03, Refused',
    ]);
    const [waiting, sending, replacing, done, refused] = items() as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(waiting).toHaveTextContent(`GaliToday ${TODAY}Kept on this phone (No connection)45Waiting`);
    expect(sending).toHaveTextContent('Sending now…');
    expect(replacing).toHaveTextContent('Replaces 21, entered earlier for the same ghadi and date.');
    // A replacement not yet tried says no more than that it is kept.
    expect(replacing).not.toHaveTextContent('No connection');
    const savedAt = within(done).getByText((_, element) => element?.tagName === 'TIME');
    expect(savedAt).toHaveAttribute('datetime', '2026-11-26T10:05:09.000Z');
    expect(done).toHaveTextContent(/Saved on the server at \d\d:\d\d:\d\d/);
    expect(refused).toHaveTextContent('Not saved: Agents may only enter today or yesterday');

    // Only what is finished can be dismissed.
    expect(
      screen.getAllByRole('button', { name: /^Dismiss/ }).map((button) => button.getAttribute('aria-label')),
    ).toEqual([`Dismiss Ghaziabad ${TODAY}`, 'Dismiss Old 2026-11-20']);
    await user.click(screen.getByRole('button', { name: 'Dismiss Old 2026-11-20' }));
    expect(onDismiss).toHaveBeenCalledWith('key-5');
    await user.click(screen.getByRole('button', { name: 'Send now' }));
    expect(onSendNow).toHaveBeenCalledTimes(1);
  });

  it('asks the agent to sign in again when the session ended, and offers no Send now', () => {
    render(
      <WaitingList
        snapshot={snapshotOf([submission({ message: 'Sign in again to send' })], true)}
        today={TODAY}
        now={NOW}
        onSendAnyway={() => {}}
        onSendNow={() => {}}
        onDismiss={() => {}}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your session has ended. Sign in again to send these',
    );
    expect(screen.queryByRole('button', { name: 'Send now' })).not.toBeInTheDocument();
  });

  it('is titled for what went once nothing waits', () => {
    render(
      <WaitingList
        snapshot={snapshotOf([submission({ state: 'saved', savedAt: '2026-11-26T10:05:09.000Z' })])}
        today={TODAY}
        now={NOW}
        onSendAnyway={() => {}}
        onSendNow={() => {}}
        onDismiss={() => {}}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Sent from this phone' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send now' })).not.toBeInTheDocument();
  });
});

describe('WaitingList, entries the agent must answer', () => {
  it('shows a stale entry’s age and offers Send anyway and Discard; a changed one says the value now', async () => {
    const user = userEvent.setup();
    const onSendAnyway = vi.fn();
    const onDismiss = vi.fn();
    render(
      <WaitingList
        snapshot={snapshotOf([
          submission({ order: 1, ghadiName: 'Gali', state: 'stale', enteredAt: '2026-11-25T13:01:00.000Z' }),
          submission({ order: 2, ghadiName: 'Desawar', state: 'changed', current: '50', message: 'Changed' }),
          submission({ order: 3, ghadiName: 'Faridabad', state: 'changed', current: null }),
          submission({ order: 4, ghadiName: 'Ghaziabad', state: 'changed', message: 'The result changed' }),
          // Held on the server: the held list shows these, not this one.
          submission({ order: 5, ghadiName: 'Held', state: 'pending' }),
          submission({ order: 6, ghadiName: 'Differs', state: 'mismatch' }),
        ])}
        today={TODAY}
        now={NOW}
        onSendNow={() => {}}
        onDismiss={onDismiss}
        onSendAnyway={onSendAnyway}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Not sent: your answer needed (1)' })).toBeInTheDocument();
    expect(items().map((item) => item.getAttribute('aria-label'))).toEqual([
      'Gali, Today: 45, Not sent',
      'Desawar, Today: 45, Changed',
      'Faridabad, Today: 45, Changed',
      'Ghaziabad, Today: 45, Changed',
    ]);
    const [stale, changed, none, unknown] = items() as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    // 10:06 less 13:01 the day before: 21 h 5 min.
    expect(stale).toHaveTextContent(
      /Not sent: entered 21 h 5 min ago, at \d\d:\d\d:\d\d[^.]*\. An entry this old/,
    );
    expect(changed).toHaveTextContent(
      'Changed since you entered it: the saved result is now 50. Not sent; check it, and enter yours again if it is right.',
    );
    expect(none).toHaveTextContent('Changed since you entered it: no result is saved now.');
    expect(unknown).toHaveTextContent('Changed since you entered it: The result changed.');
    expect(screen.queryByRole('button', { name: 'Send now' })).not.toBeInTheDocument();

    await user.click(within(stale).getByRole('button', { name: `Send anyway Gali ${TODAY}` }));
    expect(onSendAnyway).toHaveBeenCalledWith('key-1');
    await user.click(within(stale).getByRole('button', { name: `Discard Gali ${TODAY}` }));
    expect(onDismiss).toHaveBeenCalledWith('key-1');
    await user.click(within(changed).getByRole('button', { name: `Dismiss Desawar ${TODAY}` }));
    expect(onDismiss).toHaveBeenCalledWith('key-2');
  });
});

describe('HeldList', () => {
  const pendingOf = (data: PendingDeclaration[] | undefined): MyPending => ({ data, updatedAt: 1 });

  it('lists the server’s held entries, the agent’s own value only, a mismatch without the other value', () => {
    const rows = heldRows(
      pendingOf([
        heldDeclarationOf(1, TODAY, '45', { Name: 'Gali', Current: '40' }),
        heldDeclarationOf(2, addDays(TODAY, -1), '07', { Name: 'Desawar', Mismatch: true }),
      ]),
      // The server's list, once read, is the one source: the phone's own copy is not listed again.
      [submission({ state: 'pending', result: '45' })],
    );
    render(<HeldList rows={rows} today={TODAY} />);
    expect(
      screen.getByRole('heading', { name: 'Waiting for a second confirmation (2)' }),
    ).toBeInTheDocument();
    expect(items().map((item) => item.getAttribute('aria-label'))).toEqual([
      'Gali, Today: 45, Waiting',
      'Desawar, Yesterday: 07, Different value entered',
    ]);
    expect(items()[0]).toHaveTextContent(
      /Yours, entered at \d\d:\d\d:\d\d[^.]*\. Not public yet\.Published now: 40/,
    );
    expect(items()[1]).toHaveTextContent(MISMATCH_TEXT);
  });

  it('falls back to the phone’s held entries while the server’s list cannot be read, and shows nothing when none', () => {
    const phone = [
      submission({ order: 1, state: 'pending', result: '45' }),
      submission({ order: 2, ghadiName: 'Desawar', state: 'mismatch', result: '07' }),
      submission({ order: 3, state: 'saved', result: '12' }),
    ];
    const { unmount } = render(<HeldList rows={heldRows(pendingOf(undefined), phone)} today={TODAY} />);
    expect(items().map((item) => item.getAttribute('aria-label'))).toEqual([
      'Gali, Today: 45, Waiting',
      'Desawar, Today: 07, Different value entered',
    ]);
    unmount();
    const { container } = render(<HeldList rows={heldRows(pendingOf([]), phone)} today={TODAY} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('AgentDashboardPage with no network', () => {
  beforeEach(() => {
    signInAgent();
    freshPhoneStorage();
  });
  afterEach(() => {
    endSession();
    vi.unstubAllGlobals();
  });

  const renderDashboard = () =>
    renderRoutes([{ path: '/agent/dashboard', element: <AgentDashboardPage /> }], '/agent/dashboard');

  it('keeps what cannot be sent, lists it, replaces it, survives a reload and sends it when online', async () => {
    const user = userEvent.setup();
    let networkUp = false;
    const sent: Array<{ key: string | null; body: unknown }> = [];
    const fetchMock = fakeApi({
      ghadis: () => list([ghadiRecord(1, { NameEn: 'Gali' }), ghadiRecord(2, { NameEn: 'Desawar' })]),
      submit: (request) => {
        if (!networkUp) throw new TypeError('Failed to fetch');
        return saved(request.body);
      },
    });
    // The keys each submission went with, read from the requests fetch was given.
    const keyOf = (init?: RequestInit) => new Headers(init?.headers).get('idempotency-key');
    const view = renderDashboard();
    await screen.findByRole('radio', { name: /Gali/ });

    await user.type(screen.getByLabelText('Result'), '45');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Not sent yet.')).toBeInTheDocument();
    expect(screen.getByLabelText('Result')).toHaveValue('');
    expect(screen.getByRole('heading', { name: 'Waiting to send (1)' })).toBeInTheDocument();
    expect(items().map((item) => item.getAttribute('aria-label'))).toEqual(['Gali, Today: 45, Waiting']);

    // The same ghadi and day again: one declaration, and the list says which value it replaced.
    await user.type(screen.getByLabelText('Result'), '46');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(items().map((item) => item.getAttribute('aria-label'))).toEqual(['Gali, Today: 46, Waiting']),
    );
    expect(items()[0]).toHaveTextContent('Replaces 45');

    await user.click(screen.getByRole('radio', { name: /Desawar/ }));
    await user.type(screen.getByLabelText('Result'), '07');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Waiting to send (2)' })).toBeInTheDocument(),
    );

    // The page closed and opened again: the entries are read back from the phone.
    view.unmount();
    renderDashboard();
    await waitFor(() =>
      expect(items().map((item) => item.getAttribute('aria-label'))).toEqual([
        'Gali, Today: 46, Waiting',
        'Desawar, Today: 07, Waiting',
      ]),
    );

    networkUp = true;
    const before = fetchMock.mock.calls.length;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Sent from this phone' })).toBeInTheDocument(),
    );
    expect(items().map((item) => item.getAttribute('aria-label'))).toEqual([
      'Gali, Today: 46, Saved',
      'Desawar, Today: 07, Saved',
    ]);
    for (const [url, init] of fetchMock.mock.calls.slice(before)) {
      if (String(url).includes('update-result'))
        sent.push({ key: keyOf(init), body: JSON.parse(String(init?.body)) });
    }
    expect(sent.map((request) => request.body)).toEqual([
      { ghadiId: 1, result: '46', dateTime: siteToday(), Expected: null },
      { ghadiId: 2, result: '07', dateTime: siteToday(), Expected: null },
    ]);
    // 46 went with the key it was first tried with; 07 waited behind it, never tried until now.
    const firstTried = fetchMock.mock.calls
      .slice(0, before)
      .filter(([url]) => String(url).includes('update-result'))
      .map(([, init]) => keyOf(init));
    expect(firstTried).toContain(sent[0]?.key);
    expect(firstTried).not.toContain(sent[1]?.key);
  });
});

describe('ResultForm read-back', () => {
  beforeEach(() => {
    signInAgent();
    freshPhoneStorage();
  });
  afterEach(() => {
    endSession();
    vi.unstubAllGlobals();
  });

  it('reads back the ghadi, the day and the value in large type, and opens the number pad', async () => {
    const user = userEvent.setup();
    fakeApi({ ghadis: () => list([ghadiRecord(1, { NameEn: 'Gali' })]) });
    renderRoutes([{ path: '/agent/dashboard', element: <AgentDashboardPage /> }], '/agent/dashboard');
    const readBack = await screen.findByRole('region', { name: 'You are declaring' });
    await waitFor(() => expect(readBack).toHaveTextContent(`You are declaringGaliToday, ${siteToday()}–`));

    await user.type(screen.getByLabelText('Result'), ' 06 ');
    expect(readBack).toHaveTextContent(`GaliToday, ${siteToday()}06`);
    await user.click(screen.getByRole('radio', { name: /^Yesterday/ }));
    expect(readBack).toHaveTextContent(`GaliYesterday, ${addDays(siteToday(), -1)}06`);

    const input = screen.getByLabelText('Result');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    // The pattern, as browsers read it (the v flag), takes what the spec takes and no more.
    const pattern = new RegExp(`^(?:${input.getAttribute('pattern')})$`, 'v');
    for (const value of ['06', '7', 'AB', '1*2', '#+-/', 'ग 5'])
      expect(pattern.test(value), value).toBe(true);
    for (const value of ['4$5', '1.5', '<b>']) expect(pattern.test(value), value).toBe(false);
  });
});
