import { describe, expect, it } from 'vitest';
import { addDays } from './dates.js';
import {
  dueAtOf,
  ghadiState,
  instantInZone,
  instantsOnDate,
  nextStateChangeAt,
  parseResultTime,
  type WallTime,
} from './ghadi-due.js';

describe('parseResultTime', () => {
  it('reads h:mm AM/PM, with 12 AM as midnight and 12 PM as noon', () => {
    expect(parseResultTime('1:45 PM')).toEqual({ hour: 13, minute: 45 });
    expect(parseResultTime('01:45pm')).toEqual({ hour: 13, minute: 45 });
    expect(parseResultTime(' 4:00 am ')).toEqual({ hour: 4, minute: 0 });
    expect(parseResultTime('11:15 p.m.')).toEqual({ hour: 23, minute: 15 });
    expect(parseResultTime('12:00 AM')).toEqual({ hour: 0, minute: 0 });
    expect(parseResultTime('12:30 AM')).toEqual({ hour: 0, minute: 30 });
    expect(parseResultTime('12:00 PM')).toEqual({ hour: 12, minute: 0 });
    expect(parseResultTime('12:59 PM')).toEqual({ hour: 12, minute: 59 });
  });

  it('reads HH:mm', () => {
    expect(parseResultTime('00:00')).toEqual({ hour: 0, minute: 0 });
    expect(parseResultTime('9:05')).toEqual({ hour: 9, minute: 5 });
    expect(parseResultTime('13:45')).toEqual({ hour: 13, minute: 45 });
    expect(parseResultTime('23:59')).toEqual({ hour: 23, minute: 59 });
  });

  it('reads nothing else', () => {
    for (const garbage of [
      '',
      'Evening',
      'noon',
      '24:00',
      '25:00',
      '12:60',
      '1:5 PM',
      '0:30 AM',
      '13:00 PM',
      '1:45 XM',
      '1.45 PM',
      '145 PM',
      '1:45:00',
      '१:४५ PM',
    ]) {
      expect([garbage, parseResultTime(garbage)]).toEqual([garbage, null]);
    }
  });
});

describe('dueAtOf', () => {
  it('places the time on the date in the zone', () => {
    expect(dueAtOf('1:45 PM', '2026-11-26', 'Asia/Kolkata')).toBe('2026-11-26T08:15:00.000Z');
    expect(dueAtOf('12:00 AM', '2026-11-26', 'Asia/Kolkata')).toBe('2026-11-25T18:30:00.000Z');
    expect(dueAtOf('12:00 PM', '2026-11-26', 'Asia/Kolkata')).toBe('2026-11-26T06:30:00.000Z');
    expect(dueAtOf('23:59', '2026-11-26', 'Asia/Kathmandu')).toBe('2026-11-26T18:14:00.000Z');
    expect(dueAtOf('6:00 PM', '2026-07-01', 'America/New_York')).toBe('2026-07-01T22:00:00.000Z');
    expect(dueAtOf('6:00 PM', '2026-12-01', 'America/New_York')).toBe('2026-12-01T23:00:00.000Z');
    expect(dueAtOf('10:00', '2026-06-01', 'UTC')).toBe('2026-06-01T10:00:00.000Z');
  });

  it('is null for a time it cannot read', () => {
    expect(dueAtOf('Evening', '2026-11-26', 'Asia/Kolkata')).toBeNull();
  });

  it('follows the spring change: a skipped time lands after the gap', () => {
    // New York, 2026-03-08: at 2:00 EST the clocks go to 3:00 EDT.
    expect(dueAtOf('1:30 AM', '2026-03-08', 'America/New_York')).toBe('2026-03-08T06:30:00.000Z');
    expect(dueAtOf('2:30 AM', '2026-03-08', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(dueAtOf('3:30 AM', '2026-03-08', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(dueAtOf('12:00 AM', '2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
    expect(dueAtOf('6:00 PM', '2026-03-08', 'America/New_York')).toBe('2026-03-08T22:00:00.000Z');
  });

  it('follows the autumn change: a repeated time is its first occurrence', () => {
    // New York, 2026-11-01: at 2:00 EDT the clocks go back to 1:00 EST.
    expect(dueAtOf('12:30 AM', '2026-11-01', 'America/New_York')).toBe('2026-11-01T04:30:00.000Z');
    expect(dueAtOf('1:30 AM', '2026-11-01', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(dueAtOf('2:30 AM', '2026-11-01', 'America/New_York')).toBe('2026-11-01T07:30:00.000Z');
    expect(dueAtOf('11:59 PM', '2026-11-01', 'America/New_York')).toBe('2026-11-02T04:59:00.000Z');
  });

  it('follows a half-hour change (Lord Howe Island)', () => {
    // 2026-04-05: at 2:00 (UTC+11) the clocks go back to 1:30 (UTC+10:30).
    expect(dueAtOf('1:45 AM', '2026-04-05', 'Australia/Lord_Howe')).toBe('2026-04-04T14:45:00.000Z');
    expect(dueAtOf('2:15 AM', '2026-04-05', 'Australia/Lord_Howe')).toBe('2026-04-04T15:45:00.000Z');
  });
});

describe('instantsOnDate', () => {
  it('reads every time of every day as instantInZone does, clock changes included', () => {
    const times: Array<WallTime | null> = [
      null,
      ...[0, 1, 2, 3, 4, 12, 22, 23].flatMap((hour) =>
        [0, 15, 30, 45, 59].map((minute) => ({ hour, minute })),
      ),
    ];
    // Zones that change at 2:00 or 3:00, at midnight (Santiago), by half an hour (Lord Howe), and none.
    for (const timeZone of [
      'Asia/Kolkata',
      'America/New_York',
      'Europe/London',
      'America/Santiago',
      'Australia/Lord_Howe',
      'UTC',
    ]) {
      for (let date = '2026-01-01'; date <= '2026-12-31'; date = addDays(date, 1)) {
        const expected = times.map((time) => (time ? instantInZone(date, time, timeZone) : null));
        expect([timeZone, date, instantsOnDate(date, times, timeZone)]).toEqual([timeZone, date, expected]);
      }
    }
  });
});

describe('ghadiState', () => {
  const dueAt = '2026-11-26T08:15:00.000Z';
  const due = Date.parse(dueAt);
  const state = (now: number, result: { corrected: boolean } | null = null, at: string | null = dueAt) =>
    ghadiState({ dueAt: at, result, now, overdueAfterMinutes: 15 });

  it('waits before dueAt, is due from it for the allowance, then overdue', () => {
    expect(state(due - 1)).toBe('waiting');
    expect(state(due)).toBe('due');
    expect(state(due + 15 * 60_000 - 1)).toBe('due');
    expect(state(due + 15 * 60_000)).toBe('overdue');
    expect(state(due + 10 * 60 * 60_000)).toBe('overdue');
  });

  it('is declared or corrected once the result exists, whatever the time', () => {
    expect(state(due - 60_000, { corrected: false })).toBe('declared');
    expect(state(due + 60 * 60_000, { corrected: false })).toBe('declared');
    expect(state(due + 60 * 60_000, { corrected: true })).toBe('corrected');
    expect(state(due, { corrected: false }, null)).toBe('declared');
  });

  it('waits without a dueAt until declared', () => {
    expect(state(due + 24 * 60 * 60_000, null, null)).toBe('waiting');
  });

  it('honours another allowance', () => {
    expect(ghadiState({ dueAt, result: null, now: due + 20 * 60_000, overdueAfterMinutes: 30 })).toBe('due');
    expect(ghadiState({ dueAt, result: null, now: due, overdueAfterMinutes: 0 })).toBe('overdue');
  });
});

describe('nextStateChangeAt', () => {
  const dueAt = '2026-11-26T08:15:00.000Z';
  const due = Date.parse(dueAt);

  it('is dueAt while waiting, the overdue instant while due, then nothing', () => {
    expect(nextStateChangeAt(dueAt, 15, due - 1)).toBe(due);
    expect(nextStateChangeAt(dueAt, 15, due)).toBe(due + 15 * 60_000);
    expect(nextStateChangeAt(dueAt, 15, due + 15 * 60_000)).toBeNull();
    expect(nextStateChangeAt(null, 15, due)).toBeNull();
  });
});
