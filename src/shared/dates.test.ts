import { describe, expect, it } from 'vitest';
import {
  addDays,
  businessDateOf,
  businessDateToIso,
  dateInZone,
  isCalendarDate,
  timeInZone,
  todayInZone,
  yesterdayInZone,
} from './dates.js';

const KOLKATA = 'Asia/Kolkata';
const at = (iso: string) => new Date(iso);

describe('todayInZone / yesterdayInZone', () => {
  it('turns to the next day at 18:30 UTC in Asia/Kolkata (UTC+5:30)', () => {
    expect(todayInZone(KOLKATA, at('2026-11-21T18:29:59Z'))).toBe('2026-11-21');
    expect(todayInZone(KOLKATA, at('2026-11-21T18:29:59.999Z'))).toBe('2026-11-21');
    expect(todayInZone(KOLKATA, at('2026-11-21T18:30:00Z'))).toBe('2026-11-22');
    expect(yesterdayInZone(KOLKATA, at('2026-11-21T18:29:59Z'))).toBe('2026-11-20');
    expect(yesterdayInZone(KOLKATA, at('2026-11-21T18:30:00Z'))).toBe('2026-11-21');
  });

  it('differs from UTC in the small hours', () => {
    const instant = at('2026-11-21T20:00:00Z');
    expect(todayInZone('UTC', instant)).toBe('2026-11-21');
    expect(todayInZone(KOLKATA, instant)).toBe('2026-11-22');
    expect(todayInZone('America/New_York', instant)).toBe('2026-11-21');
  });

  it('crosses month and year boundaries', () => {
    expect(todayInZone(KOLKATA, at('2026-11-30T18:30:00Z'))).toBe('2026-12-01');
    expect(yesterdayInZone(KOLKATA, at('2026-11-30T18:30:00Z'))).toBe('2026-11-30');
    expect(todayInZone(KOLKATA, at('2026-12-31T18:29:59Z'))).toBe('2026-12-31');
    expect(todayInZone(KOLKATA, at('2026-12-31T18:30:00Z'))).toBe('2027-01-01');
    expect(yesterdayInZone(KOLKATA, at('2026-12-31T18:30:00Z'))).toBe('2026-12-31');
    expect(yesterdayInZone(KOLKATA, at('2027-01-01T10:00:00Z'))).toBe('2026-12-31');
    expect(yesterdayInZone(KOLKATA, at('2027-03-01T10:00:00Z'))).toBe('2027-02-28');
    expect(yesterdayInZone(KOLKATA, at('2028-03-01T10:00:00Z'))).toBe('2028-02-29');
  });

  it('defaults to now', () => {
    expect(todayInZone(KOLKATA)).toBe(dateInZone(new Date(), KOLKATA));
    expect(yesterdayInZone(KOLKATA)).toBe(addDays(todayInZone(KOLKATA), -1));
  });
});

describe('addDays', () => {
  it('adds and subtracts across months, years and leap days', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2026-11-22', 0)).toBe('2026-11-22');
    expect(addDays('2026-11-22', -365)).toBe('2025-11-22');
  });
});

describe('isCalendarDate', () => {
  it('accepts real dates only', () => {
    expect(isCalendarDate('2026-11-22')).toBe(true);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    for (const value of [
      '2026-02-30',
      '2027-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-11-31',
      '2026-11-00',
    ]) {
      expect({ value, ok: isCalendarDate(value) }).toEqual({ value, ok: false });
    }
    for (const value of [
      'garbage',
      '',
      '2026-11-2',
      '26-11-22',
      '2026/11/22',
      ' 2026-11-22',
      '2026-11-22T00:00',
    ]) {
      expect({ value, ok: isCalendarDate(value) }).toEqual({ value, ok: false });
    }
  });
});

describe('businessDateOf', () => {
  it('takes a plain date as it is', () => {
    expect(businessDateOf('2026-11-22', KOLKATA)).toBe('2026-11-22');
    expect(businessDateOf('  2026-11-22 ', KOLKATA)).toBe('2026-11-22');
  });

  it('takes a local date-time (datetime-local) by its date, whatever the zone', () => {
    expect(businessDateOf('2026-11-22T08:26', KOLKATA)).toBe('2026-11-22');
    expect(businessDateOf('2026-11-22T23:59', KOLKATA)).toBe('2026-11-22');
    expect(businessDateOf('2026-11-22T00:00:00', 'America/New_York')).toBe('2026-11-22');
    expect(businessDateOf('2026-11-22T08:26:30.123', KOLKATA)).toBe('2026-11-22');
  });

  it('dates an ISO timestamp with a zone in the site time zone', () => {
    expect(businessDateOf('2026-11-21T20:00:00Z', KOLKATA)).toBe('2026-11-22');
    expect(businessDateOf('2026-11-21T18:29:59Z', KOLKATA)).toBe('2026-11-21');
    expect(businessDateOf('2026-11-21T18:30:00Z', KOLKATA)).toBe('2026-11-22');
    expect(businessDateOf('2026-11-21T18:30:00.000Z', KOLKATA)).toBe('2026-11-22');
    expect(businessDateOf('2026-11-22T00:30:00+05:30', KOLKATA)).toBe('2026-11-22');
    expect(businessDateOf('2026-11-22T00:30:00+0530', KOLKATA)).toBe('2026-11-22');
    expect(businessDateOf('2026-11-21T23:00:00-05:00', KOLKATA)).toBe('2026-11-22');
    expect(businessDateOf('2026-12-31T18:30:00Z', KOLKATA)).toBe('2027-01-01');
    expect(businessDateOf('2026-11-21T20:00:00Z', 'UTC')).toBe('2026-11-21');
  });

  it('refuses invalid dates and anything that is not a date', () => {
    for (const value of [
      '2026-02-30',
      '2026-02-30T10:00',
      '2026-02-30T10:00:00Z',
      '2026-13-01',
      'garbage',
      '',
      '   ',
      '22-11-2026',
      '2026/11/22',
      '2026-11-22 08:26',
      '2026-11-22T8:26',
      '2026-11-22T25:00',
      '2026-11-22T24:00',
      '2026-11-22T08:60',
      '2026-11-22T24:00:00Z',
      '2026-11-22T10:00:00+5',
      '1763769600000',
      'Sun Nov 22 2026',
      '2026-11-22T08:26Zjunk',
    ]) {
      expect({ value, date: businessDateOf(value, KOLKATA) }).toEqual({ value, date: null });
    }
  });
});

describe('businessDateToIso', () => {
  it('is the business date at UTC midnight', () => {
    expect(businessDateToIso('2026-11-22')).toBe('2026-11-22T00:00:00.000Z');
    expect(new Date(businessDateToIso('2026-11-22')).toISOString().slice(0, 10)).toBe('2026-11-22');
  });
});

describe('timeInZone', () => {
  it('is the 24-hour wall-clock time in the zone, midnight as 00', () => {
    expect(timeInZone('2026-11-22T09:02:03.123Z', KOLKATA)).toBe('14:32');
    expect(timeInZone('2026-11-21T18:30:00.000Z', KOLKATA)).toBe('00:00');
    expect(timeInZone('2026-11-22T23:59:00.000Z', 'UTC')).toBe('23:59');
    expect(timeInZone('not a time', KOLKATA)).toBe('');
  });
});
