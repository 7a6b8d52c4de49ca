import { beforeAll, describe, expect, it } from 'vitest';
import type { MonthChart, YearChart } from '../../src/shared/schemas/charts.js';
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

interface Answer<T> {
  success: true;
  data: T;
}

describe.each(DIALECTS)('chart answers [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let token: string;
  let ghadi: GhadiRecord;
  let name: string;
  const year = Number(today().slice(0, 4));
  const lastYear = year - 1;
  const thisMonth = today().slice(0, 7);
  const thisMonthDay = (day: number) => `${thisMonth}-${String(day).padStart(2, '0')}`;

  beforeAll(async () => {
    token = await loginAdmin(t.app);
    ghadi = await createGhadi(t.app, token, { NameEn: unique('Chart'), OrderId: 1 });
    name = ghadi.NameEn.toLowerCase();
    const declare = (dateTime: string, result: string) =>
      submitResult(t.app, token, { ghadiId: ghadi.GID, result, dateTime });
    await declare(`${lastYear}-02-28`, '28');
    await declare(`${lastYear}-12-31`, '31');
    await declare(thisMonthDay(1), '11');
    // Corrected: the second value replaces the first and keeps the mark.
    await declare(thisMonthDay(1), '12');
  });

  const yearChart = async (path: string) =>
    expectStatus<Answer<YearChart>>(await call(t.app, { url: `/api/charts/${path}` }), 200).data;

  it("gives a ghadi's year as 12 months of 31 days, with the years it has results in", async () => {
    const chart = await yearChart(`${encodeURIComponent(name)}/${lastYear}`);
    expect(chart).toMatchObject({
      GID: ghadi.GID,
      NameEn: ghadi.NameEn,
      NameHn: ghadi.NameHn,
      year: lastYear,
    });
    expect(chart.years).toEqual([lastYear, year]);
    expect(chart.months).toHaveLength(12);
    for (const month of chart.months) expect(month).toHaveLength(31);
    expect(chart.months[1]?.[27]).toEqual({ Result: '28', Corrected: false });
    expect(chart.months[11]?.[30]).toEqual({ Result: '31', Corrected: false });
    // Days a month lacks, and dates with no result, are null.
    expect(chart.months[1]?.[29]).toBeNull();
    expect(chart.months[0]?.[0]).toBeNull();
    const filled = chart.months.flat().filter((cell) => cell !== null);
    expect(filled).toHaveLength(2);

    const current = await yearChart(`${encodeURIComponent(ghadi.NameEn.toUpperCase())}/${year}`);
    const monthIndex = Number(thisMonth.slice(5, 7)) - 1;
    expect(current.months[monthIndex]?.[0]).toEqual({ Result: '12', Corrected: true });
  });

  it("gives every live ghadi's month, one column per ghadi by OrderId", async () => {
    const answer = await call(t.app, { url: `/api/charts/month/${thisMonth}` });
    const chart = expectStatus<Answer<MonthChart>>(answer, 200).data;
    expect(chart.month).toBe(thisMonth);
    expect(chart.days).toHaveLength(31);
    const column = chart.ghadis.findIndex((each) => each.GID === ghadi.GID);
    expect(column).toBeGreaterThanOrEqual(0);
    expect(chart.ghadis[column]).toEqual({ GID: ghadi.GID, NameEn: ghadi.NameEn, NameHn: ghadi.NameHn });
    for (const day of chart.days) expect(day).toHaveLength(chart.ghadis.length);
    expect(chart.days[0]?.[column]).toEqual({ Result: '12', Corrected: true });
    expect(chart.days[1]?.[column]).toBeNull();
  });

  it('follows a new result at once', async () => {
    const before = await yearChart(`${encodeURIComponent(name)}/${lastYear}`);
    expect(before.months[5]?.[14]).toBeNull();
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '15', dateTime: `${lastYear}-06-15` });
    const after = await yearChart(`${encodeURIComponent(name)}/${lastYear}`);
    expect(after.months[5]?.[14]).toEqual({ Result: '15', Corrected: false });
  });

  it('answers 404 for a year without the ghadi’s results or a month without any, but the current ones', async () => {
    for (const path of [`${encodeURIComponent(name)}/2001`, 'month/2001-02']) {
      const answer = await call(t.app, { url: `/api/charts/${path}` });
      expect([path, answer.statusCode]).toEqual([path, 404]);
    }
    expect((await call(t.app, { url: `/api/charts/${encodeURIComponent(name)}/${year}` })).statusCode).toBe(
      200,
    );
    expect((await call(t.app, { url: `/api/charts/month/${thisMonth}` })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown ghadi or a year or month out of range, 400 for a malformed one', async () => {
    const nextMonth = new Date(Date.UTC(year, Number(thisMonth.slice(5, 7)), 1)).toISOString().slice(0, 7);
    for (const path of [
      `${unique('nobody')}/${year}`,
      `${encodeURIComponent(name)}/1999`,
      `${encodeURIComponent(name)}/${year + 1}`,
      'month/1999-12',
      `month/${nextMonth}`,
    ]) {
      const answer = await call(t.app, { url: `/api/charts/${path}` });
      expect(expectStatus<Failure>(answer, 404)).toMatchObject({
        success: false,
        message: expect.any(String),
      });
    }
    for (const path of [
      `${encodeURIComponent(name)}/20255`,
      `${encodeURIComponent(name)}/abcd`,
      'month/2025-13',
    ]) {
      expect(expectStatus<Failure>(await call(t.app, { url: `/api/charts/${path}` }), 400).success).toBe(
        false,
      );
    }
  });
});
