import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { RecordChart } from './record-chart.js';

const ghadis = [ghadiRecord(1, { NameEn: 'NCR' }), ghadiRecord(2, { NameEn: 'Gali' })];
const results = [
  resultRecord(1, '2026-11-01', '12', { Name: 'NCR' }),
  resultRecord(2, '2026-11-22', '54', { Name: 'Gali' }),
];

const serve = (count = ghadis.length) =>
  renderThenHydrate(
    <RecordChart
      ghadis={Array.from({ length: count }, (_, index) => ghadis[index] ?? ghadiRecord(index + 1))}
      results={results}
      month="2026-11"
      today="2026-11-23"
      language="en"
    />,
  );

const cell = (day: number, column: number) =>
  within(screen.getByRole('table')).getAllByRole('row')[day]?.querySelectorAll('td')[column] as HTMLElement;

describe('the record chart on a phone', () => {
  it('is a region the keyboard reaches, named by its caption, that says it scrolls sideways', async () => {
    await serve();
    const region = screen.getByRole('region', { name: 'Record chart – November 2026' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(within(region).getByRole('table', { name: /Record chart – November 2026/ })).toBeInTheDocument();
    const hint = screen.getByText('Scroll sideways →');
    expect(hint).toHaveAttribute('aria-hidden', 'true');
    // A few columns fit a wide screen: the word is for narrow ones only.
    expect(hint.className).toBe('table-hint');
  });

  it('keeps its word on every screen when its columns outgrow a wide one', async () => {
    await serve(12);
    expect(screen.getByText('Scroll sideways →').className).toBe('table-hint table-hint-always');
  });

  it('marks a past date without a result as the chart pages do, and leaves later dates blank', async () => {
    await serve();
    expect(cell(1, 0)).toHaveTextContent('12');
    expect(cell(1, 1)).toHaveTextContent('–');
    expect(cell(1, 1)).toHaveAttribute('aria-label', 'No result');
    expect(cell(22, 1)).toHaveTextContent('54');
    // Today and later: still to come.
    expect(cell(23, 0)).toHaveTextContent(/^$/);
    expect(cell(24, 0)).not.toHaveAttribute('aria-label');
    // November has no 31st: never a missing result.
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(32);
    expect(cell(31, 0)).not.toHaveAttribute('aria-label');
  });
});
