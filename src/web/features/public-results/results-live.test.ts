import { describe, expect, it } from 'vitest';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { ghadiRecord, resultRecord } from '../../test/records.js';
import { applyResultsEvent, type MonthData } from './results-live.js';

const GALI = { NameEn: 'Gali', NameHn: 'गली', RTime: '11:15 PM', OrderId: 6 };
const row = (overrides: Partial<GhadiRecord> = {}) => ghadiRecord(5, { ...GALI, ...overrides });
const result = (date: string, value: string) => resultRecord(5, date, value, { Name: 'Gali' });

const month = (): MonthData => ({
  name: 'gali',
  today: '2026-11-23',
  ghadi: {
    GID: 5,
    NameEn: 'Gali',
    NameHn: 'गली',
    RTime: '11:15 PM',
    Kind: 'jodi',
    OpenTime: null,
    Days: [0, 1, 2, 3, 4, 5, 6],
  },
  month: 11,
  year: 2026,
  results: null,
});

describe('a ghadi’s page applies live events', () => {
  it('fills, corrects and clears a day of the month shown', () => {
    const filled = applyResultsEvent(month(), {
      kind: 'result',
      gid: 5,
      date: '2026-11-23',
      ghadi: row(),
      result: result('2026-11-23', '12'),
      declaration: null,
    });
    expect(filled.results?.map((r) => r.Result)).toEqual(['12']);
    const second = applyResultsEvent(filled, {
      kind: 'result',
      gid: 5,
      date: '2026-11-21',
      ghadi: row(),
      result: result('2026-11-21', '08'),
      declaration: null,
    });
    expect(second.results?.map((r) => r.Date)).toEqual(['2026-11-23', '2026-11-21']);
    const corrected = applyResultsEvent(second, {
      kind: 'result',
      gid: 5,
      date: '2026-11-23',
      ghadi: row(),
      result: result('2026-11-23', '13'),
      declaration: null,
    });
    expect(corrected.results?.map((r) => r.Result)).toEqual(['13', '08']);
  });

  it('a correction replaces the day with the corrected record: its mark, earlier value and time', () => {
    const first = applyResultsEvent(month(), {
      kind: 'result',
      gid: 5,
      date: '2026-11-23',
      ghadi: row(),
      result: result('2026-11-23', '45'),
      declaration: null,
    });
    expect(first.results?.[0]).toMatchObject({ Result: '45', Corrected: false, Previous: null });
    const declaredAt = '2026-11-23T10:15:00.000Z';
    const corrected = applyResultsEvent(first, {
      kind: 'result',
      gid: 5,
      date: '2026-11-23',
      ghadi: row({ TodayResult: '54', Corrected: true, Previous: '45', DeclaredAt: declaredAt }),
      result: resultRecord(5, '2026-11-23', '54', {
        Name: 'Gali',
        Corrected: true,
        Previous: '45',
        DeclaredAt: declaredAt,
      }),
      declaration: null,
    });
    expect(corrected.results).toEqual([
      expect.objectContaining({ Result: '54', Corrected: true, Previous: '45', DeclaredAt: declaredAt }),
    ]);
  });

  it('ignores other ghadis and other months, and follows a rename and the new day', () => {
    const data = month();
    expect(
      applyResultsEvent(data, {
        kind: 'result',
        gid: 6,
        date: '2026-11-23',
        ghadi: null,
        result: null,
        declaration: null,
      }),
    ).toBe(data);
    const otherMonth = applyResultsEvent(data, {
      kind: 'result',
      gid: 5,
      date: '2026-10-02',
      ghadi: row({ RTime: '11:30 PM' }),
      result: result('2026-10-02', '1'),
      declaration: null,
    });
    expect(otherMonth.results).toBeNull();
    expect(otherMonth.ghadi?.RTime).toBe('11:30 PM');
    expect(
      applyResultsEvent(data, {
        kind: 'day',
        today: '2026-11-24',
        recordMonth: '2026-11',
        ghadis: [],
        record: null,
      }).today,
    ).toBe('2026-11-24');
  });

  it('a deleted ghadi shows no data; a ghadi created under the page’s name appears', () => {
    expect(applyResultsEvent(month(), { kind: 'ghadi', gid: 5, ghadi: null })).toMatchObject({
      ghadi: null,
      results: null,
    });
    const unknown: MonthData = { ...month(), name: 'new one', ghadi: null };
    const created = applyResultsEvent(unknown, {
      kind: 'ghadi',
      gid: 9,
      ghadi: row({ GID: 9, NameEn: 'New One' }),
    });
    expect(created.ghadi?.GID).toBe(9);
  });
});
