import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { Language } from '../../../shared/page-language.js';
import type { ResultsPageData } from '../../../shared/public-page-data.js';
import { ghadiRecord, resultRecord, TICKER } from '../../test/records.js';
import { renderThenHydrate } from '../../test/render.js';
import { PublicResultsView } from './public-results-view.js';
import { applyResultsEvent } from './results-live.js';

/** Monday 23 November 2026; the Sundays of the month are the 1st, 8th, 15th, 22nd and 29th. */
const TODAY = '2026-11-23';
const MONDAY_TO_SATURDAY = [1, 2, 3, 4, 5, 6];

/** An open/close market that does not run on Sundays. */
const kalyan = {
  GID: 7,
  NameEn: 'Kalyan',
  NameHn: 'कल्याण',
  RTime: '5:45 PM',
  Kind: 'open-close' as const,
  OpenTime: '3:45 PM',
  Days: MONDAY_TO_SATURDAY,
};

const result = (date: string, value: string, declaredAt: string) =>
  resultRecord(7, date, value, { Name: 'Kalyan', DeclaredAt: declaredAt });

const data = (overrides: Partial<ResultsPageData> = {}): ResultsPageData => ({
  page: 'results',
  version: 1,
  siteName: 'Site',
  name: 'kalyan',
  today: TODAY,
  timeZone: 'Asia/Kolkata',
  ghadiNames: TICKER,
  month: 11,
  year: 2026,
  ghadi: kalyan,
  results: [
    result('2026-11-21', '123-68-459', '2026-11-21T12:17:00.000Z'),
    result('2026-11-20', '190-0', '2026-11-20T10:16:00.000Z'),
  ],
  ...overrides,
});

const serve = (page: ResultsPageData, language: Language = 'en') =>
  renderThenHydrate(<PublicResultsView initial={page} language={language} />);

const row = (day: number) => within(screen.getByRole('table')).getAllByRole('row')[day] as HTMLElement;
const cells = (day: number) => [...row(day).querySelectorAll('td')].map((cell) => cell.textContent);

describe('an open/close market’s month', () => {
  it('names its open and close times, and shows each day in its stored form', async () => {
    await serve(data());
    expect(screen.getByText('Open 3:45 PM · Close 5:45 PM', { exact: false })).toBeInTheDocument();
    expect(screen.queryByText(/Result time/)).toBeNull();
    expect(cells(21)).toEqual(['123-68-459', '17:47']);
    // A day whose close never came keeps its open half.
    expect(cells(20)).toEqual(['190-0', '15:46']);
  });

  it('waits for the open time today, and marks the Sundays it does not run as closed', async () => {
    await serve(data());
    expect(cells(23)).toEqual(['Waiting', 'due 3:45 PM']);
    for (const sunday of [1, 8, 15, 22]) {
      expect([sunday, cells(sunday)]).toEqual([sunday, ['Closed', '']]);
      expect(within(row(sunday)).getByTestId('closed')).toHaveClass('n');
    }
    // A weekday it runs without a value is still "No result"; a Sunday to come is blank.
    expect(cells(19)).toEqual(['–', '']);
    expect(row(19).querySelector('td')).toHaveAttribute('aria-label', 'No result');
    expect(cells(29)).toEqual(['', '']);
  });

  it('shows today’s open half, then the whole day, as they come live', async () => {
    const opened = applyResultsEvent(data(), {
      kind: 'result',
      gid: 7,
      date: TODAY,
      ghadi: ghadiRecord(7, { ...kalyan, TodayResult: '123-6' }),
      result: result(TODAY, '123-6', '2026-11-23T10:17:00.000Z'),
      declaration: null,
    } satisfies LiveEvent);
    expect(opened.ghadi).toEqual(kalyan);
    const { unmount } = await serve({ ...data(), ...opened });
    expect(cells(23)).toEqual(['123-6', '15:47']);
    unmount();

    const closed = applyResultsEvent(opened, {
      kind: 'result',
      gid: 7,
      date: TODAY,
      ghadi: ghadiRecord(7, { ...kalyan, TodayResult: '123-68-459' }),
      result: result(TODAY, '123-68-459', '2026-11-23T12:16:00.000Z'),
      declaration: null,
    });
    await serve({ ...data(), ...closed });
    expect(cells(23)).toEqual(['123-68-459', '17:46']);
    expect(within(row(23)).queryByTestId('correction-mark')).toBeNull();
  });

  it('says it in Hindi', async () => {
    await serve(data(), 'hi');
    expect(screen.getByText('ओपन 3:45 PM · क्लोज़ 5:45 PM', { exact: false })).toBeInTheDocument();
    expect(cells(21)).toEqual(['123-68-459', '17:47']);
    expect(cells(23)).toEqual(['इंतज़ार में', 'समय 3:45 PM']);
    expect(cells(22)).toEqual(['बंद', '']);
  });
});

describe('a starline (panna) ghadi’s month', () => {
  it('shows its panna and ank, and its result time', async () => {
    await serve(
      data({
        name: 'star',
        ghadi: {
          ...kalyan,
          NameEn: 'Star',
          Kind: 'panna',
          OpenTime: null,
          RTime: '1:00 PM',
          Days: [0, 1, 2, 3, 4, 5, 6],
        },
        results: [resultRecord(7, '2026-11-22', '128-1', { DeclaredAt: '2026-11-22T07:31:00.000Z' })],
      }),
    );
    expect(screen.getByText('Result time 1:00 PM', { exact: false })).toBeInTheDocument();
    expect(cells(22)).toEqual(['128-1', '13:01']);
    expect(cells(23)).toEqual(['Waiting', 'due 1:00 PM']);
    expect(screen.queryByTestId('closed')).toBeNull();
  });
});
