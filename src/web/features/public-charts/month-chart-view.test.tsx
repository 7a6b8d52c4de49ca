import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { Language } from '../../../shared/page-language.js';
import type { MonthChartPageData } from '../../../shared/public-page-data.js';
import type { ChartCell, MonthChart } from '../../../shared/schemas/charts.js';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { MonthChartView } from './month-chart-view.js';

const DISAWER = { GID: 4, NameEn: 'Disawer', NameHn: 'दिसावर' };
const GALI = { GID: 5, NameEn: 'Gali', NameHn: 'गली' };

function chartOf(month: string, ghadis: MonthChart['ghadis']): MonthChart {
  return { month, ghadis, days: Array.from({ length: 31 }, () => ghadis.map((): ChartCell => null)) };
}

function chartData(
  month = '2026-11',
  today = '2026-11-22',
  ghadis = [DISAWER, GALI],
  neighbours: Pick<MonthChartPageData, 'previousMonth' | 'nextMonth'> = {
    previousMonth: '2026-10',
    nextMonth: null,
  },
): MonthChartPageData {
  const chart = chartOf(month, ghadis);
  if (ghadis.length === 2) {
    (chart.days[0] as ChartCell[])[1] = { Result: '33', Corrected: false };
    (chart.days[19] as ChartCell[])[0] = { Result: '81', Corrected: true };
  }
  return {
    page: 'month-chart',
    version: 3,
    siteName: 'Site',
    today,
    timeZone: 'Asia/Kolkata',
    chart,
    ...neighbours,
  };
}

const render = (data: MonthChartPageData, language: Language = 'en') =>
  renderThenHydrate(<MonthChartView initial={data} language={language} />);

const row = (day: number) => within(screen.getByRole('table')).getAllByRole('row')[day] as HTMLElement;
/** The cell of a day (1-31) in a column (0-based). */
const cell = (day: number, column: number) => row(day).querySelectorAll('td')[column] as HTMLElement;
const hrefOf = (name: string | RegExp) => screen.getByRole('link', { name }).getAttribute('href');

describe('the monthly chart of every ghadi', () => {
  it('renders on the server and hydrates in the browser without a difference, a column per ghadi', async () => {
    const { html } = await render(chartData());
    expect(html).toContain('Satta Chart November 2026');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Satta Chart November 2026');
    const table = screen.getByRole('table', { name: 'Satta Chart November 2026' });
    expect(within(table).getAllByRole('row')).toHaveLength(32);
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((th) => th.textContent)).toEqual(['Day', 'Disawer', 'Gali']);
    expect(within(headers[1] as HTMLElement).getByRole('link')).toHaveAttribute(
      'href',
      '/satta-results/disawer/2026',
    );
    expect(screen.getByRole('region', { name: 'Satta Chart November 2026' })).toHaveAttribute(
      'tabindex',
      '0',
    );
  });

  it('shows results, corrections, the days the month lacks, past dates with no result, and today', async () => {
    await render(chartData());
    expect(cell(1, 1)).toHaveTextContent(/^33$/);
    expect(cell(20, 0)).toHaveTextContent('81✱ (corrected)');
    expect(within(cell(20, 0)).getByTestId('correction-mark')).toBeInTheDocument();
    expect(within(cell(1, 1)).queryByTestId('correction-mark')).toBeNull();

    // November has no 31st: one hatched, wordless cell across every column.
    const missing = row(31).querySelectorAll('td');
    expect(missing).toHaveLength(1);
    expect(missing[0]).toHaveClass('x');
    expect(missing[0]).toHaveAttribute('colspan', '2');
    expect(missing[0]).toHaveAttribute('aria-label', 'No such day');
    expect(missing[0]).toHaveTextContent(/^$/);
    expect(row(30).querySelectorAll('td')).toHaveLength(2);

    expect(cell(21, 0)).toHaveTextContent(/^–$/);
    expect(cell(21, 0)).toHaveAttribute('aria-label', 'No result');
    expect(row(22)).toHaveAttribute('aria-current', 'date');
    expect(document.querySelectorAll('[aria-current="date"]')).toHaveLength(1);
    expect(cell(22, 0)).not.toHaveAttribute('aria-label');
    expect(cell(23, 1)).toHaveTextContent(/^$/);
    expect(cell(23, 1)).not.toHaveAttribute('aria-label');
    expect(document.querySelector('.chart-legend')).toHaveTextContent(/No such day today$/);
  });

  it('links the month before, not one after the current month, each ghadi’s year chart and home', async () => {
    await render(chartData());
    expect(hrefOf('← Previous month (October 2026)')).toBe('/chart/2026-10');
    expect(screen.queryByRole('link', { name: /Next month/ })).toBeNull();
    expect(hrefOf('← Home')).toBe('/');
    const yearCharts = within(screen.getByRole('navigation', { name: 'Yearly charts 2026' })).getAllByRole(
      'link',
    );
    expect(yearCharts.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Disawer Chart 2026', '/satta-results/disawer/2026'],
      ['Gali Chart 2026', '/satta-results/gali/2026'],
    ]);
  });

  it('in a past month links the next month, marks every date without a result, and has no today', async () => {
    await render(
      chartData('2024-02', '2026-11-22', [DISAWER, GALI], { previousMonth: '2024-01', nextMonth: '2024-03' }),
    );
    expect(hrefOf('Next month (March 2024) →')).toBe('/chart/2024-03');
    expect(hrefOf('← Previous month (January 2024)')).toBe('/chart/2024-01');
    expect(document.querySelector('[aria-current="date"]')).toBeNull();
    expect(document.querySelector('.chart-legend')).toHaveTextContent(/No such day$/);
    // 2024 is a leap year: 29 February is a day, the 30th is not.
    expect(cell(29, 0)).toHaveAttribute('aria-label', 'No result');
    expect(row(30).querySelector('td')).toHaveClass('x');
    expect(cell(2, 0)).toHaveAttribute('aria-label', 'No result');
  });

  it('has no previous month before the first charted one', async () => {
    await render(
      chartData('2000-01', '2000-01-05', [DISAWER, GALI], { previousMonth: null, nextMonth: null }),
    );
    expect(screen.queryByRole('link', { name: /Previous month/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Next month/ })).toBeNull();
  });

  it('links the nearest months that have a chart, past months without results', async () => {
    await render(
      chartData('2024-02', '2026-11-22', [DISAWER, GALI], { previousMonth: '2023-09', nextMonth: '2024-06' }),
    );
    expect(hrefOf('← Previous month (September 2023)')).toBe('/chart/2023-09');
    expect(hrefOf('Next month (June 2024) →')).toBe('/chart/2024-06');
  });

  it('says so when no ghadi is listed', async () => {
    await render(chartData('2026-11', '2026-11-22', []));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No ghadi is listed yet.')).toBeInTheDocument();
  });

  it('reads in Hindi: Hindi names, month and texts, and links under /hi', async () => {
    const { html } = await render(chartData(), 'hi');
    expect(html).toContain('सट्टा चार्ट नवंबर 2026');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('सट्टा चार्ट नवंबर 2026');
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((th) => th.textContent)).toEqual(['दिन', 'दिसावर', 'गली']);
    expect(within(headers[2] as HTMLElement).getByRole('link')).toHaveAttribute(
      'href',
      '/hi/satta-results/gali/2026',
    );
    expect(hrefOf('← पिछला महीना (अक्टूबर 2026)')).toBe('/hi/chart/2026-10');
    expect(hrefOf('← होम')).toBe('/hi');
    expect(hrefOf('गली चार्ट 2026')).toBe('/hi/satta-results/gali/2026');
    expect(cell(21, 0)).toHaveAttribute('aria-label', 'कोई परिणाम नहीं');
    expect(row(31).querySelector('td')).toHaveAttribute('aria-label', 'ऐसी कोई तारीख नहीं');
    expect(cell(20, 0)).toHaveTextContent('81✱ (सुधारा गया)');
  });
});

describe('the monthly chart stays live', () => {
  /** An event stream the test speaks through, in place of the browser's. */
  function fakeEventStream() {
    const sources: Array<{ url: string; onmessage: ((message: MessageEvent<string>) => void) | null }> = [];
    class FakeEventSource {
      static readonly CLOSED = 2;
      readyState = 1;
      onmessage: ((message: MessageEvent<string>) => void) | null = null;
      onopen: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(readonly url: string) {
        sources.push(this);
      }
      close() {}
    }
    vi.stubGlobal('EventSource', FakeEventSource);
    let id = 10;
    return {
      sources,
      send(event: LiveEvent) {
        id += 1;
        const message = new MessageEvent('message', { data: JSON.stringify(event), lastEventId: String(id) });
        act(() => sources[0]?.onmessage?.(message));
      },
    };
  }

  const chartRequests = () =>
    vi
      .mocked(fetch)
      .mock.calls.map(([url]) => String(url))
      .filter((url) => url.startsWith('/api/charts'));

  it('shows a declared result and drops a deleted ghadi’s column, with no request', async () => {
    const stream = fakeEventStream();
    await render(chartData());
    expect(stream.sources[0]?.url).toBe('/api/events?since=3');
    stream.send({
      kind: 'result',
      gid: 5,
      date: '2026-11-21',
      ghadi: ghadiRecord(5, { NameEn: 'Gali', NameHn: 'गली' }),
      result: resultRecord(5, '2026-11-21', '64'),
      declaration: null,
    });
    expect(cell(21, 1)).toHaveTextContent(/^64$/);

    stream.send({ kind: 'ghadi', gid: 4, ghadi: null });
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Day', 'Gali']);
    expect(cell(21, 0)).toHaveTextContent(/^64$/);
    expect(chartRequests()).toEqual([]);
  });

  it('reloads the chart when a ghadi it has no column for is listed', async () => {
    const stream = fakeEventStream();
    await render(chartData());
    const fresh = chartOf('2026-11', [DISAWER, { GID: 9, NameEn: 'Faridabad', NameHn: 'फरीदाबाद' }, GALI]);
    (fresh.days[4] as ChartCell[])[1] = { Result: '42', Corrected: false };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ success: true, data: fresh }), { status: 200 })),
    );
    stream.send({
      kind: 'ghadi',
      gid: 9,
      ghadi: ghadiRecord(9, { NameEn: 'Faridabad', NameHn: 'फरीदाबाद' }),
    });
    expect(await screen.findByRole('columnheader', { name: 'Faridabad' })).toBeInTheDocument();
    expect(cell(5, 1)).toHaveTextContent(/^42$/);
    expect(chartRequests()).toEqual(['/api/charts/month/2026-11']);
  });
});
