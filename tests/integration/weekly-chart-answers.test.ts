import { beforeAll, describe, expect, it } from 'vitest';
import type { WeekCell } from '../../src/shared/schemas/charts.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createGhadi,
  expectStatus,
  type Failure,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
import { addHoliday, createMarket, removeHoliday, type WeeklyAnswer } from '../support/weekly-markets.js';

/*
 * GET /api/charts/{name}/{year}/weeks. 2025 starts on a Wednesday: its first week runs from Monday
 * 30 December 2024. The open/close market runs Monday to Saturday.
 */
const MON_SAT = [1, 2, 3, 4, 5, 6];

const whole = (date: string, Open: string, Jodi: string, Close: string, Corrected = false) => ({
  Date: date,
  Result: `${Open}-${Jodi}-${Close}`,
  Open,
  Jodi,
  Close,
  Corrected,
});

describe.each(DIALECTS)('weekly chart answers [%s]', (dialect) => {
  const t = useTestApp(dialect, { env: { PUBLIC_QUERIES_PER_MINUTE: '100000' } });
  let token: string;
  let market: GhadiRecord;
  let starline: GhadiRecord;
  let jodi: GhadiRecord;
  const nameOf = (ghadi: GhadiRecord) => encodeURIComponent(ghadi.NameEn.toLowerCase());
  const weeksPath = (ghadi: GhadiRecord, year: number | string) =>
    `/api/charts/${nameOf(ghadi)}/${year}/weeks`;
  const declare = (ghadi: GhadiRecord, dateTime: string, result: string) =>
    submitResult(t.app, token, { ghadiId: ghadi.GID, result, dateTime });
  const weeks = async (ghadi: GhadiRecord, year: number) =>
    expectStatus<WeeklyAnswer>(await call(t.app, { url: weeksPath(ghadi, year) }), 200).data;

  beforeAll(async () => {
    token = await loginAdmin(t.app);
    market = await createMarket(t.app, token, {
      Kind: 'open-close',
      Days: MON_SAT,
      NameEn: unique('Kalyan '),
    });
    starline = await createMarket(t.app, token, { Kind: 'panna', NameEn: unique('Starline ') });
    jodi = await createGhadi(t.app, token, { NameEn: unique('Jodi Only ') });
    await declare(market, '2024-12-31', '128-17-340');
    await declare(market, '2025-01-01', '123-68-459');
    // An open half: its open panna alone.
    await declare(market, '2025-01-02', '128');
    // A whole day corrected by an admin: marked.
    await declare(market, '2025-01-03', '123-68-459');
    await declare(market, '2025-01-03', '145-02-200');
    // An open half, then its close: completed, not corrected.
    await declare(market, '2025-01-04', '137');
    await declare(market, '2025-01-04', '246');
    // Sunday is not one of its days: an admin may declare it, the chart has no column for it.
    await declare(market, '2025-01-05', '119-11-777');
    await addHoliday(t.app, token, '2025-01-07', market.GID);
    await addHoliday(t.app, token, '2025-01-08', null);
    // A holiday on which an admin declared a result anyway: the result shows.
    await addHoliday(t.app, token, '2025-01-09', market.GID);
    await declare(market, '2025-01-09', '111-39-333');
    await declare(starline, '2025-03-03', '128');
    await declare(starline, '2025-03-09', '550-0');
    await declare(jodi, '2025-03-03', '45');
  });

  it('gives an open/close market’s weeks cell by cell, Monday first, across the year’s start', async () => {
    const chart = await weeks(market, 2025);
    expect(chart).toMatchObject({
      GID: market.GID,
      NameEn: market.NameEn,
      NameHn: market.NameHn,
      Kind: 'open-close',
      year: 2025,
      years: [2024, 2025],
      days: MON_SAT,
    });
    expect(chart.weeks.map(({ from, to }) => [from, to])).toEqual([
      ['2024-12-30', '2025-01-05'],
      ['2025-01-06', '2025-01-12'],
    ]);
    const cellsOf = (index: number): WeekCell[] => chart.weeks[index]?.cells ?? [];
    expect(cellsOf(0)).toEqual([
      // Monday 30 and Tuesday 31 December are 2024's (31 December has a result there): null here.
      null,
      null,
      whole('2025-01-01', '123', '68', '459'),
      { Date: '2025-01-02', Result: '128-1', Open: '128', Jodi: '1', Close: null, Corrected: false },
      whole('2025-01-03', '145', '02', '200', true),
      whole('2025-01-04', '137', '12', '246'),
    ]);
    expect(cellsOf(1)).toEqual([
      null,
      { Date: '2025-01-07', Holiday: true },
      { Date: '2025-01-08', Holiday: true },
      whole('2025-01-09', '111', '39', '333'),
      null,
      null,
    ]);
    // The Sunday result is in no cell.
    expect(JSON.stringify(chart)).not.toContain('119-11-777');

    // 2024's chart ends with the same week: the 2025 dates are null there.
    const before = await weeks(market, 2024);
    expect(before.weeks).toEqual([
      {
        from: '2024-12-30',
        to: '2025-01-05',
        cells: [null, whole('2024-12-31', '128', '17', '340'), null, null, null, null],
      },
    ]);
  });

  it('gives a starline ghadi’s panna and ank, every day of the week, from every ghadi’s holiday on', async () => {
    const chart = await weeks(starline, 2025);
    expect(chart).toMatchObject({ Kind: 'panna', days: [1, 2, 3, 4, 5, 6, 0], years: [2025] });
    // From the week of every ghadi's holiday (Wednesday 8 January) to the week of its last result.
    expect(chart.weeks).toHaveLength(9);
    expect(chart.weeks[0]).toEqual({
      from: '2025-01-06',
      to: '2025-01-12',
      cells: [null, null, { Date: '2025-01-08', Holiday: true }, null, null, null, null],
    });
    expect(
      chart.weeks
        .slice(1, 8)
        .flatMap((week) => week.cells)
        .every((cell) => cell === null),
    ).toBe(true);
    expect(chart.weeks.at(-1)).toEqual({
      from: '2025-03-03',
      to: '2025-03-09',
      cells: [
        { Date: '2025-03-03', Result: '128-1', Open: '128', Jodi: '1', Close: null, Corrected: false },
        null,
        null,
        null,
        null,
        null,
        { Date: '2025-03-09', Result: '550-0', Open: '550', Jodi: '0', Close: null, Corrected: false },
      ],
    });
  });

  it('is kept under the ghadi and year, with what it shows as its keys', async () => {
    const first = await call(t.app, { url: weeksPath(market, 2025) });
    const respelled = await call(t.app, {
      url: `/api/charts/${encodeURIComponent(market.NameEn.toUpperCase())}/2025/weeks`,
    });
    expect(first.headers.etag).toBeDefined();
    expect(respelled.headers.etag).toBe(first.headers.etag);
    expect(String(first.headers['surrogate-key']).split(' ')).toEqual(
      expect.arrayContaining([`ghadi-${market.GID}`, `year-${market.GID}-2025`, 'holidays', 'periods']),
    );
  });

  it('answers 404 for a jodi ghadi, a year without results and an unknown name, never kept; 400 for a malformed year', async () => {
    const year = Number(today().slice(0, 4));
    for (const path of [
      weeksPath(jodi, 2025),
      weeksPath(starline, 2024),
      weeksPath(market, 2010),
      // The current year has a year chart whatever it holds; a weekly chart only once it has results.
      weeksPath(market, year),
      weeksPath(market, year + 1),
      `/api/charts/${unique('nobody')}/2025/weeks`,
    ]) {
      const answer = await call(t.app, { url: path });
      expect([path, answer.statusCode]).toEqual([path, 404]);
      expect(expectStatus<Failure>(answer, 404).success).toBe(false);
      expect([path, answer.headers.etag]).toEqual([path, undefined]);
    }
    expect(expectStatus<Failure>(await call(t.app, { url: weeksPath(jodi, 2025) }), 404).message).toMatch(
      /jodi ghadi/,
    );
    expect((await call(t.app, { url: weeksPath(market, '20x5') })).statusCode).toBe(400);
  });

  it('the current year has its chart from its first result on, the cached 404 notwithstanding', async () => {
    const year = Number(today().slice(0, 4));
    expect((await call(t.app, { url: weeksPath(starline, year) })).statusCode).toBe(404);
    await declare(starline, today(), '359');
    const chart = await weeks(starline, year);
    const cells = chart.weeks.flatMap((week) => week.cells);
    expect(cells.filter((cell) => cell !== null)).toEqual([
      { Date: today(), Result: '359-7', Open: '359', Jodi: '7', Close: null, Corrected: false },
    ]);
  });

  it('a declaration and a holiday drop the answer; another ghadi’s stays kept', async () => {
    const read = (ghadi: GhadiRecord) => call(t.app, { url: weeksPath(ghadi, 2025) });
    const other = (await read(starline)).headers.etag;
    const before = await read(market);

    // The close step of the open half of 2 January.
    await declare(market, '2025-01-02', '459');
    const closed = await read(market);
    expect(closed.headers.etag).not.toBe(before.headers.etag);
    expect(closed.json<WeeklyAnswer>().data.weeks[0]?.cells[3]).toEqual(
      whole('2025-01-02', '128', '18', '459'),
    );

    // A holiday of its own on Monday 6 January, then removed.
    const holiday = await addHoliday(t.app, token, '2025-01-06', market.GID);
    const marked = await read(market);
    expect(marked.headers.etag).not.toBe(closed.headers.etag);
    expect(marked.json<WeeklyAnswer>().data.weeks[1]?.cells[0]).toEqual({
      Date: '2025-01-06',
      Holiday: true,
    });
    await removeHoliday(t.app, token, holiday);
    const unmarked = await read(market);
    expect(unmarked.json<WeeklyAnswer>().data.weeks[1]?.cells[0]).toBeNull();
    expect(unmarked.headers.etag).toBe(closed.headers.etag);
    expect((await read(starline)).headers.etag).toBe(other);

    // A holiday of every ghadi reaches every chart.
    const everyone = await addHoliday(t.app, token, '2025-03-04', null);
    const starlineAfter = await read(starline);
    expect(starlineAfter.json<WeeklyAnswer>().data.weeks.at(-1)?.cells[1]).toEqual({
      Date: '2025-03-04',
      Holiday: true,
    });
    await removeHoliday(t.app, token, everyone);
    expect((await read(starline)).json<WeeklyAnswer>().data.weeks.at(-1)?.cells[1]).toBeNull();
  });
});
