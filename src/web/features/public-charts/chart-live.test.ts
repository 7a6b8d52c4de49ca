import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { ChartCell } from '../../../shared/schemas/charts.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { ghadiRecord, resultRecord, TICKER } from '../../test/records.js';
import {
  applyMonthChartEvent,
  applyYearChartEvent,
  type MonthChartState,
  reloadMonthChart,
  reloadYearChart,
  type YearChartState,
} from './chart-live.js';

const gali = (overrides: Partial<GhadiRecord> = {}) =>
  ghadiRecord(5, { NameEn: 'Gali', NameHn: 'गली', OrderId: 2, ...overrides });

const emptyYear = (): ChartCell[][] => Array.from({ length: 12 }, () => new Array<ChartCell>(31).fill(null));

function yearData(): YearChartState {
  const months = emptyYear();
  (months[10] as ChartCell[])[20] = { Result: '07', Corrected: false };
  return {
    page: 'year-chart',
    version: 3,
    siteName: 'Site',
    today: '2025-11-22',
    timeZone: 'Asia/Kolkata',
    ghadiNames: TICKER,
    chart: { GID: 5, NameEn: 'Gali', NameHn: 'गली', year: 2025, years: [2023, 2025], months },
  };
}

function resultEvent(
  gid: number,
  date: string,
  value: string | null,
  ghadi: GhadiRecord | null,
  corrected = false,
): LiveEvent {
  return {
    kind: 'result',
    gid,
    date,
    ghadi,
    result: value === null ? null : resultRecord(gid, date, value, { Corrected: corrected }),
    declaration: null,
  };
}

const yearCell = (data: YearChartState, date: string) =>
  data.chart.months[Number(date.slice(5, 7)) - 1]?.[Number(date.slice(8, 10)) - 1];

describe('a year chart applies live events', () => {
  it('sets the cell of a result of its ghadi and year, with its correction, and leaves the page data intact', () => {
    const data = yearData();
    const next = applyYearChartEvent(data, resultEvent(5, '2025-02-03', '54', gali(), true));
    expect(yearCell(next, '2025-02-03')).toEqual({ Result: '54', Corrected: true });
    expect(yearCell(next, '2025-11-21')).toEqual({ Result: '07', Corrected: false });
    expect(next.chart.years).toEqual([2023, 2025]);
    expect(next.removed).toBe(false);
    // The data it was given is not changed: React compares by object.
    expect(yearCell(data, '2025-02-03')).toBeNull();
  });

  it('clears a cell whose result is no longer public, and takes the year off the list when it is emptied', () => {
    const once = applyYearChartEvent(yearData(), resultEvent(5, '2025-02-03', '54', gali()));
    const cleared = applyYearChartEvent(once, resultEvent(5, '2025-02-03', null, gali()));
    expect(yearCell(cleared, '2025-02-03')).toBeNull();
    // Another result of the year is still there: the year stays listed.
    expect(cleared.chart.years).toEqual([2023, 2025]);

    const emptied = applyYearChartEvent(cleared, resultEvent(5, '2025-11-21', null, gali()));
    expect(yearCell(emptied, '2025-11-21')).toBeNull();
    expect(emptied.chart.years).toEqual([2023]);
  });

  it('lists the year of a result of another year, in order, without touching the cells', () => {
    const data = yearData();
    const next = applyYearChartEvent(data, resultEvent(5, '2024-02-03', '11', gali()));
    expect(next.chart.years).toEqual([2023, 2024, 2025]);
    expect(next.chart.months).toBe(data.chart.months);
    // A removed result of another year: the page cannot tell whether the year still has others.
    const removedElsewhere = applyYearChartEvent(data, resultEvent(5, '2023-02-03', null, gali()));
    expect(removedElsewhere.chart.years).toEqual([2023, 2025]);
  });

  it('takes the name a result event carries (a rename it missed)', () => {
    const next = applyYearChartEvent(
      yearData(),
      resultEvent(5, '2025-02-03', '54', gali({ NameEn: 'Gali Night', NameHn: 'गली नाइट' })),
    );
    expect(next.chart).toMatchObject({ NameEn: 'Gali Night', NameHn: 'गली नाइट' });
  });

  it('ignores results and ghadi events of other ghadis, contents and resyncs', () => {
    const data = yearData();
    expect(applyYearChartEvent(data, resultEvent(6, '2025-02-03', '54', ghadiRecord(6)))).toBe(data);
    expect(applyYearChartEvent(data, { kind: 'ghadi', gid: 6, ghadi: null })).toBe(data);
    expect(applyYearChartEvent(data, { kind: 'content', slug: 'blog', block: null })).toBe(data);
    expect(applyYearChartEvent(data, { kind: 'resync' })).toBe(data);
  });

  it('keeps the chart shown but marks it removed when its ghadi is deleted or no longer active', () => {
    const data = yearData();
    const deleted = applyYearChartEvent(data, { kind: 'ghadi', gid: 5, ghadi: null });
    expect(deleted.removed).toBe(true);
    expect(deleted.chart).toBe(data.chart);
    // Once marked, another such event changes nothing.
    expect(applyYearChartEvent(deleted, { kind: 'ghadi', gid: 5, ghadi: null })).toBe(deleted);
    expect(applyYearChartEvent(deleted, resultEvent(5, '2025-02-03', null, null))).toBe(deleted);

    const viaResult = applyYearChartEvent(data, resultEvent(5, '2025-02-03', '54', null));
    expect(viaResult.removed).toBe(true);
    expect(yearCell(viaResult, '2025-02-03')).toBeNull();

    const inactive = applyYearChartEvent(data, { kind: 'ghadi', gid: 5, ghadi: gali({ isActive: false }) });
    expect(inactive.removed).toBe(true);

    // Listed again (made active): the chart is live again.
    const back = applyYearChartEvent(inactive, { kind: 'ghadi', gid: 5, ghadi: gali() });
    expect(back.removed).toBe(false);
    const backByResult = applyYearChartEvent(inactive, resultEvent(5, '2025-02-03', '54', gali()));
    expect(backByResult.removed).toBe(false);
  });

  it('renames on a ghadi event of its ghadi, and ignores one that changes neither name', () => {
    const data = yearData();
    const renamed = applyYearChartEvent(data, {
      kind: 'ghadi',
      gid: 5,
      ghadi: gali({ NameEn: 'Gali Night', NameHn: 'गली नाइट' }),
    });
    expect(renamed.chart).toMatchObject({ NameEn: 'Gali Night', NameHn: 'गली नाइट', year: 2025 });
    expect(renamed.chart.months).toBe(data.chart.months);
    // Only its time or order changed: nothing the chart shows.
    expect(applyYearChartEvent(data, { kind: 'ghadi', gid: 5, ghadi: gali({ RTime: '1:00 AM' }) })).toBe(
      data,
    );
  });

  it('moves today on a new day, and ignores a day it is already on', () => {
    const data = yearData();
    const day: LiveEvent = {
      kind: 'day',
      today: '2025-11-23',
      recordMonth: '2025-11',
      ghadis: [],
      record: null,
    };
    expect(applyYearChartEvent(data, day).today).toBe('2025-11-23');
    expect(applyYearChartEvent(data, { ...day, today: '2025-11-22' })).toBe(data);
  });
});

function monthData(): MonthChartState {
  const days = Array.from({ length: 31 }, () => [null, null] as ChartCell[]);
  (days[0] as ChartCell[])[1] = { Result: '33', Corrected: false };
  return {
    page: 'month-chart',
    version: 3,
    siteName: 'Site',
    today: '2026-11-22',
    timeZone: 'Asia/Kolkata',
    previousMonth: '2026-10',
    nextMonth: null,
    chart: {
      month: '2026-11',
      ghadis: [
        { GID: 4, NameEn: 'Disawer', NameHn: 'दिसावर' },
        { GID: 5, NameEn: 'Gali', NameHn: 'गली' },
      ],
      days,
    },
  };
}

const disawer = (overrides: Partial<GhadiRecord> = {}) =>
  ghadiRecord(4, { NameEn: 'Disawer', NameHn: 'दिसावर', OrderId: 1, ...overrides });

describe('a monthly chart applies live events', () => {
  it('sets and clears the cell of a column’s result of its month', () => {
    const data = monthData();
    const set = applyMonthChartEvent(data, resultEvent(4, '2026-11-20', '81', disawer(), true));
    expect(set.chart.days[19]).toEqual([{ Result: '81', Corrected: true }, null]);
    expect(set.chart.days[0]).toEqual([null, { Result: '33', Corrected: false }]);
    expect(set.chart.ghadis).toBe(data.chart.ghadis);
    expect(data.chart.days[19]).toEqual([null, null]);

    const cleared = applyMonthChartEvent(set, resultEvent(5, '2026-11-01', null, gali()));
    expect(cleared.chart.days[0]).toEqual([null, null]);
  });

  it('ignores a column’s result of another month unless it carries a new name', () => {
    const data = monthData();
    expect(applyMonthChartEvent(data, resultEvent(4, '2026-10-20', '81', disawer()))).toBe(data);
    const renamed = applyMonthChartEvent(
      data,
      resultEvent(4, '2026-10-20', '81', disawer({ NameEn: 'Desawar', NameHn: 'देसावर' })),
    );
    expect(renamed.chart.ghadis[0]).toEqual({ GID: 4, NameEn: 'Desawar', NameHn: 'देसावर' });
    expect(renamed.chart.days).toBe(data.chart.days);
    expect(renamed.stale).toBeUndefined();
  });

  it('drops the column and its cells of a ghadi deleted or made inactive, and ignores others’', () => {
    const data = monthData();
    for (const event of [
      { kind: 'ghadi', gid: 5, ghadi: null },
      { kind: 'ghadi', gid: 5, ghadi: gali({ isActive: false }) },
      resultEvent(5, '2026-11-02', '12', null),
    ] satisfies LiveEvent[]) {
      const next = applyMonthChartEvent(data, event);
      expect(next.chart.ghadis).toEqual([{ GID: 4, NameEn: 'Disawer', NameHn: 'दिसावर' }]);
      expect(next.chart.days).toHaveLength(31);
      expect(next.chart.days.every((cells) => cells.length === 1 && cells[0] === null)).toBe(true);
    }
    expect(applyMonthChartEvent(data, { kind: 'ghadi', gid: 9, ghadi: null })).toBe(data);
    expect(applyMonthChartEvent(data, resultEvent(9, '2026-11-02', '12', null))).toBe(data);
    expect(
      applyMonthChartEvent(data, { kind: 'ghadi', gid: 9, ghadi: ghadiRecord(9, { isActive: false }) }),
    ).toBe(data);
  });

  it('asks for a reload when a ghadi it has no column for is listed (its month is not in the event)', () => {
    const data = monthData();
    const byResult = applyMonthChartEvent(data, resultEvent(9, '2026-11-02', '12', ghadiRecord(9)));
    expect(byResult.stale).toBe(true);
    expect(byResult.chart).toBe(data.chart);
    const byGhadi = applyMonthChartEvent(data, { kind: 'ghadi', gid: 9, ghadi: ghadiRecord(9) });
    expect(byGhadi.stale).toBe(true);
    // Already waiting for the reload: the same object, so the page does not render again.
    expect(applyMonthChartEvent(byGhadi, resultEvent(9, '2026-11-03', '13', ghadiRecord(9)))).toBe(byGhadi);
  });

  it('renames a column at once on a ghadi event, and reloads for the order it may have moved to', () => {
    const data = monthData();
    const edited = applyMonthChartEvent(data, { kind: 'ghadi', gid: 5, ghadi: gali({ NameHn: 'गली रात' }) });
    expect(edited.chart.ghadis[1]).toEqual({ GID: 5, NameEn: 'Gali', NameHn: 'गली रात' });
    expect(edited.stale).toBe(true);
    const unchangedName = applyMonthChartEvent(data, { kind: 'ghadi', gid: 5, ghadi: gali({ OrderId: 0 }) });
    expect(unchangedName.stale).toBe(true);
    expect(unchangedName.chart).toBe(data.chart);
  });

  it('moves today on a new day, and ignores days it is on, contents and resyncs', () => {
    const data = monthData();
    const day: LiveEvent = {
      kind: 'day',
      today: '2026-11-23',
      recordMonth: '2026-11',
      ghadis: [],
      record: null,
    };
    expect(applyMonthChartEvent(data, day).today).toBe('2026-11-23');
    expect(applyMonthChartEvent(data, { ...day, today: '2026-11-22' })).toBe(data);
    expect(applyMonthChartEvent(data, { kind: 'content', slug: 'blog', block: null })).toBe(data);
    expect(applyMonthChartEvent(data, { kind: 'resync' })).toBe(data);
  });
});

describe('the charts reload from their public answers', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function answering(data: unknown) {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ success: true, data }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  it('reads a year chart by the ghadi’s folded, encoded name', async () => {
    const current = yearData();
    current.chart = { ...current.chart, NameEn: 'Gali Night' };
    const fresh = { ...yearData().chart, years: [2025] };
    const fetch = answering(fresh);
    const loaded = await reloadYearChart(current);
    expect(fetch).toHaveBeenCalledWith('/api/charts/gali%20night/2025', expect.anything());
    expect(loaded.data.chart).toEqual(fresh);
    expect(loaded.data.siteName).toBe('Site');
  });

  it('keeps a removed ghadi’s chart without asking (its answer is a 404 now)', async () => {
    const fetch = answering(null);
    const current = { ...yearData(), removed: true };
    expect((await reloadYearChart(current)).data).toBe(current);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('reads a monthly chart and clears the reload it was asked for', async () => {
    const fresh = { month: '2026-11', ghadis: [], days: Array.from({ length: 31 }, () => []) };
    const fetch = answering(fresh);
    const loaded = await reloadMonthChart({ ...monthData(), stale: true });
    expect(fetch).toHaveBeenCalledWith('/api/charts/month/2026-11', expect.anything());
    expect(loaded.data.chart).toEqual(fresh);
    expect(loaded.data.stale).toBe(false);
  });
});
