import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../../shared/dates.js';
import type { DailyStatsEntry, GhadiStatsEntry } from '../../../shared/schemas/site-stats.js';
import { renderWithQuery } from '../../test/render.js';
import { SiteStatsPanel } from './site-stats-panel.js';
import { delaySummary, onTimeSummary } from './stats-summaries.js';

/** The plots themselves are pictures drawn by the library (not in jsdom): stand-ins that say what they got. */
const charts = vi.hoisted(() => ({ fail: false }));
vi.mock('./stats-charts.js', () => ({
  DailyBars: ({ series }: { series: Array<{ name: string }> }) => {
    if (charts.fail) throw new Error('no canvas');
    return <div data-testid="plot">{series.map((one) => one.name).join(', ')}</div>;
  },
  GhadiBars: ({ name }: { name: string }) => {
    if (charts.fail) throw new Error('no canvas');
    return <div data-testid="plot">{name}</div>;
  },
}));

const TODAY = '2026-11-28';
const FROM = addDays(TODAY, -29);

const DAYS: DailyStatsEntry[] = Array.from({ length: 30 }, (_, index) => ({
  date: addDays(FROM, index),
  visitors: index === 20 ? 312 : 10,
  declarations: index === 3 ? 9 : 7,
  corrections: index === 5 ? 2 : 0,
}));

const GHADIS: GhadiStatsEntry[] = [
  {
    GID: 1,
    NameEn: 'Gali',
    days: 30,
    declared: 30,
    onTime: 30,
    onTimeRate: 1,
    medianDelayMinutes: 1.5,
    imported: 0,
  },
  {
    GID: 2,
    NameEn: 'Disawer',
    days: 29,
    declared: 27,
    onTime: 18,
    onTimeRate: 0.621,
    medianDelayMinutes: 12.5,
    imported: 2,
  },
  {
    GID: 3,
    NameEn: 'Vague',
    days: 29,
    declared: 10,
    onTime: 0,
    onTimeRate: null,
    medianDelayMinutes: null,
    imported: 0,
  },
];

const requests: URL[] = [];

beforeEach(() => {
  charts.fail = false;
  requests.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      requests.push(url);
      const body =
        url.pathname === '/api/site'
          ? { success: true, siteName: 'Ghadi Results', timeZone: 'Asia/Kolkata', today: TODAY }
          : { success: true, data: url.pathname === '/api/stats/daily' ? DAYS : GHADIS };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  vi.useFakeTimers({ now: Date.parse(`${TODAY}T08:30:00Z`), shouldAdvanceTime: true, toFake: ['Date'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const figure = (title: string) => {
  const heading = screen.getByRole('heading', { name: title, level: 3 });
  return heading.closest('figure') as HTMLElement;
};

describe("the dashboard's plots", () => {
  it('asks for the last 30 days of the site, today included', async () => {
    renderWithQuery(<SiteStatsPanel />);
    await screen.findByRole('heading', { name: 'Visitors per day' });
    const ranges = requests
      .filter((url) => url.pathname.startsWith('/api/stats/'))
      .map((url) => `${url.pathname}?${url.searchParams}`);
    expect(ranges).toEqual(
      expect.arrayContaining([
        `/api/stats/daily?from=${FROM}&to=${TODAY}`,
        `/api/stats/ghadis?from=${FROM}&to=${TODAY}`,
      ]),
    );
    expect(screen.getByRole('heading', { name: 'The last 30 days', level: 2 })).toBeInTheDocument();
  });

  it('gives every plot a one-line summary and its numbers as a table for screen readers', async () => {
    renderWithQuery(<SiteStatsPanel />);
    await screen.findByRole('heading', { name: 'Visitors per day' });
    expect(await within(figure('Visitors per day')).findByTestId('plot')).toHaveTextContent('Visitors');

    expect(figure('Visitors per day')).toHaveTextContent(
      '602 visitors in the last 30 days, 20 a day on average; the most on 19 Nov (312).',
    );
    expect(figure('Declarations per day')).toHaveTextContent(
      '212 results declared and 2 corrected in the last 30 days; the most declared on 2 Nov (9).',
    );
    expect(figure('On time, per ghadi')).toHaveTextContent(
      'On time on 48 of 59 days owed (81%). Best: Gali, 100%; worst: Disawer, 62%.',
    );
    expect(figure('Median delay after the result time')).toHaveTextContent(
      'Longest median delay after the result time: Disawer, 12.5 min; shortest: Gali, 1.5 min.',
    );

    // The tables are there all the time, visually hidden: a screen reader reads them, the plots are hidden.
    const visitors = screen.getByRole('table', { name: 'Visitors per day, last 30 days' });
    expect(visitors.parentElement).toHaveClass('sr-only');
    expect(within(visitors).getAllByRole('row')).toHaveLength(31);
    expect(within(visitors).getByRole('rowheader', { name: '19 Nov' }).closest('tr')).toHaveTextContent(
      '19 Nov312',
    );
    const onTime = screen.getByRole('table', { name: 'Results on time per ghadi, last 30 days' });
    expect(
      within(onTime)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'GhadiDays owedDeclaredOn timeRateImported',
      'Gali303030100%0',
      'Disawer29271862%2',
      'Vague29100–0',
    ]);
    const delays = screen.getByRole('table', {
      name: 'Median delay after the result time per ghadi, last 30 days',
    });
    expect(within(delays).getByRole('rowheader', { name: 'Disawer' }).closest('tr')).toHaveTextContent(
      'Disawer2712.5 min',
    );
    for (const plot of screen.getAllByTestId('plot'))
      expect(plot.closest('[aria-hidden="true"]')).not.toBeNull();
  });

  it('shows a plot as a table and back', async () => {
    renderWithQuery(<SiteStatsPanel />);
    await screen.findByRole('heading', { name: 'Declarations per day' });
    const declarations = figure('Declarations per day');
    const toggle = within(declarations).getByRole('button', { name: 'Show as table' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const user = userEvent.setup();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveTextContent('Show as plot');
    const table = within(declarations).getByRole('table', { name: /declared and corrected per day/ });
    expect(table.parentElement).not.toHaveClass('sr-only');
    expect(document.getElementById(toggle.getAttribute('aria-controls') ?? '')).toContainElement(table);
    expect(within(declarations).queryByTestId('plot')).not.toBeInTheDocument();
    await user.click(toggle);
    expect(table.parentElement).toHaveClass('sr-only');
    expect(await within(declarations).findByTestId('plot')).toBeInTheDocument();
  });

  it('shows the numbers when a plot cannot be drawn', async () => {
    charts.fail = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithQuery(<SiteStatsPanel />);
    await screen.findByRole('heading', { name: 'Visitors per day' });
    expect(
      await within(figure('Visitors per day')).findByText(
        'The plot could not be drawn; here are its numbers.',
      ),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Visitors per day, last 30 days' });
    expect(table.parentElement).not.toHaveClass('sr-only');
    expect(within(figure('Visitors per day')).queryByRole('button', { name: 'Show as table' })).toBeNull();
  });

  it('says so when the numbers cannot be loaded', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).includes('/api/stats/ghadis')
          ? new Response(JSON.stringify({ success: false, message: 'down' }), { status: 500 })
          : new Response(JSON.stringify({ success: true, data: DAYS }), { status: 200 }),
      ),
    );
    renderWithQuery(<SiteStatsPanel />);
    expect(await screen.findByRole('alert')).toHaveTextContent("Failed to load the ghadis' punctuality");
    expect(screen.getByRole('heading', { name: 'Visitors per day' })).toBeInTheDocument();
  });
});

describe('a plot with nothing to draw', () => {
  it('says so, and keeps its table', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const data = String(input).includes('/api/stats/ghadis')
          ? GHADIS.map((ghadi) => ({
              ...ghadi,
              days: 0,
              onTime: 0,
              onTimeRate: null,
              medianDelayMinutes: null,
            }))
          : DAYS;
        return new Response(JSON.stringify({ success: true, data }), { status: 200 });
      }),
    );
    renderWithQuery(<SiteStatsPanel />);
    await screen.findByRole('heading', { name: 'On time, per ghadi' });
    expect(within(figure('On time, per ghadi')).getByText('Nothing to plot yet.')).toBeInTheDocument();
    expect(within(figure('On time, per ghadi')).queryByTestId('plot')).toBeNull();
    expect(
      screen.getByRole('table', { name: 'Results on time per ghadi, last 30 days' }),
    ).toBeInTheDocument();
  });
});

describe('the summaries', () => {
  it('say when there is nothing to rate', () => {
    expect(onTimeSummary([], 30)).toBe('No ghadi with a set time was owed a result in the last 30 days.');
    expect(delaySummary([], 30)).toBe('No result declared against a set time in the last 30 days.');
    const one = GHADIS.slice(0, 1);
    expect(onTimeSummary(one, 30)).toBe('On time on 30 of 30 days owed (100%).');
    expect(delaySummary(one, 30)).toBe('Median delay after the result time: Gali, 1.5 min.');
    const even = GHADIS.slice(0, 2).map((ghadi) => ({
      ...ghadi,
      onTime: 0,
      onTimeRate: 0,
      medianDelayMinutes: 5,
    }));
    expect(onTimeSummary(even, 30)).toBe('On time on 0 of 59 days owed (0%). Every ghadi: 0%.');
    expect(delaySummary(even, 30)).toBe('Median delay after the result time: 5 min for every ghadi.');
  });
});
