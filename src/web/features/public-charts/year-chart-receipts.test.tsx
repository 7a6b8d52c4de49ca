import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { YearChartPageData } from '../../../shared/public-page-data.js';
import type { ChartCell } from '../../../shared/schemas/charts.js';
import { answerLog, logEntry } from '../../test/receipt-fakes.js';
import { TICKER } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { YearChartView } from './year-chart-view.js';

function chartData(): YearChartPageData {
  const months = Array.from({ length: 12 }, () => new Array<ChartCell>(31).fill(null));
  (months[1] as ChartCell[])[2] = { Result: '54', Corrected: true };
  (months[10] as ChartCell[])[20] = { Result: '07', Corrected: false };
  return {
    page: 'year-chart',
    version: 3,
    siteName: 'Site',
    today: '2025-11-22',
    timeZone: 'Asia/Kolkata',
    ghadiNames: TICKER,
    chart: { GID: 5, NameEn: 'Gali', NameHn: 'गली', year: 2025, years: [2025], months },
  };
}

/** The cell of a day (1-31) of a month (1-12). */
function cell(day: number, month: number): HTMLElement {
  const row = within(screen.getByRole('table')).getAllByRole('row')[day];
  return row?.querySelectorAll('td')[month - 1] as HTMLElement;
}

describe('a year chart shows a value’s receipt on a tap', () => {
  it('a tap on a value reads the log entry of its ghadi and day', async () => {
    await renderThenHydrate(<YearChartView initial={chartData()} language="en" />);
    const asked = answerLog([logEntry({ Date: '2025-02-03' })]);
    // On the correction mark inside the cell as well as on the value.
    await userEvent.click(within(cell(3, 2)).getByTestId('correction-mark'));
    const panel = await screen.findByRole('dialog', { name: /Receipt/ });
    await within(panel).findByTestId('receipt-code');
    expect(asked[0]).toBe('/api/declarations?gid=5&date=2025-02-03&limit=1000');
    expect(panel).toHaveTextContent('Gali · 3 February 2025: 54');
  });

  it('a tap on a day without a value, a missing day or a heading asks for nothing', async () => {
    await renderThenHydrate(<YearChartView initial={chartData()} language="hi" />);
    const asked = answerLog([logEntry()]);
    await userEvent.click(cell(4, 2));
    await userEvent.click(cell(30, 2));
    await userEvent.click(within(screen.getByRole('table')).getAllByRole('rowheader')[2] as HTMLElement);
    expect(asked).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
