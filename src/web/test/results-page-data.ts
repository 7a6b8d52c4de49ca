import type { ResultsPageData } from '../../shared/public-page-data.js';
import { resultRecord, TICKER } from './records.js';

/**
 * A daily jodi ghadi's results page (Gali, GID 5, November 2026, the site's today 2026-11-23): a
 * value corrected the next morning and a first declaration, unless `overrides` says otherwise.
 */
export function resultsPageData(overrides: Partial<ResultsPageData> = {}): ResultsPageData {
  return {
    page: 'results',
    version: 1,
    siteName: 'Site',
    name: 'gali',
    today: '2026-11-23',
    timeZone: 'Asia/Kolkata',
    ghadiNames: TICKER,
    month: 11,
    year: 2026,
    ghadi: {
      GID: 5,
      NameEn: 'Gali',
      NameHn: 'गली',
      RTime: '11:15 PM',
      Kind: 'jodi',
      OpenTime: null,
      Days: [0, 1, 2, 3, 4, 5, 6],
    },
    results: [
      // Corrected the next morning, 09:05 in Kolkata: still the game's own declaration.
      resultRecord(5, '2026-11-22', '54', {
        Name: 'Gali',
        Corrected: true,
        Previous: '45',
        DeclaredAt: '2026-11-23T03:35:00.000Z',
      }),
      resultRecord(5, '2026-11-21', '07', { Name: 'Gali', DeclaredAt: '2026-11-21T09:02:00.000Z' }),
    ],
    ...overrides,
  };
}
