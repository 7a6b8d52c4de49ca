import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../shared/live-events.js';
import { weeklyChartOf } from '../../../shared/weekly-charts.js';
import { ghadiRecord, resultRecord, TICKER } from '../../test/records.js';
import { applyWeeklyChartEvent, type WeeklyChartState } from './weekly-chart-live.js';

const MON_SAT = [1, 2, 3, 4, 5, 6];
const ghadi = ghadiRecord(7, { NameEn: 'Kalyan', NameHn: 'कल्याण', Kind: 'open-close', Days: MON_SAT });

const data: WeeklyChartState = {
  page: 'weekly-chart',
  version: 1,
  siteName: 'Site',
  today: '2026-11-25',
  timeZone: 'Asia/Kolkata',
  ghadiNames: TICKER,
  view: 'jodi',
  chart: weeklyChartOf(
    { ...ghadi, Kind: 'open-close' },
    2026,
    [{ Date: '2026-11-23', Result: '123-6', Corrected: false }],
    [],
    [2026],
  ),
};

const resultEvent = (overrides: Partial<Extract<LiveEvent, { kind: 'result' }>> = {}): LiveEvent => ({
  kind: 'result',
  gid: 7,
  date: '2026-11-23',
  ghadi,
  result: resultRecord(7, '2026-11-23', '123-68-459'),
  declaration: null,
  ...overrides,
});

describe('a weekly chart’s live events', () => {
  it('completes an open half with its close step', () => {
    const next = applyWeeklyChartEvent(data, resultEvent());
    expect(next.chart.weeks[0]?.cells[0]).toMatchObject({ Open: '123', Jodi: '68', Close: '459' });
    expect(next.stale).toBeUndefined();
  });

  it('leaves other ghadis’ events, other years and off-days alone', () => {
    expect(applyWeeklyChartEvent(data, resultEvent({ gid: 8 }))).toBe(data);
    const sunday = resultEvent({ date: '2026-11-29', result: resultRecord(7, '2026-11-29', '128-1') });
    expect(applyWeeklyChartEvent(data, sunday).chart.weeks).toEqual(data.chart.weeks);
  });

  it('lists a year once it has a result, and follows a new name', () => {
    const renamed = { ...ghadi, NameEn: 'Kalyan Morning' };
    const next = applyWeeklyChartEvent(
      { ...data, chart: { ...data.chart, years: [] } },
      resultEvent({ ghadi: renamed }),
    );
    expect(next.chart.years).toEqual([2026]);
    expect(next.chart.NameEn).toBe('Kalyan Morning');
  });

  it('reloads what it cannot apply: a removed result, new days or kind; keeps what it shows of a deleted ghadi', () => {
    expect(applyWeeklyChartEvent(data, resultEvent({ result: null })).stale).toBe(true);
    expect(
      applyWeeklyChartEvent(data, { kind: 'ghadi', gid: 7, ghadi: { ...ghadi, Days: [1, 2, 3] } }).stale,
    ).toBe(true);
    expect(applyWeeklyChartEvent(data, resultEvent({ ghadi: { ...ghadi, Kind: 'panna' } })).stale).toBe(true);
    const gone = applyWeeklyChartEvent(data, { kind: 'ghadi', gid: 7, ghadi: null });
    expect(gone).toMatchObject({ removed: true, chart: data.chart });
  });

  it('moves today with the site’s day', () => {
    const next = applyWeeklyChartEvent(data, {
      kind: 'day',
      today: '2026-11-26',
      recordMonth: '2026-11',
      ghadis: [],
      record: null,
    });
    expect(next.today).toBe('2026-11-26');
  });
});
