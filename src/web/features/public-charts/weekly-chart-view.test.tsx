import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import type { WeeklyChartPageData } from '../../../shared/public-page-data.js';
import type { WeeklyView } from '../../../shared/weekly-chart-pages.js';
import { weeklyChartOf } from '../../../shared/weekly-charts.js';
import { ghadiRecord, resultRecord, TICKER } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { WeeklyChartView } from './weekly-chart-view.js';

const MON_SAT = [1, 2, 3, 4, 5, 6];
const result = (date: string, Result: string, Corrected = false) => ({ Date: date, Result, Corrected });

/** Kalyan, Monday to Saturday, its last weeks of 2025; today is Wednesday 31 December 2025 unless said. */
function chartData(view: WeeklyView = 'jodi', today = '2025-12-31'): WeeklyChartPageData {
  const chart = weeklyChartOf(
    { GID: 7, NameEn: 'Kalyan', NameHn: 'कल्याण', Kind: 'open-close', Days: MON_SAT },
    2025,
    [
      result('2025-12-22', '123-68-459'),
      result('2025-12-23', '145-02-200', true),
      result('2025-12-29', '128-1'),
      // A Sunday: no column.
      result('2025-12-28', '119-11-777'),
    ],
    ['2025-12-24'],
    [2024, 2025],
  );
  return {
    page: 'weekly-chart',
    version: 9,
    siteName: 'Site',
    today,
    timeZone: 'Asia/Kolkata',
    ghadiNames: TICKER,
    view,
    chart,
  };
}

const render = (data: WeeklyChartPageData, language: Language = 'en') =>
  renderThenHydrate(<WeeklyChartView initial={data} language={language} />);

/** The cells of week `week` (1 = the first row). */
function cells(week: number): HTMLElement[] {
  const row = within(screen.getByRole('table')).getAllByRole('row')[week];
  return [...(row?.querySelectorAll('td') ?? [])] as HTMLElement[];
}

const hrefOf = (name: string | RegExp) => screen.getByRole('link', { name }).getAttribute('href');

describe('a weekly chart', () => {
  it('renders on the server and hydrates without a difference: a row a week, a column a running weekday', async () => {
    const { html } = await render(chartData());
    expect(html).toContain('Kalyan Jodi Chart 2025');
    const table = screen.getByRole('table', { name: 'Kalyan Jodi Chart 2025' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Week', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
    expect(rows.slice(1).map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      '22 Dec – 28 Dec',
      '29 Dec – 4 Jan',
    ]);
    expect(cells(1).map((cell) => cell.textContent)).toEqual([
      '68',
      '02✱ (corrected)',
      'Holiday',
      '–',
      '–',
      '–',
    ]);
    // The open half of Monday 29 December: its ank, the close ank to come. Tuesday 30 is before
    // today (no result), Wednesday 31 is today, and the days of 2026 are not this chart's.
    const [open, missing, current, ...later] = cells(2);
    expect(open).toHaveTextContent('1* (close to come)');
    expect(missing).toHaveAttribute('aria-label', 'No result');
    expect(current).toHaveAttribute('aria-current', 'date');
    expect(current).toHaveTextContent(/^$/);
    for (const cell of later) {
      expect(cell).toHaveClass('x');
      expect(cell).toHaveAttribute('aria-label', 'Not in 2025');
    }
    expect(document.querySelectorAll('[aria-current="date"]')).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Kalyan Jodi Chart 2025' })).toHaveAttribute('tabindex', '0');
  });

  it('stacks a panel: open panna, jodi, close panna; an open half’s close to come', async () => {
    await render(chartData('panel'));
    const parts = (cell: HTMLElement | undefined) =>
      [...(cell?.querySelectorAll(':scope > span') ?? [])].map((part) => part.textContent);
    expect(parts(cells(1)[0])).toEqual(['123', '68', '459']);
    expect(parts(cells(1)[1])).toEqual(['145', '02', '200✱ (corrected)']);
    expect(parts(cells(2)[0])).toEqual(['128', '1*', '*** (close to come)']);
    const legend = document.querySelector('.chart-legend') as HTMLElement;
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '– No result',
      '✱ corrected after it was first declared',
      '* close to come',
      ' Holiday',
      ' Not in 2025',
      ' today',
    ]);
  });

  it('links the ghadi, its year chart, the other view and the years around', async () => {
    await render(chartData('panel'));
    expect(hrefOf('← Home')).toBe('/');
    expect(hrefOf('Kalyan Results')).toBe('/satta-results/kalyan');
    expect(hrefOf('Kalyan Chart 2025')).toBe('/satta-results/kalyan/2025');
    expect(hrefOf(/Previous year \(2024\)/)).toBe('/panel-chart/kalyan/2024');
    expect(screen.queryByRole('link', { name: /Next year/ })).toBeNull();
    const weekly = within(screen.getByRole('navigation', { name: 'Weekly charts' })).getAllByRole('link');
    expect(weekly.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Kalyan Jodi Chart 2025', '/jodi-chart/kalyan/2025'],
      ['Kalyan Panel Chart 2025', '/panel-chart/kalyan/2025'],
    ]);
    expect(weekly[1]).toHaveAttribute('aria-current', 'page');
  });

  it('reads in Hindi: the Hindi name, weekdays, dates and words, links under /hi', async () => {
    await render(chartData(), 'hi');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('कल्याण जोड़ी चार्ट 2025');
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((th) => th.textContent)).toEqual(['सप्ताह', 'सोम', 'मंगल', 'बुध', 'गुरु', 'शुक्र', 'शनि']);
    expect(within(screen.getByRole('table')).getAllByRole('rowheader')[1]).toHaveTextContent(
      '29 दिस॰ – 4 जन॰',
    );
    expect(cells(1)[2]).toHaveTextContent('छुट्टी');
    expect(cells(2)[0]).toHaveTextContent('1* (क्लोज़ बाकी)');
    expect(hrefOf('कल्याण पैनल चार्ट 2025')).toBe('/hi/panel-chart/kalyan/2025');
    expect(hrefOf(/पिछला वर्ष \(2024\)/)).toBe('/hi/jodi-chart/kalyan/2024');
  });

  it('fills in a close step and a new week from the event stream, with no request', async () => {
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
    await render(chartData('panel', '2025-12-20'));
    const source = sources[0];
    expect(source?.url).toBe('/api/events?since=9');
    const ghadi = ghadiRecord(7, { NameEn: 'Kalyan', NameHn: 'कल्याण', Kind: 'open-close', Days: MON_SAT });
    const send = (id: number, date: string, value: string) =>
      act(() =>
        source?.onmessage?.(
          new MessageEvent('message', {
            data: JSON.stringify({
              kind: 'result',
              gid: 7,
              date,
              ghadi,
              result: resultRecord(7, date, value),
              declaration: null,
            }),
            lastEventId: String(id),
          }),
        ),
      );
    send(10, '2025-12-29', '128-18-459');
    expect(
      [...(cells(2)[0]?.querySelectorAll(':scope > span') ?? [])].map((part) => part.textContent),
    ).toEqual(['128', '18', '459']);
    // The first result of 2025's last days past the chart's weeks: the week before is there already.
    send(11, '2025-12-16', '137-1');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('rowheader')
        .map((th) => th.textContent),
    ).toEqual(['15 Dec – 21 Dec', '22 Dec – 28 Dec', '29 Dec – 4 Jan']);
    expect(cells(1)[1]).toHaveTextContent('137 1* *** (close to come)');
    const requests = vi.mocked(fetch).mock.calls.map(([url]) => String(url));
    expect(requests.filter((url) => url.startsWith('/api/charts'))).toEqual([]);
  });
});
