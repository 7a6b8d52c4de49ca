import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import type { YearChartPageData } from '../../../shared/public-page-data.js';
import type { ChartCell } from '../../../shared/schemas/charts.js';
import { ghadiRecord, resultRecord, TICKER } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { YearChartView } from './year-chart-view.js';

function chartData(
  overrides: Partial<YearChartPageData['chart']> = {},
  today = '2025-11-22',
): YearChartPageData {
  const months = Array.from({ length: 12 }, () => new Array<ChartCell>(31).fill(null));
  (months[1] as ChartCell[])[2] = { Result: '54', Corrected: true };
  (months[10] as ChartCell[])[20] = { Result: '07', Corrected: false };
  return {
    page: 'year-chart',
    version: 3,
    siteName: 'Site',
    today,
    timeZone: 'Asia/Kolkata',
    ghadiNames: TICKER,
    chart: { GID: 5, NameEn: 'Gali', NameHn: 'गली', year: 2025, years: [2023, 2025], months, ...overrides },
  };
}

const render = (data: YearChartPageData, language: Language = 'en') =>
  renderThenHydrate(<YearChartView initial={data} language={language} />);

/** The cell of a day (1-31) of a month (1-12). */
function cell(day: number, month: number): HTMLElement {
  const row = within(screen.getByRole('table')).getAllByRole('row')[day];
  return row?.querySelectorAll('td')[month - 1] as HTMLElement;
}

const hrefOf = (name: string | RegExp) => screen.getByRole('link', { name }).getAttribute('href');

describe('a ghadi’s year chart', () => {
  it('renders on the server and hydrates in the browser without a difference, as 31 days of 12 months', async () => {
    const { html } = await render(chartData());
    expect(html).toContain('Gali Chart 2025');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Gali Chart 2025');
    const table = screen.getByRole('table', { name: 'Gali Chart 2025' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(32);
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Day', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);
    expect(rows[31]?.querySelectorAll('td')).toHaveLength(12);
    // The scroll box is named by the heading and can be reached from the keyboard.
    expect(screen.getByRole('region', { name: 'Gali Chart 2025' })).toHaveAttribute('tabindex', '0');
  });

  it('shows results, corrections, missing days, past dates with no result, and today', async () => {
    await render(chartData());
    expect(cell(21, 11)).toHaveTextContent(/^07$/);
    expect(within(cell(21, 11)).queryByTestId('correction-mark')).toBeNull();
    expect(cell(3, 2)).toHaveTextContent('54✱ (corrected)');
    expect(within(cell(3, 2)).getByTestId('correction-mark')).toHaveAttribute('title', 'corrected');

    // 30 February and 31 November do not exist: hatched and wordless, named for screen readers.
    for (const [day, month] of [
      [30, 2],
      [31, 11],
      [31, 4],
    ] as const) {
      expect(cell(day, month)).toHaveClass('x');
      expect(cell(day, month)).toHaveTextContent(/^$/);
      expect(cell(day, month)).toHaveAttribute('aria-label', 'No such day');
    }
    // 29 February 2025 does not exist either; 31 January does.
    expect(cell(29, 2)).toHaveClass('x');
    expect(cell(31, 1)).not.toHaveClass('x');

    // Before today without a result: a dash, said as "No result".
    expect(cell(20, 11)).toHaveTextContent(/^–$/);
    expect(cell(20, 11)).toHaveAttribute('aria-label', 'No result');
    expect(cell(1, 1)).toHaveAttribute('aria-label', 'No result');

    // Today: highlighted, not yet a missing result; after it, nothing.
    expect(cell(22, 11)).toHaveAttribute('aria-current', 'date');
    expect(cell(22, 11)).toHaveTextContent(/^$/);
    expect(cell(22, 11)).not.toHaveAttribute('aria-label');
    expect(cell(23, 11)).toHaveTextContent(/^$/);
    expect(cell(23, 11)).not.toHaveAttribute('aria-label');
    expect(cell(1, 12)).toHaveTextContent(/^$/);
    expect(document.querySelectorAll('[aria-current="date"]')).toHaveLength(1);

    // The legend spells out each mark, for touch screens where a tooltip cannot be read.
    const legend = document.querySelector('.chart-legend') as HTMLElement;
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['– No result', '✱ corrected after it was first declared', ' No such day', ' today']);
  });

  it('links each month up to the current one to its results page, the nearest years with results, the ghadi and home', async () => {
    await render(chartData());
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(within(headers[1] as HTMLElement).getByRole('link')).toHaveAttribute(
      'href',
      '/satta-results/gali?month=1&year=2025',
    );
    expect(within(headers[1] as HTMLElement).getByRole('link')).toHaveAttribute(
      'title',
      'Gali results – January 2025',
    );
    // The current month's page has no query.
    expect(within(headers[11] as HTMLElement).getByRole('link')).toHaveAttribute(
      'href',
      '/satta-results/gali',
    );
    // December has not come yet: nothing to read there.
    expect(within(headers[12] as HTMLElement).queryByRole('link')).toBeNull();

    // 2024 has no results, so no chart: the previous year with one is 2023.
    expect(hrefOf(/Previous year \(2023\)/)).toBe('/satta-results/gali/2023');
    expect(screen.queryByRole('link', { name: /Next year/ })).toBeNull();
    expect(hrefOf('Gali Results')).toBe('/satta-results/gali');
    expect(hrefOf('← Home')).toBe('/');

    const others = within(screen.getByRole('navigation', { name: 'Other years' })).getAllByRole('link');
    expect(others.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['2023', '/satta-results/gali/2023'],
      ['2025', '/satta-results/gali/2025'],
    ]);
    expect(others[1]).toHaveAttribute('aria-current', 'page');
    expect(others[0]).not.toHaveAttribute('aria-current');
  });

  it('in a past year links every month, the next year, and lists the current year among the others', async () => {
    await render(chartData({ year: 2023, years: [2021, 2023] }, '2025-03-10'));
    expect(hrefOf(/Next year \(2025\)/)).toBe('/satta-results/gali/2025');
    expect(hrefOf(/Previous year \(2021\)/)).toBe('/satta-results/gali/2021');
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(within(headers[12] as HTMLElement).getByRole('link')).toHaveAttribute(
      'href',
      '/satta-results/gali?month=12&year=2023',
    );
    const others = within(screen.getByRole('navigation', { name: 'Other years' })).getAllByRole('link');
    expect(others.map((link) => link.textContent)).toEqual(['2021', '2023', '2025']);
    expect(others[1]).toHaveAttribute('aria-current', 'page');
    // A past year has no today, and every date with no result is marked.
    expect(document.querySelector('[aria-current="date"]')).toBeNull();
    expect(document.querySelector('.chart-legend')).not.toHaveTextContent('today');
    expect(cell(31, 12)).toHaveAttribute('aria-label', 'No result');
  });

  it('has no previous year before the first charted one', async () => {
    await render(chartData({ year: 2000, years: [] }, '2000-06-01'));
    expect(screen.queryByRole('link', { name: /Previous year/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Next year/ })).toBeNull();
  });

  it('reads in Hindi: the Hindi name, month names and texts, and links under /hi', async () => {
    const { html } = await render(chartData(), 'hi');
    expect(html).toContain('गली चार्ट 2025');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('गली चार्ट 2025');
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((th) => th.textContent)).toEqual([
      'दिन',
      'जन॰',
      'फ़र॰',
      'मार्च',
      'अप्रै॰',
      'मई',
      'जून',
      'जुला॰',
      'अग॰',
      'सित॰',
      'अक्टू॰',
      'नव॰',
      'दिस॰',
    ]);
    expect(within(headers[1] as HTMLElement).getByRole('link')).toHaveAttribute(
      'href',
      '/hi/satta-results/gali?month=1&year=2025',
    );
    expect(within(headers[1] as HTMLElement).getByRole('link')).toHaveAttribute(
      'title',
      'गली रिज़ल्ट – जनवरी 2025',
    );
    expect(cell(20, 11)).toHaveAttribute('aria-label', 'कोई परिणाम नहीं');
    expect(cell(30, 2)).toHaveAttribute('aria-label', 'ऐसी कोई तारीख नहीं');
    expect(cell(3, 2)).toHaveTextContent('54✱ (सुधारा गया)');
    expect(hrefOf(/पिछला वर्ष \(2023\)/)).toBe('/hi/satta-results/gali/2023');
    expect(hrefOf('गली रिज़ल्ट')).toBe('/hi/satta-results/gali');
    expect(hrefOf('← होम')).toBe('/hi');
    const others = within(screen.getByRole('navigation', { name: 'अन्य वर्ष' })).getAllByRole('link');
    expect(others.map((link) => link.getAttribute('href'))).toEqual([
      '/hi/satta-results/gali/2023',
      '/hi/satta-results/gali/2025',
    ]);
  });

  it('shows a result the event stream brings, with no request', async () => {
    const sources: FakeEventSource[] = [];
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
    await render(chartData());
    const source = sources[0];
    expect(source?.url).toBe('/api/events?since=3');
    const event = {
      kind: 'result',
      gid: 5,
      date: '2025-11-20',
      ghadi: ghadiRecord(5, { NameEn: 'Gali', NameHn: 'गली' }),
      result: resultRecord(5, '2025-11-20', '19'),
      declaration: null,
    };
    act(() =>
      source?.onmessage?.(new MessageEvent('message', { data: JSON.stringify(event), lastEventId: '4' })),
    );
    expect(cell(20, 11)).toHaveTextContent(/^19$/);
    expect(cell(20, 11)).not.toHaveAttribute('aria-label');
    const requests = vi.mocked(fetch).mock.calls.map(([url]) => String(url));
    expect(requests.filter((url) => url.startsWith('/api/charts'))).toEqual([]);
  });
});
