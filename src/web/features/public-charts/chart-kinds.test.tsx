import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../shared/page-language.js';
import type { MonthChartPageData, YearChartPageData } from '../../../shared/public-page-data.js';
import type { ChartCell } from '../../../shared/schemas/charts.js';
import { ghadiRecord, TICKER } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { applyMonthChartEvent, applyYearChartEvent } from './chart-live.js';
import { MonthChartView } from './month-chart-view.js';
import { YearChartView } from './year-chart-view.js';

/** Kalyan's 2026: a whole day, a corrected whole day, and today's open half. */
function yearData(Kind: YearChartPageData['chart']['Kind'] = 'open-close'): YearChartPageData {
  const months = Array.from({ length: 12 }, () => new Array<ChartCell>(31).fill(null));
  const november = months[10] as ChartCell[];
  november[20] = { Result: '123-68-459', Corrected: false };
  november[21] = { Result: '190-02-345', Corrected: true };
  november[22] = { Result: '123-6', Corrected: false };
  return {
    page: 'year-chart',
    version: 3,
    siteName: 'Site',
    today: '2026-11-23',
    timeZone: 'Asia/Kolkata',
    ghadiNames: TICKER,
    chart: {
      GID: 7,
      NameEn: 'Kalyan',
      NameHn: 'कल्याण',
      ...(Kind ? { Kind } : {}),
      year: 2026,
      years: [2026],
      months,
    },
  };
}

const renderYear = (data: YearChartPageData, language: Language = 'en') =>
  renderThenHydrate(<YearChartView initial={data} language={language} />);

/** The cell of a day (1-31) in a column (0-based). */
const cell = (day: number, column: number) =>
  within(screen.getByRole('table')).getAllByRole('row')[day]?.querySelectorAll('td')[column] as HTMLElement;

describe('an open/close market’s year chart', () => {
  it('shows the jodi, or the open ank and a dash, named by and titled with the whole result', async () => {
    await renderYear(yearData());
    expect(cell(21, 10)).toHaveTextContent(/^68$/);
    expect(cell(21, 10)).toHaveAttribute('title', '123-68-459');
    expect(cell(21, 10)).toHaveAttribute('aria-label', '123-68-459');
    expect(screen.getByRole('cell', { name: '123-68-459' })).toBe(cell(21, 10));
    expect(cell(23, 10)).toHaveTextContent(/^6-$/);
    expect(cell(23, 10)).toHaveAttribute('title', '123-6');
    expect(cell(23, 10)).toHaveAttribute('aria-current', 'date');
    // A corrected day keeps its mark, and says so in its name.
    expect(cell(22, 10)).toHaveTextContent(/^02✱/);
    expect(cell(22, 10)).toHaveAttribute('aria-label', '190-02-345 (corrected)');
    expect(screen.getByText(/open declared, close to come/)).toBeInTheDocument();
  });

  it('shows the whole value of a tapped cell at the foot of the screen, for touch screens without tooltips', async () => {
    await renderYear(yearData());
    expect(screen.queryByTestId('tapped-cell')).toBeNull();
    act(() => {
      fireEvent.click(cell(21, 10));
    });
    expect(screen.getByTestId('tapped-cell')).toHaveTextContent(/^Nov 21: 123-68-459$/);
    expect(screen.getByTestId('tapped-cell')).toHaveAttribute('aria-hidden', 'true');
    // The tap opens the value's receipt too, loaded on demand in a root of its own: it must settle
    // (the stubbed log answers nothing) and close here, or its render outlives the test's window.
    const receipt = await screen.findByTestId('receipt-panel');
    await within(receipt).findByRole('alert');
    fireEvent.click(within(receipt).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('receipt-panel')).toBeNull());
    act(() => {
      fireEvent.click(cell(5, 10));
    });
    expect(screen.queryByTestId('tapped-cell')).toBeNull();
  });

  it('says it in Hindi', async () => {
    await renderYear(yearData(), 'hi');
    expect(cell(22, 10)).toHaveAttribute('aria-label', '190-02-345 (सुधारा गया)');
    expect(screen.getByText(/ओपन घोषित, क्लोज़ बाकी/)).toBeInTheDocument();
  });

  it('a starline chart shows the panna and ank whole; a jodi chart has no titles nor the legend’s dash', async () => {
    const panna = yearData('panna');
    (panna.chart.months[10] as ChartCell[])[20] = { Result: '128-1', Corrected: false };
    const { unmount } = await renderYear(panna);
    expect(cell(21, 10)).toHaveTextContent(/^128-1$/);
    expect(cell(21, 10)).not.toHaveAttribute('title');
    expect(cell(21, 10)).not.toHaveAttribute('aria-label');
    expect(screen.queryByText(/open declared/)).toBeNull();
    unmount();

    const jodi = yearData(undefined);
    (jodi.chart.months[10] as ChartCell[])[20] = { Result: '45', Corrected: false };
    await renderYear(jodi);
    expect(cell(21, 10)).toHaveTextContent(/^45$/);
    expect(cell(21, 10)).not.toHaveAttribute('title');
  });

  it('follows a change of kind from a live event', () => {
    const data = yearData(undefined);
    const changed = applyYearChartEvent(data, {
      kind: 'ghadi',
      gid: 7,
      ghadi: ghadiRecord(7, { NameEn: 'Kalyan', NameHn: 'कल्याण', Kind: 'open-close', OpenTime: '3:45 PM' }),
    });
    expect(changed.chart.Kind).toBe('open-close');
    const back = applyYearChartEvent(changed, {
      kind: 'ghadi',
      gid: 7,
      ghadi: ghadiRecord(7, { NameEn: 'Kalyan', NameHn: 'कल्याण' }),
    });
    expect('Kind' in back.chart).toBe(false);
    expect(
      applyYearChartEvent(back, {
        kind: 'ghadi',
        gid: 7,
        ghadi: ghadiRecord(7, { NameEn: 'Kalyan', NameHn: 'कल्याण' }),
      }),
    ).toBe(back);
  });
});

describe('the monthly chart with an open/close market among its columns', () => {
  function monthData(): MonthChartPageData {
    const ghadis = [
      { GID: 5, NameEn: 'Gali', NameHn: 'गली' },
      { GID: 7, NameEn: 'Kalyan', NameHn: 'कल्याण', Kind: 'open-close' as const },
      { GID: 8, NameEn: 'Star', NameHn: 'स्टार', Kind: 'panna' as const },
    ];
    const days = Array.from({ length: 31 }, () => ghadis.map((): ChartCell => null));
    days[20] = [
      { Result: '45', Corrected: false },
      { Result: '123-68-459', Corrected: false },
      { Result: '128-1', Corrected: false },
    ];
    days[21] = [null, { Result: '123-6', Corrected: false }, null];
    return {
      page: 'month-chart',
      version: 3,
      siteName: 'Site',
      today: '2026-11-22',
      timeZone: 'Asia/Kolkata',
      chart: { month: '2026-11', ghadis, days },
      previousMonth: null,
      nextMonth: null,
    };
  }

  it('shows each column in its kind’s form, the jodi column as it was', async () => {
    await renderThenHydrate(<MonthChartView initial={monthData()} language="en" />);
    expect(cell(21, 0)).toHaveTextContent(/^45$/);
    expect(cell(21, 0)).not.toHaveAttribute('title');
    expect(cell(21, 1)).toHaveTextContent(/^68$/);
    expect(cell(21, 1)).toHaveAttribute('title', '123-68-459');
    expect(cell(21, 2)).toHaveTextContent(/^128-1$/);
    expect(cell(22, 1)).toHaveTextContent(/^6-$/);
    expect(cell(22, 1)).toHaveAttribute('aria-label', '123-6');
    act(() => {
      fireEvent.click(cell(21, 1));
    });
    expect(screen.getByTestId('tapped-cell')).toHaveTextContent(/^Kalyan 21: 123-68-459$/);
    expect(screen.getByText(/open declared, close to come/)).toBeInTheDocument();
  });

  it('a column follows its ghadi’s kind from a live event', () => {
    const data = monthData();
    const changed = applyMonthChartEvent(data, {
      kind: 'ghadi',
      gid: 5,
      ghadi: ghadiRecord(5, { NameEn: 'Gali', NameHn: 'गली', Kind: 'panna' }),
    });
    expect(changed.chart.ghadis[0]).toEqual({ GID: 5, NameEn: 'Gali', NameHn: 'गली', Kind: 'panna' });
  });
});
