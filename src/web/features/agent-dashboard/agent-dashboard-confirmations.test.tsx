import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PendingDeclaration } from '../../../shared/schemas/pending.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { endSession } from '../../lib/session.js';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { renderRoutes } from '../../test/render.js';
import { AgentDashboardPage } from './agent-dashboard-page.js';
import { MISMATCH_TEXT } from './held-list.js';
import {
  type FakeAnswer,
  FakeClock,
  fakeApi,
  freshPhoneStorage,
  heldAnswer,
  heldDeclarationOf,
  historyOf,
  list,
  mismatchAnswer,
  saved,
  signInAgent,
  siteToday,
} from './test-support.js';

/* The agent's screens with two-person confirmation, Expected, Retry-After, entries too old to send by
   themselves, and an entry whose answer was lost (issue 40). The queue runs on a fake clock. */

const GALI = ghadiRecord(1, { NameEn: 'Gali', Confirmations: 2 });

interface Post {
  key: string | null;
  body: { ghadiId: number; result: string; dateTime: string; Expected?: string | null };
}

let clock: FakeClock;
let rows: PublicResultRecord[];
let held: PendingDeclaration[];
let posts: Post[];

beforeEach(() => {
  signInAgent();
  freshPhoneStorage();
  clock = new FakeClock();
  rows = [];
  held = [];
  posts = [];
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

/** The dashboard on a fake server: `submit` answers each POST, which is recorded with its key. */
function renderDashboard(submit: (post: Post) => FakeAnswer | Promise<FakeAnswer>, ghadi = GALI) {
  const fetchMock = fakeApi({
    ghadis: () => list([ghadi]),
    history: historyOf(rows),
    pending: () => list(held),
    submit: (request) => {
      const init = fetchMock.mock.calls.at(-1)?.[1];
      const post = {
        key: new Headers(init?.headers).get('idempotency-key'),
        body: request.body as Post['body'],
      };
      posts.push(post);
      return submit(post);
    },
  });
  const view = renderRoutes(
    [{ path: '/agent/dashboard', element: <AgentDashboardPage clock={clock} /> }],
    '/agent/dashboard',
  );
  return { ...view, fetchMock };
}

async function submitValue(value: string) {
  const user = userEvent.setup();
  await screen.findByRole('radio', { name: /Gali/ });
  await user.type(screen.getByLabelText('Result'), value);
  await user.click(screen.getByRole('button', { name: 'Update' }));
  return user;
}

const online = () =>
  act(() => {
    window.dispatchEvent(new Event('online'));
  });
const statusLine = () => screen.getByText(/(Saved result|No result saved) for/);
const heldItems = () =>
  within(screen.getByRole('region', { name: /^Waiting for a second confirmation/ })).getAllByRole('listitem');
const lostAnswer = () => {
  throw new TypeError('Failed to fetch');
};

/** The server writes it, as it would; the answer to the first attempt never reaches the phone. */
function savesThenLosesFirstAnswer(post: Post): FakeAnswer {
  if (!rows.some((row) => row.Result === post.body.result)) {
    rows.unshift(
      resultRecord(1, post.body.dateTime, post.body.result, { DeclaredAt: '2026-11-26T10:00:05.000Z' }),
    );
    return lostAnswer();
  }
  return saved(post.body);
}

describe('Agent dashboard, an entry held for a second confirmation', () => {
  it('says "Waiting for a second confirmation" at the form and in the held list, and sends it once', async () => {
    renderDashboard((post) => {
      held = [heldDeclarationOf(1, siteToday(), post.body.result, { Name: 'Gali' })];
      return heldAnswer();
    });
    await submitValue('45');

    const notice = await screen.findByText(/^Sent\. Waiting for a second confirmation\./);
    expect(notice.parentElement).toHaveTextContent(
      `45 for ${siteToday()} is kept on the server and published once another person enters the same value.`,
    );
    expect(screen.getByLabelText('Result')).toHaveValue('');
    await waitFor(() =>
      expect(heldItems().map((item) => item.getAttribute('aria-label'))).toEqual([
        'Gali, Today: 45, Waiting',
      ]),
    );
    expect(statusLine()).toHaveTextContent('Waiting for a second confirmation: 45 (yours).');
    // Held, not "kept on this phone": nothing waits to be sent.
    expect(screen.queryByRole('heading', { name: /Waiting to send/ })).not.toBeInTheDocument();
    online();
    await act(async () => clock.advance(10 * 60_000));
    expect(posts).toHaveLength(1);
  });

  it('follows the held list: once another person confirms it, the form shows it saved, not waiting', async () => {
    const { queryClient } = renderDashboard((post) => {
      held = [heldDeclarationOf(1, siteToday(), post.body.result, { Name: 'Gali' })];
      return heldAnswer();
    });
    await submitValue('45');
    await waitFor(() => expect(heldItems()).toHaveLength(1));

    // The second person enters 45: published, and no longer held. The list's next poll reads it.
    held = [];
    rows.unshift(resultRecord(1, siteToday(), '45'));
    await act(() => queryClient.invalidateQueries({ queryKey: ['agent', 'pending'] }));
    await waitFor(() => expect(statusLine()).toHaveTextContent(`Saved result for ${siteToday()}: 45.`));
    expect(screen.queryByText(/Waiting for a second confirmation/)).not.toBeInTheDocument();
  });

  it('treats a held answer to a queued entry as delivered: off the phone’s list, into the held one', async () => {
    let up = false;
    renderDashboard((post) => {
      if (!up) return lostAnswer();
      held = [heldDeclarationOf(1, siteToday(), post.body.result, { Name: 'Gali' })];
      return heldAnswer();
    });
    await submitValue('45');
    expect(await screen.findByText('Not sent yet.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Waiting to send (1)' })).toBeInTheDocument();

    up = true;
    online();
    expect(await screen.findByText(/^Sent\. Waiting for a second confirmation\./)).toBeInTheDocument();
    expect(screen.queryByText('Not sent yet.')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Waiting to send/ })).not.toBeInTheDocument();
    await waitFor(() => expect(heldItems()).toHaveLength(1));
    const sent = posts.length;
    online();
    await act(async () => clock.advance(10 * 60_000));
    expect(posts).toHaveLength(sent);
  });

  it('says clearly that another person entered a different value, and never shows that value', async () => {
    renderDashboard((post) => {
      // The other person's 99 is the server's; the agent is shown only their own entry.
      held = [heldDeclarationOf(1, siteToday(), post.body.result, { Name: 'Gali', Mismatch: true })];
      return mismatchAnswer();
    });
    await submitValue('45');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      `Not published. Another person entered a different value for ${siteToday()}. Yours, 45, is kept on the server: check it, or ask an admin.`,
    );
    expect(statusLine()).toHaveTextContent('Yours, 45, is held: another person entered a different value.');
    await waitFor(() =>
      expect(heldItems().map((item) => item.getAttribute('aria-label'))).toEqual([
        'Gali, Today: 45, Different value entered',
      ]),
    );
    expect(heldItems()[0]).toHaveTextContent(MISMATCH_TEXT);
    expect(document.body).not.toHaveTextContent('99');
    expect(posts).toHaveLength(1);
  });
});

describe('Agent dashboard, an entry whose answer was lost', () => {
  it('says saved at the form, in its list and its status line once the queue’s retry saves it', async () => {
    renderDashboard(savesThenLosesFirstAnswer, ghadiRecord(1, { NameEn: 'Gali' }));
    await submitValue('45');
    expect(await screen.findByText('Not sent yet.')).toBeInTheDocument();

    online();
    const saved = await screen.findByText('Result updated!');
    expect(saved.parentElement).toHaveTextContent(
      `Result updated! 45 saved for ${siteToday()}. Sent from this phone once the network allowed; nothing to enter again.`,
    );
    expect(screen.queryByText('Not sent yet.')).not.toBeInTheDocument();
    expect(screen.queryByText(/kept on this phone/)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sent from this phone' })).toBeInTheDocument();
    await waitFor(() => expect(statusLine()).toHaveTextContent(`Saved result for ${siteToday()}: 45.`));
    // The retry went with the first attempt's key: the server answered it as that write.
    expect(posts.map((post) => post.key)).toEqual([posts[0]?.key, posts[0]?.key]);
  });
});

describe('Agent dashboard, Expected', () => {
  it('sends the value the agent saw, and shows a change made meanwhile with the value now, unsent', async () => {
    rows.push(resultRecord(1, siteToday(), '44'));
    renderDashboard(
      (post) => {
        const now = rows.find((row) => row.Date === post.body.dateTime)?.Result ?? null;
        if (post.body.Expected !== undefined && post.body.Expected !== now)
          return {
            status: 409,
            body: { success: false, message: 'The result was changed since you entered it' },
          };
        return saved(post.body);
      },
      ghadiRecord(1, { NameEn: 'Gali' }),
    );
    await waitFor(() => expect(screen.queryByText(/Saved result for/)).toHaveTextContent(': 44.'));

    // An admin corrects 44 to 50 after the agent read 44.
    rows[0] = resultRecord(1, siteToday(), '50');
    await submitValue('45');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Changed since you entered it: the saved result is now 50. Not sent; check it, and enter yours again if it is right.',
    );
    expect(posts.map((post) => post.body)).toEqual([
      { ghadiId: 1, result: '45', dateTime: siteToday(), Expected: '44' },
    ]);
    expect(screen.getByLabelText('Result')).toHaveValue('45');
    await waitFor(() => expect(statusLine()).toHaveTextContent(`Saved result for ${siteToday()}: 50.`));
    online();
    await act(async () => clock.advance(10 * 60_000));
    expect(posts).toHaveLength(1);

    // Seen now, 50 is what the next one replaces.
    await userEvent.setup().click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Result updated!')).toBeInTheDocument();
    expect(posts[1]?.body).toEqual({ ghadiId: 1, result: '45', dateTime: siteToday(), Expected: '50' });
  });
});

describe('Agent dashboard, too many submissions (429)', () => {
  it('keeps the entry, says when it tries again, and sends it after Retry-After', async () => {
    let limited = true;
    renderDashboard(
      (post) =>
        limited
          ? {
              status: 429,
              body: { success: false, message: 'Too many submissions; try again in 30 s' },
              headers: { 'retry-after': '30' },
            }
          : saved(post.body),
      ghadiRecord(1, { NameEn: 'Gali' }),
    );
    await submitValue('45');
    expect(await screen.findByText('Not sent yet.')).toBeInTheDocument();
    const list = screen.getByRole('region', { name: 'Waiting to send (1)' });
    expect(list).toHaveTextContent('Kept on this phone (Too many submissions; try again in 30 s)');
    expect(list).toHaveTextContent(/Next try at \d\d:\d\d:\d\d/);

    limited = false;
    await act(async () => clock.advance(29_000));
    expect(posts).toHaveLength(1);
    await act(async () => clock.advance(1_000));
    expect(await screen.findByText('Result updated!')).toBeInTheDocument();
    expect(posts).toHaveLength(2);
  });
});

describe('Agent dashboard, an entry older than 20 hours', () => {
  it('stops sending it, shows its age, and sends it only when the agent says', async () => {
    let up = false;
    renderDashboard((post) => (up ? saved(post.body) : lostAnswer()), ghadiRecord(1, { NameEn: 'Gali' }));
    await submitValue('45');
    expect(await screen.findByText('Not sent yet.')).toBeInTheDocument();
    const key = posts[0]?.key;

    await act(async () => clock.advance((20 * 60 + 5) * 60_000));
    up = true;
    const tried = posts.length;
    online();
    const list = await screen.findByRole('region', { name: 'Not sent: your answer needed (1)' });
    expect(within(list).getByRole('listitem')).toHaveTextContent(/Not sent: entered 20 h 5 min ago, at/);
    expect(within(list).getByRole('listitem')).toHaveAccessibleName(`Gali, Today: 45, Not sent`);
    // The form says the same, where the agent looks.
    expect(screen.getByText('Not sent.').parentElement).toHaveTextContent(
      `45 for ${siteToday()} was entered 20 h 5 min ago: send it anyway, or discard it, in the list above.`,
    );
    expect(posts).toHaveLength(tried);

    await userEvent
      .setup()
      .click(within(list).getByRole('button', { name: `Send anyway Gali ${siteToday()}` }));
    expect(await screen.findByText('Result updated!')).toBeInTheDocument();
    expect(posts.at(-1)).toEqual({
      key,
      body: { ghadiId: 1, result: '45', dateTime: siteToday(), Expected: null },
    });
  });

  it('discards it when the agent says, and sends nothing', async () => {
    renderDashboard(lostAnswer, ghadiRecord(1, { NameEn: 'Gali' }));
    await submitValue('45');
    expect(await screen.findByText('Not sent yet.')).toBeInTheDocument();
    await act(async () => clock.advance(21 * 60 * 60_000));
    online();
    const list = await screen.findByRole('region', { name: 'Not sent: your answer needed (1)' });
    const tried = posts.length;
    await userEvent.setup().click(within(list).getByRole('button', { name: `Discard Gali ${siteToday()}` }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Not sent/ })).not.toBeInTheDocument());
    expect(screen.queryByText('Not sent.')).not.toBeInTheDocument();
    expect(posts).toHaveLength(tried);
  });
});
