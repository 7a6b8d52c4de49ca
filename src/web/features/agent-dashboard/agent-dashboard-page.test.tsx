import { onlineManager } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endSession } from '../../lib/session.js';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { renderRoutes, renderWithQuery } from '../../test/render.js';
import { AgentDashboardPage } from './agent-dashboard-page.js';
import { ResultHistory } from './result-history.js';
import {
  deferred,
  type FakeAnswer,
  fakeApi,
  freshPhoneStorage,
  historyOf,
  list,
  pastResults,
  saved,
  signInAgent,
  siteToday,
} from './test-support.js';

beforeEach(() => {
  signInAgent();
  freshPhoneStorage();
});

afterEach(() => {
  endSession();
  vi.unstubAllGlobals();
});

const historyRows = () =>
  within(screen.getByRole('table', { name: /^Result history of/ }))
    .getAllByRole('row')
    .slice(1);

const renderDashboard = (path = '/agent/dashboard') =>
  renderRoutes([{ path: '/agent/dashboard', element: <AgentDashboardPage /> }], path);

describe('AgentDashboardPage', () => {
  it('shows a spinner while loading, then the assigned ghadis with the first one chosen', async () => {
    const hold = deferred<FakeAnswer>();
    fakeApi({ ghadis: () => hold.promise });
    renderDashboard();
    expect(screen.getByRole('status')).toHaveTextContent('Loading your ghadis…');

    hold.resolve(list([ghadiRecord(1), ghadiRecord(2, { TodayResult: '06' })]));
    const first = await screen.findByRole('radio', { name: /Ghadi 1/ });
    expect(first).toBeChecked();
    expect(screen.getByRole('radio', { name: /Ghadi 2/ })).toHaveAccessibleName(/Today:\s*06/);
    expect(screen.getByRole('radio', { name: /Ghadi 2/ })).toHaveAccessibleName(/2:00 PM/);
    expect(screen.getByRole('heading', { name: 'Update result: Ghadi 1' })).toBeInTheDocument();
  });

  it('opens on the ghadi named in the address and follows a new choice there', async () => {
    const user = userEvent.setup();
    fakeApi({ ghadis: () => list([ghadiRecord(1), ghadiRecord(2)]) });
    const { router } = renderDashboard('/agent/dashboard?ghadi=2');
    expect(await screen.findByRole('radio', { name: /Ghadi 2/ })).toBeChecked();
    expect(screen.getByRole('heading', { name: 'Result history: Ghadi 2' })).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: /Ghadi 1/ }));
    expect(screen.getByRole('heading', { name: 'Update result: Ghadi 1' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?ghadi=1');
  });

  it('shows "No ghadi assigned to your account." when none are assigned', async () => {
    fakeApi({ ghadis: () => list([]) });
    renderDashboard();
    expect(await screen.findByText('No ghadi assigned to your account.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
  });

  it('says the ghadis load when the network is back, rather than spin, offline with nothing kept', async () => {
    fakeApi({ ghadis: () => list([ghadiRecord(1)]) });
    onlineManager.setOnline(false);
    try {
      renderDashboard();
      expect(await screen.findByText('Your ghadis load when the network is back.')).toBeInTheDocument();
    } finally {
      onlineManager.setOnline(true);
    }
    expect(await screen.findByRole('radio', { name: /Ghadi 1/ })).toBeChecked();
  });

  it('shows "Failed to load assigned ghadi" and loads again on Retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    fakeApi({ ghadis: () => (fail ? { status: 500, body: 'down' } : list([ghadiRecord(1)])) });
    renderDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load assigned ghadi');

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('radio', { name: /Ghadi 1/ })).toBeChecked();
    expect(screen.queryByText('Failed to load assigned ghadi')).not.toBeInTheDocument();
  });
});

describe('AgentDashboardPage after a submission', () => {
  it('shows the new result at the top of the history, back on its first page and unsearched', async () => {
    const user = userEvent.setup();
    const rows = pastResults(4, 12);
    const serve = historyOf(rows);
    fakeApi({
      ghadis: () => list([ghadiRecord(4)]),
      history: serve,
      submit: (request) => {
        const { result, dateTime } = request.body as { result: string; dateTime: string };
        rows.unshift(resultRecord(4, dateTime, result));
        return saved(request.body);
      },
    });
    renderDashboard();
    const pages = await screen.findByRole('navigation', { name: 'Result history pages' });
    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(historyRows()).toHaveLength(2));
    await user.type(screen.getByLabelText('Search history'), 'zz');
    expect(await screen.findByText('No results found.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Result'), '77');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Result updated!')).toBeInTheDocument();
    await waitFor(() => expect(historyRows()[0]).toHaveTextContent(`${siteToday()}77`));
    expect(historyRows()).toHaveLength(10);
    expect(screen.getByLabelText('Search history')).toHaveValue('');
    expect(screen.getByText('Showing 1–10 of 13')).toBeInTheDocument();
  });
});

describe('ResultHistory states', () => {
  it('shows "No results found." for a ghadi without results', async () => {
    fakeApi();
    renderWithQuery(<ResultHistory ghadi={ghadiRecord(4)} />);
    expect(await screen.findByText('No results found.')).toBeInTheDocument();
  });

  it('asks the server for the chosen ghadi only, and lists it newest first with a caption and column headers', async () => {
    const fetchMock = fakeApi({ history: historyOf(pastResults(4, 3)) });
    renderWithQuery(<ResultHistory ghadi={ghadiRecord(4)} />);
    const table = await screen.findByRole('table', { name: 'Result history of Ghadi 4, newest first' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Date', 'Result']);
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('00');
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(
      '/api/agent/my-ghadi/results?ghadiId=4&page=1&limit=10',
    );
  });

  it('shows "Failed to load result history" and loads again on Retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    const served = historyOf(pastResults(4, 2));
    fakeApi({ history: (request) => (fail ? { status: 500, body: 'down' } : served(request)) });
    renderWithQuery(<ResultHistory ghadi={ghadiRecord(4)} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load result history');

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
