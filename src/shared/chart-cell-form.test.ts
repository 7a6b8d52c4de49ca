import { describe, expect, it } from 'vitest';
import { cellFormOf, cellLabelOf, chartKindOf } from './chart-cell-form.js';
import { monthChartOf, yearChartOf } from './chart-grids.js';

describe('cellFormOf', () => {
  it('keeps a jodi ghadi’s value (and a chart without a kind) as it is', () => {
    expect(cellFormOf('jodi', '45')).toEqual({ shown: '45', whole: null });
    expect(cellFormOf(undefined, '45')).toEqual({ shown: '45', whole: null });
  });

  it('shows an open/close day’s jodi, or its open ank and a dash, with the whole value beside', () => {
    expect(cellFormOf('open-close', '123-68-459')).toEqual({ shown: '68', whole: '123-68-459' });
    expect(cellFormOf('open-close', '123-6')).toEqual({ shown: '6-', whole: '123-6' });
    // Kept from before the ghadi changed kind: as it is.
    expect(cellFormOf('open-close', '45')).toEqual({ shown: '45', whole: null });
  });

  it('shows a starline result whole: five characters fit a cell', () => {
    expect(cellFormOf('panna', '128-1')).toEqual({ shown: '128-1', whole: null });
  });

  it('names a cell by the whole value and its correction', () => {
    expect(cellLabelOf('123-68-459', null)).toBe('123-68-459');
    expect(cellLabelOf('123-68-459', 'corrected, was 123-6')).toBe('123-68-459 (corrected, was 123-6)');
  });
});

/** What a public result has besides what a chart cell is made of. */
const publicFields = (date: string) => ({
  _id: `7-${date}`,
  id: `7-${date}`,
  Name: 'Kalyan',
  DateTime: `${date}T00:00:00.000Z`,
  isActive: true,
  Previous: null,
  DeclaredAt: `${date}T12:00:00.000Z`,
});

describe('the charts carry the kind of every ghadi but a jodi one', () => {
  const ghadi = { GID: 7, NameEn: 'Kalyan', NameHn: 'कल्याण' };
  const results = [
    { GID: 7, Date: '2026-11-21', Result: '123-68-459', Corrected: false },
    { GID: 7, Date: '2026-11-23', Result: '123-6', Corrected: false },
  ];

  it('a year chart', () => {
    const chart = yearChartOf({ ...ghadi, Kind: 'open-close' }, 2026, results, [2026]);
    expect(chart.Kind).toBe('open-close');
    expect(chart.months[10]?.[20]).toEqual({ Result: '123-68-459', Corrected: false });
    expect(chart.months[10]?.[22]).toEqual({ Result: '123-6', Corrected: false });
    expect('Kind' in yearChartOf({ ...ghadi, Kind: 'jodi' }, 2026, [], [])).toBe(false);
    expect('Kind' in yearChartOf(ghadi, 2026, [], [])).toBe(false);
  });

  it('a month chart’s columns', () => {
    const chart = monthChartOf(
      '2026-11',
      [
        { ...ghadi, Kind: 'open-close' },
        { GID: 8, NameEn: 'Star', NameHn: 'स्टार', Kind: 'panna' },
        { GID: 9, NameEn: 'Gali', NameHn: 'गली', Kind: 'jodi' },
      ],
      results.map((result) => ({ ...result, ...publicFields(result.Date) })),
    );
    expect(chart.ghadis).toEqual([
      { ...ghadi, Kind: 'open-close' },
      { GID: 8, NameEn: 'Star', NameHn: 'स्टार', Kind: 'panna' },
      { GID: 9, NameEn: 'Gali', NameHn: 'गली' },
    ]);
    expect(chart.days[20]?.[0]).toEqual({ Result: '123-68-459', Corrected: false });
    expect(chartKindOf('jodi')).toEqual({});
  });
});
