import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../../shared/dates.js';
import { ghadiRecord } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { ResultForm } from './result-form.js';
import {
  deferred,
  type FakeAnswer,
  fakeApi,
  historyOf,
  pastResults,
  saved,
  siteToday,
  startedQueue,
} from './test-support.js';

/* The disabled rule and a failure keeping the typed value are covered in agent-dashboard.test.tsx. */

afterEach(() => {
  vi.unstubAllGlobals();
});

const updateButton = () => screen.getByRole('button', { name: /^Update/ });
const dateChoice = (day: 'Today' | 'Yesterday') =>
  within(screen.getByRole('group', { name: 'Date' })).getByRole('radio', { name: new RegExp(`^${day}`) });

describe('ResultForm outcomes', () => {
  it('confirms a saved result, clears the value and disables Update until a new one is typed', async () => {
    const user = userEvent.setup();
    const hold = deferred<FakeAnswer>();
    const fetchMock = fakeApi({ submit: () => hold.promise });
    renderWithQuery(<ResultForm ghadi={ghadiRecord(3)} queue={await startedQueue()} />);
    await waitFor(() => expect(dateChoice('Today')).toBeChecked());

    await user.type(screen.getByLabelText('Result'), ' 06 ');
    await user.click(updateButton());
    expect(await screen.findByRole('button', { name: 'Updating...' })).toBeDisabled();
    // The submission is stored on the phone before it is sent.
    const post = await vi.waitUntil(() => fetchMock.mock.calls.find(([, init]) => init?.method === 'POST'));
    // Trimmed, with the leading zero kept: results are text, not numbers.
    expect(JSON.parse(String(post[1]?.body))).toEqual({
      ghadiId: 3,
      result: '06',
      dateTime: siteToday(),
      Expected: null,
    });
    // With a key of its own, which a retry of it would repeat.
    expect(new Headers(post[1]?.headers).get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);

    hold.resolve(saved({ ghadiId: 3, result: '06', dateTime: siteToday() }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      `Result updated! 06 saved for ${siteToday()}.`,
    );
    expect(screen.getByLabelText('Result')).toHaveValue('');
    expect(updateButton()).toHaveTextContent('Update');
    expect(updateButton()).toBeDisabled();

    // Typing the next value removes the confirmation, so it cannot be read as being about that value.
    await user.type(screen.getByLabelText('Result'), '1');
    expect(screen.queryByText('Result updated!')).not.toBeInTheDocument();
  });

  it('falls back to "Failed to update result" when the server sends no message', async () => {
    const user = userEvent.setup();
    fakeApi({ submit: () => ({ status: 500, body: 'down' }) });
    renderWithQuery(<ResultForm ghadi={ghadiRecord(1)} queue={await startedQueue()} />);
    await user.type(screen.getByLabelText('Result'), '45');
    await user.click(updateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update result');
    expect(screen.getByLabelText('Result')).toHaveValue('45');
  });

  it('rejects a value the server would refuse, before sending it', async () => {
    const user = userEvent.setup();
    const fetchMock = fakeApi();
    renderWithQuery(<ResultForm ghadi={ghadiRecord(1)} queue={await startedQueue()} />);
    await user.type(screen.getByLabelText('Result'), '4$5');
    await user.click(updateButton());
    expect(await screen.findByText('Use letters, digits, spaces or * # + - /')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('offers only today and yesterday in the site’s zone, and sends the day chosen', async () => {
    const user = userEvent.setup();
    const fetchMock = fakeApi();
    renderWithQuery(<ResultForm ghadi={ghadiRecord(1)} queue={await startedQueue()} />);
    const choices = within(screen.getByRole('group', { name: 'Date' })).getAllByRole('radio');
    expect(choices).toHaveLength(2);
    // Until /api/site answers, the dates are the browser's own; the test's browser may be in another zone.
    await waitFor(() => expect(dateChoice('Today')).toHaveAccessibleName(`Today ${siteToday()}`));
    expect(dateChoice('Yesterday')).toHaveAccessibleName(`Yesterday ${addDays(siteToday(), -1)}`);
    expect(dateChoice('Today')).toBeChecked();

    await user.click(dateChoice('Yesterday'));
    await user.type(screen.getByLabelText('Result'), '12');
    await user.click(updateButton());
    expect(await screen.findByText('Result updated!')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      ghadiId: 1,
      result: '12',
      dateTime: addDays(siteToday(), -1),
      Expected: null,
    });
    // The chosen day stays for the next value.
    expect(dateChoice('Yesterday')).toBeChecked();
  });

  it('shows the server’s reason when it refuses the date', async () => {
    const user = userEvent.setup();
    const refusal =
      'Agents may only enter results for today or yesterday; ask an admin to correct older dates';
    fakeApi({ submit: () => ({ status: 403, body: { success: false, message: refusal } }) });
    renderWithQuery(<ResultForm ghadi={ghadiRecord(1)} queue={await startedQueue()} />);
    await user.type(screen.getByLabelText('Result'), '12');
    await user.click(updateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByLabelText('Result')).toHaveValue('12');
  });

  it('tells the agent that a result already saved for the chosen date will be replaced', async () => {
    const user = userEvent.setup();
    const history = pastResults(2, 3);
    fakeApi({ history: historyOf(history) });
    renderWithQuery(
      <ResultForm ghadi={ghadiRecord(2, { TodayResult: '88' })} queue={await startedQueue()} />,
    );

    await waitFor(() =>
      expect(screen.getByText(/Saved result for/)).toHaveTextContent(
        `Saved result for ${siteToday()}: 88. Updating replaces it.`,
      ),
    );
    const yesterday = history[0];
    await user.click(dateChoice('Yesterday'));
    expect(await screen.findByText(/Saved result for/)).toHaveTextContent(
      `Saved result for ${yesterday?.Date}: ${yesterday?.Result}. Updating replaces it.`,
    );
  });

  it('says when nothing is saved for the date yet', async () => {
    fakeApi();
    renderWithQuery(<ResultForm ghadi={ghadiRecord(1)} queue={await startedQueue()} />);
    await waitFor(() =>
      expect(screen.getByText(/No result saved for/)).toHaveTextContent(
        `No result saved for ${siteToday()} yet.`,
      ),
    );
  });
});
