import { describe, expect, it } from 'vitest';
import { weeklyChartApiPath, weeklyChartPath } from './weekly-chart-pages.js';
import {
  dateInWeek,
  mondayOf,
  resultCellOf,
  weeklyChartOf,
  weeksOf,
  withWeeklyResult,
} from './weekly-charts.js';

const MON_SAT = [1, 2, 3, 4, 5, 6];
const kalyan = {
  GID: 4,
  NameEn: 'Kalyan Night',
  NameHn: 'कल्याण नाइट',
  Kind: 'open-close' as const,
  Days: MON_SAT,
};
const result = (date: string, Result: string, Corrected = false) => ({ Date: date, Result, Corrected });

describe('weekly chart addresses', () => {
  it('name the folded English name, encoded, for both views and the JSON', () => {
    expect(weeklyChartPath('jodi', 'Kalyan Night', 2026)).toBe('/jodi-chart/kalyan%20night/2026');
    expect(weeklyChartPath('panel', 'Kalyan Night', 2026)).toBe('/panel-chart/kalyan%20night/2026');
    expect(weeklyChartApiPath('Kalyan Night', 2026)).toBe('/api/charts/kalyan%20night/2026/weeks');
  });
});

describe('weeks', () => {
  it('start on Monday, whatever the date', () => {
    // 2026-11-29 is a Sunday, 2026-11-23 a Monday.
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2025-01-01')).toBe('2024-12-30');
    expect(dateInWeek('2026-11-23', 0)).toBe('2026-11-29');
    expect(dateInWeek('2026-11-23', 3)).toBe('2026-11-25');
  });

  it('run from the first cell shown to the last, consecutive, with null for the empty and other years', () => {
    const shown = new Map([
      ['2025-01-01', resultCellOf('open-close', result('2025-01-01', '123-68-459'))],
      ['2025-01-14', { Date: '2025-01-14', Holiday: true as const }],
    ]);
    const weeks = weeksOf(2025, MON_SAT, shown);
    expect(weeks.map((week) => [week.from, week.to])).toEqual([
      ['2024-12-30', '2025-01-05'],
      ['2025-01-06', '2025-01-12'],
      ['2025-01-13', '2025-01-19'],
    ]);
    // Mon 30 and Tue 31 December are 2024's: null; Wednesday 1 January holds the result.
    expect(weeks[0]?.cells).toEqual([null, null, shown.get('2025-01-01'), null, null, null]);
    expect(weeks[1]?.cells).toEqual([null, null, null, null, null, null]);
    expect(weeks[2]?.cells[1]).toEqual({ Date: '2025-01-14', Holiday: true });
    expect(weeksOf(2025, MON_SAT, new Map())).toEqual([]);
  });
});

describe('weeklyChartOf', () => {
  it('splits values into parts: a whole day, an open half, a correction; a starline panna', () => {
    const chart = weeklyChartOf(
      kalyan,
      2026,
      [
        result('2026-11-23', '123-68-459'),
        result('2026-11-24', '128-1'),
        result('2026-11-25', '999-70-000', true),
      ],
      [],
      [2025, 2026],
    );
    expect(chart).toMatchObject({
      GID: 4,
      Kind: 'open-close',
      year: 2026,
      years: [2025, 2026],
      days: MON_SAT,
    });
    expect(chart.weeks).toHaveLength(1);
    expect(chart.weeks[0]?.cells.slice(0, 3)).toEqual([
      { Date: '2026-11-23', Result: '123-68-459', Open: '123', Jodi: '68', Close: '459', Corrected: false },
      { Date: '2026-11-24', Result: '128-1', Open: '128', Jodi: '1', Close: null, Corrected: false },
      { Date: '2026-11-25', Result: '999-70-000', Open: '999', Jodi: '70', Close: '000', Corrected: true },
    ]);
    const starline = weeklyChartOf(
      { ...kalyan, Kind: 'panna', Days: [0, 1, 2, 3, 4, 5, 6] },
      2026,
      [result('2026-11-29', '128-1')],
      [],
      [],
    );
    expect(starline.days).toEqual([1, 2, 3, 4, 5, 6, 0]);
    expect(starline.weeks[0]?.cells[6]).toEqual({
      Date: '2026-11-29',
      Result: '128-1',
      Open: '128',
      Jodi: '1',
      Close: null,
      Corrected: false,
    });
  });

  it('marks holidays, shows a result declared on one instead, and has no column for an off-day', () => {
    const chart = weeklyChartOf(
      kalyan,
      2026,
      // Sunday 29 November is an off-day of a Monday-to-Saturday ghadi.
      [result('2026-11-24', '123-68-459'), result('2026-11-29', '128-1'), result('2026-11-26', '128-1')],
      ['2026-11-26', '2026-11-27', '2026-12-07'],
      [2026],
    );
    expect(chart.weeks.map((week) => week.from)).toEqual(['2026-11-23', '2026-11-30', '2026-12-07']);
    const [first] = chart.weeks;
    expect(
      first?.cells.map((cell) => (cell === null ? null : 'Holiday' in cell ? 'holiday' : cell.Result)),
    ).toEqual([null, '123-68-459', null, '128-1', 'holiday', null]);
    expect(chart.weeks.flatMap((week) => week.cells).some((cell) => cell?.Date === '2026-11-29')).toBe(false);
  });

  it('shows a value of no form of its kind whole, as its jodi (declared before the kind changed)', () => {
    expect(resultCellOf('open-close', result('2026-11-23', '45'))).toMatchObject({
      Open: '',
      Jodi: '45',
      Close: '',
    });
    expect(resultCellOf('panna', result('2026-11-23', '45'))).toMatchObject({
      Open: '',
      Jodi: '45',
      Close: null,
    });
  });
});

describe('withWeeklyResult', () => {
  const chart = weeklyChartOf(kalyan, 2026, [result('2026-11-24', '123-6')], ['2026-11-25'], [2026]);

  it('completes an open half in its cell', () => {
    const next = withWeeklyResult(chart, result('2026-11-24', '123-68-459'));
    expect(next.weeks[0]?.cells[1]).toMatchObject({
      Open: '123',
      Jodi: '68',
      Close: '459',
      Corrected: false,
    });
    expect(next.weeks[0]?.cells[2]).toEqual({ Date: '2026-11-25', Holiday: true });
  });

  it('adds the weeks up to a result in a later week, and leaves other years and off-days alone', () => {
    const next = withWeeklyResult(chart, result('2026-12-09', '128-1'));
    expect(next.weeks.map((week) => week.from)).toEqual(['2026-11-23', '2026-11-30', '2026-12-07']);
    expect(next.weeks[2]?.cells[2]).toMatchObject({ Open: '128', Jodi: '1', Close: null });
    expect(withWeeklyResult(chart, result('2025-11-24', '128-1'))).toBe(chart);
    expect(withWeeklyResult(chart, result('2026-11-29', '128-1'))).toBe(chart);
  });
});
