import { describe, expect, it } from 'vitest';
import { HOME_KEY, keysDroppedBy, periodOpen, SITE_KEY, TODAY_KEY } from './answer-keys.js';

const TODAY = '2026-11-28';
/** Ghadi 7 has results this year already; ghadi 8 none. */
const PERIODS = { years: new Map([[7, [2023, 2026]]]), months: ['2026-11'] };

describe('the keys a change drops', () => {
  it('a result drops its ghadi’s day, month, year and list, every ghadi’s month and day, the board and the log', () => {
    expect(
      keysDroppedBy({ kind: 'result', gid: 7, date: '2026-11-28', created: true }, TODAY, PERIODS).sort(),
    ).toEqual(
      [
        'day-2026-11-28',
        'home',
        'log',
        'month-2026-11',
        'month-7-2026-11',
        'results-7',
        'year-7-2026',
      ].sort(),
    );
  });

  it('a new result before this month may open a period; a correction or this month’s result does not', () => {
    const back = keysDroppedBy({ kind: 'result', gid: 7, date: '2023-02-01', created: true }, TODAY);
    expect(back).toContain('periods');
    expect(back).toContain('year-7-2023');
    expect(
      keysDroppedBy({ kind: 'result', gid: 7, date: '2023-02-01', created: false }, TODAY),
    ).not.toContain('periods');
    expect(
      keysDroppedBy({ kind: 'result', gid: 7, date: '2026-11-01', created: true }, TODAY, PERIODS),
    ).not.toContain('periods');
    // A ghadi's first result of the year adds the year to its charts' links; unread periods count as lacking it.
    expect(
      keysDroppedBy({ kind: 'result', gid: 8, date: '2026-11-01', created: true }, TODAY, PERIODS),
    ).toContain('periods');
    expect(keysDroppedBy({ kind: 'result', gid: 7, date: '2026-11-01', created: true }, TODAY)).toContain(
      'periods',
    );
    // Rows written before `created` existed are taken as new.
    expect(keysDroppedBy({ kind: 'result', gid: 7, date: '2023-02-01' }, TODAY)).toContain('periods');
  });

  it('a ghadi’s own fields drop its answers and the board; a change of what every page lists, the site', () => {
    expect(keysDroppedBy({ kind: 'ghadi', gid: 3, listed: false }, TODAY)).toEqual(['ghadi-3', HOME_KEY]);
    expect(keysDroppedBy({ kind: 'ghadi', gid: 3, listed: true }, TODAY)).toEqual([SITE_KEY]);
    expect(keysDroppedBy({ kind: 'ghadi', gid: 3 }, TODAY)).toEqual([SITE_KEY]);
  });

  it('a content block drops its slug; an import drops everything', () => {
    expect(keysDroppedBy({ kind: 'content', slug: 'blog' }, TODAY)).toEqual(['content-blog']);
    expect(keysDroppedBy({ kind: 'results-imported', count: 500 }, TODAY)).toEqual([SITE_KEY]);
  });

  it('a new site day drops what shows today; a new month, the site; UTC midnight alone, the record chart on its 1st', () => {
    const day = (today: string, utcDate: string, previous?: string) =>
      keysDroppedBy({ kind: 'day', today, utcDate, ...(previous ? { previous } : {}) }, today);
    expect(day('2026-11-28', '2026-11-27', '2026-11-27')).toEqual([TODAY_KEY]);
    expect(day('2026-12-01', '2026-11-30', '2026-11-30')).toEqual([SITE_KEY]);
    expect(day('2026-11-28', '2026-11-28', '2026-11-28')).toEqual([]);
    expect(day('2026-12-01', '2026-12-01', '2026-12-01')).toEqual([HOME_KEY]);
    expect(day('2026-11-28', '2026-11-28')).toEqual([SITE_KEY]);
  });

  it('a period is open while it holds today or yesterday', () => {
    expect(periodOpen('2026-11-31', TODAY)).toBe(true);
    expect(periodOpen('2026-10-31', '2026-11-01')).toBe(true);
    expect(periodOpen('2026-10-31', '2026-11-02')).toBe(false);
    expect(periodOpen('2025-12-31', TODAY)).toBe(false);
  });
});
