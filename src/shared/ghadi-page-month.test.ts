import { describe, expect, it } from 'vitest';
import { chosenMonth, yearChoices } from './ghadi-page-month.js';

const TODAY = '2026-11-23';

describe('the month a results page shows', () => {
  it('is the query’s for any year a year chart links to: 2000 to this year', () => {
    expect(chosenMonth(TODAY, '3', '2010')).toEqual({ month: 3, year: 2010 });
    expect(chosenMonth(TODAY, 1, 2000)).toEqual({ month: 1, year: 2000 });
    expect(chosenMonth(TODAY, '12', '2026')).toEqual({ month: 12, year: 2026 });
  });

  it('falls back to the current month for a query nothing links to', () => {
    for (const [month, year] of [
      ['1', '1999'],
      ['1', '2027'],
      ['13', '2025'],
      ['0', '2025'],
      ['1.5', '2025'],
      ['1', '2025.5'],
      [undefined, '2025'],
      ['1', undefined],
      ['x', 'y'],
    ]) {
      expect(chosenMonth(TODAY, month, year), `${month}/${year}`).toEqual({ month: 11, year: 2026 });
    }
  });
});

describe('the year selector', () => {
  it('offers this year and the four before, and the year shown when it is older', () => {
    expect(yearChoices(TODAY)).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect(yearChoices(TODAY, 2024)).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect(yearChoices(TODAY, 2010)).toEqual([2026, 2025, 2024, 2023, 2022, 2010]);
  });
});
