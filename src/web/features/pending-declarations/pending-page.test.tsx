import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MISMATCH_MESSAGE,
  PENDING_MESSAGE,
  type PendingDeclaration,
} from '../../../shared/schemas/pending.js';
import { endSession, startSession } from '../../lib/session.js';
import { renderWithQuery } from '../../test/render.js';
import { PendingPage } from './pending-page.js';

/** The page's live stream: quiet here (a publication by someone else is the polling tests' concern). */
vi.mock('../../lib/live-updates.js', () => ({ subscribeLive: () => () => {} }));

/** Noon of Thursday 10 December 2026 in Kolkata, the site's zone. */
const NOW = Date.parse('2026-12-10T06:30:00Z');
const TODAY = '2026-12-10';
const YESTERDAY = '2026-12-09';
const ADMIN_ID = 1;

const entry = (UserId: number, UserName: string, Result: string, SubmittedAt: string) => ({
  UserId,
  UserName,
  Result,
  SubmittedAt,
});

/** Two agents entered different values for Gali today: the admin must decide. */
const GALI: PendingDeclaration = {
  GID: 5,
  Name: 'Gali',
  Date: TODAY,
  Current: null,
  Mismatch: true,
  Entries: [
    entry(2, 'Ravi', '45', '2026-12-10T08:35:00.000Z'),
    entry(3, 'Meena', '54', '2026-12-10T08:37:09.000Z'),
  ],
};
/** A correction of yesterday's value, waiting for a second person. */
const DESAWAR: PendingDeclaration = {
  GID: 7,
  Name: 'Desawar',
  Date: YESTERDAY,
  Current: '12',
  Mismatch: false,
  Entries: [entry(2, 'Ravi', '21', '2026-12-09T23:50:00.000Z')],
};
/** The signed-in admin's own entry, waiting for someone else's. */
const FARIDABAD: PendingDeclaration = {
  GID: 6,
  Name: 'Faridabad',
  Date: TODAY,
  Current: null,
  Mismatch: false,
  Entries: [entry(ADMIN_ID, 'admin', '33', '2026-12-10T05:00:00.000Z')],
};

type Answer = { status: number; body: unknown };
let pending: PendingDeclaration[] = [];
let requests: Array<{ method: string; path: string; body: unknown }> = [];
/** What the next submission is answered; by default it publishes, and its ghadi/date leaves the list. */
let submitAnswer: ((body: { ghadiId: number; dateTime: string }) => Answer) | null = null;

const PUBLISHED = (body: { ghadiId: number; dateTime: string }): Answer => {
  pending = pending.filter((item) => !(item.GID === body.ghadiId && item.Date === body.dateTime));
  return { status: 200, body: { success: true, message: 'Result updated', data: {} } };
};

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true, toFake: ['Date'] });
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  startSession({
    _id: String(ADMIN_ID),
    id: String(ADMIN_ID),
    User_Id: ADMIN_ID,
    UserName: 'admin',
    DisplayName: 'Admin',
    Email: 'admin@example.com',
    UserType: 'admin',
    userType: 'admin',
    isActive: true,
    token: 'token',
  });
  // Not in the order shown: the page puts mismatches first, then the latest date.
  pending = [DESAWAR, FARIDABAD, GALI];
  requests = [];
  submitAnswer = PUBLISHED;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status });
      if (url === '/api/site') {
        return json({ success: true, siteName: 'Ghadi Results', timeZone: 'Asia/Kolkata', today: TODAY });
      }
      if (method === 'GET' && url === '/api/pending') return json({ success: true, data: pending });
      requests.push({ method, path: url, body });
      if (method === 'POST' && url === '/api/agent/my-ghadi/update-result' && submitAnswer) {
        const answer = submitAnswer(body);
        return json(answer.body, answer.status);
      }
      const discarded = /^\/api\/pending\/(\d+)\/([\d-]+)$/.exec(url);
      if (method === 'DELETE' && discarded) {
        const left = pending.filter(
          (item) => !(item.GID === Number(discarded[1]) && item.Date === discarded[2]),
        );
        if (left.length === pending.length) {
          return json({ success: false, message: 'Nothing is pending for this ghadi and date' }, 404);
        }
        pending = left;
        return json({ success: true, message: 'Pending entries discarded' });
      }
      return json({ success: false, message: 'Not found' }, 404);
    }),
  );
});

afterEach(() => {
  endSession();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const cardOf = async (name: string) =>
  (await screen.findByRole('article', { name: new RegExp(`^${name}`) })) as HTMLElement;
const notice = () => screen.getByRole('button', { name: 'Dismiss' }).parentElement as HTMLElement;

describe('the Pending results screen', () => {
  it('lists mismatches first and marks them, then the entries that wait, the latest date first', async () => {
    renderWithQuery(<PendingPage />);
    await cardOf('Gali');
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Need your decision (1)',
      'Waiting for a second person (2)',
    ]);
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-labelledby'))).toEqual([
      `pending-5-${TODAY}`,
      `pending-6-${TODAY}`,
      `pending-7-${YESTERDAY}`,
    ]);
    const gali = await cardOf('Gali');
    expect(gali).toHaveAttribute('data-mismatch', 'true');
    expect(within(gali).getByText('Mismatch: the entries differ')).toBeInTheDocument();
    expect(within(gali).getByRole('heading')).toHaveTextContent('Gali · Thu 10 Dec 2026');
    expect(within(gali).getByText('Today')).toBeInTheDocument();
    expect(gali).toHaveTextContent('Nothing published yet for this date.');
    // Who, what and when (in the site's zone, whatever the browser's), each with its own Publish.
    const entries = within(within(gali).getByRole('list', { name: 'Entries for Gali on Thu 10 Dec 2026' }))
      .getAllByRole('listitem')
      .map((item) => [
        item.querySelector('span span')?.textContent,
        within(item).getByTestId('pending-value').textContent,
        item.querySelector('time')?.textContent,
      ]);
    expect(entries).toEqual([
      ['Ravi', '45', '10 Dec 2026 14:05'],
      ['Meena', '54', '10 Dec 2026 14:07'],
    ]);
    expect(within(gali).getByRole('button', { name: /^Publish 45, Ravi’s entry/ })).toBeEnabled();
    expect(within(gali).getByRole('button', { name: /^Publish 54, Meena’s entry/ })).toBeEnabled();

    const desawar = await cardOf('Desawar');
    expect(desawar).toHaveAttribute('data-mismatch', 'false');
    expect(within(desawar).getByText('Waiting for a 2nd confirmation')).toBeInTheDocument();
    expect(within(desawar).getByText('Yesterday')).toBeInTheDocument();
    expect(desawar).toHaveTextContent('Published now: 12');
    // 23:50 UTC is the next morning in Kolkata.
    expect(desawar).toHaveTextContent('10 Dec 2026 05:20');
    expect(screen.getByText('Times in Asia/Kolkata.')).toBeInTheDocument();
  });

  it('offers no Publish for the admin’s own entry: the same person twice is not two', async () => {
    renderWithQuery(<PendingPage />);
    const faridabad = await cardOf('Faridabad');
    expect(within(faridabad).getByText('(you)')).toBeInTheDocument();
    expect(within(faridabad).getByText('Needs another person’s entry')).toBeInTheDocument();
    expect(within(faridabad).queryByRole('button', { name: /^Publish 33/ })).not.toBeInTheDocument();
  });

  it('publishes an entry as the admin’s own submission, against the value published now', async () => {
    const user = userEvent.setup();
    renderWithQuery(<PendingPage />);
    await user.click(within(await cardOf('Gali')).getByRole('button', { name: /^Publish 54/ }));
    expect(await screen.findByText('Published 54 for Gali on Thu 10 Dec 2026.')).toBeInTheDocument();
    expect(requests).toEqual([
      {
        method: 'POST',
        path: '/api/agent/my-ghadi/update-result',
        body: { ghadiId: 5, result: '54', dateTime: TODAY, Expected: null },
      },
    ]);
    // The list is asked again: Gali has left it, and with it the section of decisions.
    await waitFor(() => expect(screen.queryByRole('article', { name: /^Gali/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('heading', { name: /Need your decision/ })).not.toBeInTheDocument();
  });

  it('says so when a value is held rather than published (202)', async () => {
    const user = userEvent.setup();
    submitAnswer = () => ({ status: 202, body: { success: true, pending: true, message: PENDING_MESSAGE } });
    renderWithQuery(<PendingPage />);
    await user.click(within(await cardOf('Desawar')).getByRole('button', { name: /^Publish 21/ }));
    expect(
      await screen.findByText(
        '21 for Desawar on Wed 9 Dec 2026 is held as your entry: nothing is published yet.',
      ),
    ).toBeInTheDocument();
    expect(notice()).toHaveAttribute('role', 'status');
    expect(requests[0]?.body).toEqual({ ghadiId: 7, result: '21', dateTime: YESTERDAY, Expected: '12' });
    expect(await cardOf('Desawar')).toBeInTheDocument();
  });

  it('checks a typed value, and says when it differs from the entries (409 mismatch)', async () => {
    const user = userEvent.setup();
    submitAnswer = () => ({
      status: 409,
      body: { success: false, mismatch: true, message: MISMATCH_MESSAGE },
    });
    renderWithQuery(<PendingPage />);
    const form = within(await cardOf('Gali')).getByRole('form', {
      name: 'Declare a value for Gali on Thu 10 Dec 2026',
    });
    await user.click(within(form).getByRole('button', { name: 'Publish value' }));
    expect(await within(form).findByText('This field is required')).toBeInTheDocument();
    expect(requests).toEqual([]);

    await user.type(within(form).getByLabelText('Declare a value'), '99');
    await user.click(within(form).getByRole('button', { name: 'Publish value' }));
    expect(
      await screen.findByText(
        'Not published: 99 differs from another person’s entry for Gali on Thu 10 Dec 2026.',
      ),
    ).toBeInTheDocument();
    expect(notice()).toHaveAttribute('role', 'alert');
    expect(requests.map((request) => request.body)).toEqual([
      { ghadiId: 5, result: '99', dateTime: TODAY, Expected: null },
    ]);
  });

  it('gives the server’s reason for another refusal, and keeps the typed value', async () => {
    const user = userEvent.setup();
    submitAnswer = () => ({
      status: 409,
      body: { success: false, message: 'The result is now 13, not the value expected' },
    });
    renderWithQuery(<PendingPage />);
    const form = within(await cardOf('Desawar')).getByRole('form');
    await user.type(within(form).getByLabelText('Declare a value'), '22');
    await user.click(within(form).getByRole('button', { name: 'Publish value' }));
    expect(await screen.findByText('Failed to publish 22 for Desawar on Wed 9 Dec 2026')).toBeInTheDocument();
    expect(screen.getByText('The result is now 13, not the value expected')).toBeInTheDocument();
    expect(within(form).getByLabelText('Declare a value')).toHaveValue('22');
  });

  it('discards a ghadi’s entries once the admin confirms', async () => {
    const user = userEvent.setup();
    renderWithQuery(<PendingPage />);
    const discard = within(await cardOf('Gali')).getByRole('button', {
      name: 'Discard the entries for Gali on Thu 10 Dec 2026',
    });
    await user.click(discard);
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent(
      'Discard all 2 pending entries for Gali on Thu 10 Dec 2026? Nothing is published; the value must be entered again.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests).toEqual([]);

    await user.click(discard);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(
      await screen.findByText('Discarded the entries for Gali on Thu 10 Dec 2026. Nothing was published.'),
    ).toBeInTheDocument();
    expect(requests).toEqual([{ method: 'DELETE', path: `/api/pending/5/${TODAY}`, body: undefined }]);
    await waitFor(() => expect(screen.queryByRole('article', { name: /^Gali/ })).not.toBeInTheDocument());
  });

  it('says why a discard failed (another admin was first)', async () => {
    const user = userEvent.setup();
    renderWithQuery(<PendingPage />);
    await user.click(within(await cardOf('Faridabad')).getByRole('button', { name: /^Discard/ }));
    expect(screen.getByRole('dialog')).toHaveTextContent('Discard the pending entry for Faridabad');
    pending = pending.filter((item) => item !== FARIDABAD);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(
      await screen.findByText('Failed to discard the entries for Faridabad on Thu 10 Dec 2026'),
    ).toBeInTheDocument();
    expect(screen.getByText('Nothing is pending for this ghadi and date')).toBeInTheDocument();
  });

  it('says when nothing waits', async () => {
    pending = [];
    renderWithQuery(<PendingPage />);
    expect(await screen.findByText('No result waits for a confirmation.')).toBeInTheDocument();
  });
});
