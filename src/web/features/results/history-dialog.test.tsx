import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResultHistoryEntry } from '../../../shared/schemas/declarations.js';
import { adminResultRecord, pagedAnswer } from '../../test/records.js';
import { renderRoutes } from '../../test/render.js';
import { ResultsPage } from './results-page.js';

const RESULTS = [
  adminResultRecord(1, '2026-11-22', '54', { Name: 'NCR', Corrected: true, Previous: '45' }),
  adminResultRecord(2, '2026-11-22', '07', { Name: 'Gali' }),
];

const HISTORY: ResultHistoryEntry[] = [
  {
    seq: 3,
    GID: 1,
    Name: 'NCR',
    Date: '2026-11-22',
    Result: '45',
    Previous: null,
    // 14:32 in Kolkata.
    DeclaredAt: '2026-11-22T09:02:00.000Z',
    prevHash: '2'.repeat(64),
    hash: '3'.repeat(64),
    Step: null,
    DeclaredById: 2,
    DeclaredByName: 'Ravi',
  },
  {
    seq: 7,
    GID: 1,
    Name: 'NCR',
    Date: '2026-11-22',
    Result: '54',
    Previous: '45',
    // The next morning, 09:05 in Kolkata.
    DeclaredAt: '2026-11-23T03:35:00.000Z',
    prevHash: '6'.repeat(64),
    hash: '7'.repeat(64),
    Step: null,
    DeclaredById: 1,
    DeclaredByName: 'Admin',
  },
];

type Answer = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
let historyAnswers: Array<() => Answer> = [];
let historyRequests: string[] = [];

beforeEach(() => {
  historyAnswers = [];
  historyRequests = [];
  // jsdom has no modal dialogs.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      const json = ({ status, body }: { status: number; body: unknown }) =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      if (url.pathname === '/api/results') return json({ status: 200, body: pagedAnswer(RESULTS, 1, 5) });
      if (url.pathname === '/api/site') {
        return json({
          status: 200,
          body: { success: true, siteName: 'Site', timeZone: 'Asia/Kolkata', today: '2026-11-23' },
        });
      }
      if (url.pathname === '/api/result-history') {
        historyRequests.push(url.search);
        const next =
          historyAnswers.shift() ?? (() => ({ status: 200, body: { success: true, data: HISTORY } }));
        return json(await next());
      }
      return json({ status: 404, body: { success: false, message: 'Not found' } });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const renderPage = () =>
  renderRoutes([{ path: '/admin/results', element: <ResultsPage /> }], '/admin/results');

describe('a result’s history on the admin Results screen', () => {
  it('opens from its row: who declared each value, when in the site’s zone, what it replaced', async () => {
    let release: () => void = () => {};
    historyAnswers.push(
      () =>
        new Promise((resolve) => {
          release = () => resolve({ status: 200, body: { success: true, data: HISTORY } });
        }),
    );
    renderPage();
    await screen.findByRole('table', { name: 'All Agents Ghadi Results' });
    expect(screen.getByRole('button', { name: 'History of Gali 2026-11-22' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'History of NCR 2026-11-22' }));

    const dialog = screen.getByRole('dialog', { name: 'History of NCR 2026-11-22' });
    expect(dialog).toHaveAttribute('open');
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading history…');
    release();

    const list = await within(dialog).findByRole('list', { name: 'Declarations, oldest first' });
    const entries = within(list).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      'Entry #322 Nov 2026 14:32Declared 45by Ravi',
      'Entry #723 Nov 2026 09:05Corrected from 45 →to 54by Admin',
    ]);
    expect(within(dialog).getByText('Times in Asia/Kolkata.')).toBeInTheDocument();
    expect(historyRequests).toEqual(['?gid=1&date=2026-11-22']);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(dialog).not.toHaveAttribute('open'));
  });

  it('a failure shows an error with Retry, which asks again', async () => {
    historyAnswers.push(() => ({ status: 500, body: { success: false, message: 'Internal error' } }));
    renderPage();
    await screen.findByRole('table', { name: 'All Agents Ghadi Results' });
    await userEvent.click(screen.getByRole('button', { name: 'History of NCR 2026-11-22' }));
    const dialog = screen.getByRole('dialog', { name: 'History of NCR 2026-11-22' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to load the history');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findAllByRole('listitem')).toHaveLength(2);
    expect(historyRequests).toHaveLength(2);
  });

  it('a result with no entries says so', async () => {
    historyAnswers.push(() => ({ status: 200, body: { success: true, data: [] } }));
    renderPage();
    await screen.findByRole('table', { name: 'All Agents Ghadi Results' });
    await userEvent.click(screen.getByRole('button', { name: 'History of Gali 2026-11-22' }));
    const dialog = screen.getByRole('dialog', { name: 'History of Gali 2026-11-22' });
    expect(
      await within(dialog).findByText('No declarations are recorded for this result.'),
    ).toBeInTheDocument();
  });
});
