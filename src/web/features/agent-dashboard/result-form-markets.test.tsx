import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../../shared/dates.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { renderWithQuery } from '../../test/render.js';
import { ResultForm } from './result-form.js';
import { fakeApi, historyOf, list, siteToday, startedQueue } from './test-support.js';

/* Panna and open/close ghadis; a jodi ghadi's form is result-form.test.tsx's, unchanged. */

/** Noon of Thursday 10 December 2026 in Kolkata, the site's zone. */
const NOW = Date.parse('2026-12-10T06:30:00Z');

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true, toFake: ['Date'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const MARKET = ghadiRecord(5, {
  NameEn: 'Kalyan',
  Kind: 'open-close',
  OpenTime: '3:45 PM',
  RTime: '5:45 PM',
});
const STARLINE = ghadiRecord(6, { NameEn: 'Starline', Kind: 'panna' });

const field = () => screen.getByLabelText('Result');
const readout = () => screen.getByTestId('entry-readout');
const readBack = () => screen.getByTestId('read-back-value');
const stepDue = () => screen.getByTestId('step-due');
const updateButton = () => screen.getByRole('button', { name: /^Update/ });
const posts = (fetchMock: ReturnType<typeof fakeApi>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as { result: string });

async function renderForm(ghadi: GhadiRecord) {
  const user = userEvent.setup();
  renderWithQuery(<ResultForm ghadi={ghadi} queue={await startedQueue()} />);
  await waitFor(() =>
    expect(within(screen.getByRole('group', { name: 'Date' })).getAllByRole('radio')[0]).toHaveAccessibleName(
      `Today ${siteToday()}`,
    ),
  );
  return user;
}

describe('ResultForm on an open/close market', () => {
  it('takes the open panna, then the close panna, showing the ank, the jodi and the whole value', async () => {
    const fetchMock = fakeApi();
    const user = await renderForm(MARKET);
    expect(screen.getByText('Open/close market · open 3:45 PM · close 5:45 PM')).toBeInTheDocument();
    expect(stepDue()).toHaveTextContent('Open panna due');
    expect(field()).toHaveAttribute('inputmode', 'numeric');
    expect(readout()).toHaveAttribute('aria-live', 'polite');

    await user.type(field(), '12');
    expect(readout()).toBeEmptyDOMElement();
    await user.type(field(), '3');
    expect(readout()).toHaveTextContent('Open 123 · ank 6 · published as 123-6');
    expect(readBack()).toHaveTextContent('123-6');
    await user.click(updateButton());
    expect(await screen.findByRole('status')).toHaveTextContent(
      `Result updated! 123-6 saved for ${siteToday()}.`,
    );
    expect(posts(fetchMock).at(-1)?.result).toBe('123-6');

    // The history has not caught up yet: the value just saved says what comes next.
    expect(stepDue()).toHaveTextContent('Close panna due');
    await user.type(field(), '459');
    expect(readout()).toHaveTextContent('Close 459 · ank 8 · Jodi 68 · published as 123-68-459');
    expect(readBack()).toHaveTextContent('123-68-459');
    await user.click(updateButton());
    expect(await screen.findByText(/123-68-459 saved for/)).toBeInTheDocument();
    expect(posts(fetchMock).at(-1)?.result).toBe('123-68-459');
    expect(stepDue()).toHaveTextContent('Day complete — send the whole value to correct it');
  });

  it('refuses an impossible panna without a request, saying why as it is typed and on Update', async () => {
    const fetchMock = fakeApi();
    const user = await renderForm(MARKET);
    await user.type(field(), '121');
    const why = '121 is not a valid open panna';
    expect(readout()).toHaveTextContent(why);
    expect(readBack()).toHaveClass('text-slate-500');
    await user.click(updateButton());
    expect(field()).toHaveAccessibleDescription(new RegExp(why));
    expect(field()).toHaveFocus();
    expect(posts(fetchMock)).toEqual([]);
  });

  it('knows the close is due from the day’s history, and reads three digits as the close panna', async () => {
    const fetchMock = fakeApi({ history: historyOf([resultRecord(5, siteToday(), '123-6')]) });
    const user = await renderForm(MARKET);
    await waitFor(() => expect(stepDue()).toHaveTextContent('Close panna due'));
    expect(screen.getByText(/Saved result for/)).toHaveTextContent(`Saved result for ${siteToday()}: 123-6.`);
    await user.type(field(), '459');
    expect(readout()).toHaveTextContent('Jodi 68');
    expect(readBack()).toHaveTextContent('123-68-459');
    await user.click(updateButton());
    await screen.findByText(/123-68-459 saved for/);
    // Expected: the open half it completes, the published value the agent saw.
    expect(posts(fetchMock)).toEqual([
      { ghadiId: 5, result: '123-68-459', dateTime: siteToday(), Expected: '123-6' },
    ]);
  });

  it('says a complete day takes only the whole value', async () => {
    const fetchMock = fakeApi();
    const user = await renderForm({ ...MARKET, TodayResult: '123-68-459' });
    expect(stepDue()).toHaveTextContent('Day complete — send the whole value to correct it');
    await user.type(field(), '459');
    expect(readout()).toBeEmptyDOMElement();
    await user.click(updateButton());
    expect(field()).toHaveAccessibleDescription(/The day is complete; send the whole value/);
    expect(posts(fetchMock)).toEqual([]);

    await user.clear(field());
    await user.type(field(), '123-68-450');
    expect(readout()).toHaveTextContent('The jodi of 123 and 450 is 69, not 68');
    await user.clear(field());
    await user.type(field(), '123-69-450');
    expect(readout()).toHaveTextContent('Open 123 · Jodi 69 · Close 450 · published as 123-69-450');
  });

  it('reads a close panna against the open panna still waiting on the phone, and sends the whole value', async () => {
    const fetchMock = fakeApi({
      submit: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const user = await renderForm(MARKET);
    await user.type(field(), '123');
    await user.click(updateButton());
    expect(await screen.findByText('Not sent yet.')).toBeInTheDocument();
    expect(stepDue()).toHaveTextContent('Close panna due');
    expect(screen.getByText(/Waiting on this phone/)).toHaveTextContent('Waiting on this phone: 123-6.');

    await user.type(field(), '459');
    expect(readBack()).toHaveTextContent('123-68-459');
    await user.click(updateButton());
    // It replaces the waiting open half: the whole value alone completes the day, whenever it goes.
    await waitFor(() => expect(posts(fetchMock).at(-1)?.result).toBe('123-68-459'));
  });
});

describe('ResultForm on a starline (panna) ghadi', () => {
  it('shows the ank as typed and sends the stored form', async () => {
    const fetchMock = fakeApi();
    const user = await renderForm(STARLINE);
    expect(screen.queryByTestId('step-due')).not.toBeInTheDocument();
    await user.type(field(), '128');
    expect(readout()).toHaveTextContent('Panna 128 · ank 1 · published as 128-1');
    expect(readBack()).toHaveTextContent('128-1');
    await user.click(updateButton());
    await screen.findByText(/128-1 saved for/);
    expect(posts(fetchMock).at(-1)?.result).toBe('128-1');

    await user.type(field(), '128-2');
    expect(readout()).toHaveTextContent('The ank of 128 is 1, not 2');
  });
});

describe('ResultForm on a closed day', () => {
  it('says today is a holiday, with its note, and shows the server’s refusal', async () => {
    const refusal = 'Kalyan is closed for a holiday on 2026-12-10; ask an admin if a result must be declared';
    fakeApi({
      holidays: () => list([{ _id: '1', id: '1', Date: siteToday(), GID: null, Note: 'Diwali' }]),
      submit: () => ({ status: 409, body: { success: false, message: refusal } }),
    });
    const user = await renderForm({ ...MARKET, Closed: 'holiday' });
    expect(await screen.findByText('Closed for a holiday (Diwali)')).toBeInTheDocument();
    await user.type(field(), '123');
    await user.click(updateButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
  });

  it('says yesterday was not one of its days', async () => {
    fakeApi();
    // Thursday, and yesterday a Wednesday, which this ghadi does not run.
    const user = await renderForm({ ...STARLINE, Days: [0, 1, 2, 4, 5, 6] });
    expect(screen.queryByText(/Does not run/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /^Yesterday/ }));
    expect(await screen.findByText('Does not run on Wednesdays')).toBeInTheDocument();
    expect(addDays(siteToday(), -1)).toBe('2026-12-09');
  });
});
