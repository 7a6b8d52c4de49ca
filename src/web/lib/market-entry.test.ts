import { describe, expect, it } from 'vitest';
import { daysText } from './ghadi-days-text.js';
import { dueStepText, readEntry } from './market-entry.js';

describe('readEntry', () => {
  it('leaves a jodi ghadi’s value alone', () => {
    expect(readEntry('jodi', '45', null)).toEqual({ kind: 'none' });
  });

  it('reads the open half, the close half over it, and the whole day', () => {
    expect(readEntry('open-close', '123', null)).toEqual({
      kind: 'ok',
      parts: 'Open 123 · ank 6',
      value: '123-6',
    });
    expect(readEntry('open-close', '8-459', '123-6')).toEqual({
      kind: 'ok',
      parts: 'Close 459 · ank 8 · Jodi 68',
      value: '123-68-459',
    });
    expect(readEntry('open-close', '123-68-459', null)).toEqual({
      kind: 'ok',
      parts: 'Open 123 · Jodi 68 · Close 459',
      value: '123-68-459',
    });
    expect(readEntry('panna', '128', null)).toEqual({
      kind: 'ok',
      parts: 'Panna 128 · ank 1',
      value: '128-1',
    });
  });

  it('waits while a value is still being typed, and complains once it cannot become one', () => {
    for (const typed of ['1', '12', '123-', '123-68', '123-68-4', '8-', '8-45']) {
      expect([typed, readEntry('open-close', typed, null).kind]).toEqual([typed, 'partial']);
    }
    // A complete day takes the whole value only: its first digits are on the way to it.
    expect(readEntry('open-close', '123', '123-68-459').kind).toBe('partial');
    expect(readEntry('open-close', '123-6', '123-68-459').kind).toBe('partial');
    for (const typed of ['121', '123-5', '8-450', 'abc', '1234']) {
      expect([typed, readEntry('open-close', typed, '123-6').kind]).toEqual([typed, 'problem']);
    }
    expect(readEntry('panna', '128-11', null).kind).toBe('problem');
  });

  it('says what an open/close day waits for', () => {
    expect(dueStepText('open-close', null)).toBe('Open panna due');
    expect(dueStepText('open-close', '123-6')).toBe('Close panna due');
    expect(dueStepText('open-close', '123-68-459')).toBe('Day complete — send the whole value to correct it');
    expect(dueStepText('panna', null)).toBeNull();
  });
});

describe('daysText', () => {
  it('says every day, runs of days as ranges, and other days by name, Monday first', () => {
    expect(daysText([0, 1, 2, 3, 4, 5, 6])).toBe('Every day');
    expect(daysText([1, 2, 3, 4, 5, 6])).toBe('Mon–Sat');
    expect(daysText([1, 3, 5])).toBe('Mon, Wed, Fri');
    expect(daysText([0, 5, 6])).toBe('Fri–Sun');
    expect(daysText([0, 1])).toBe('Mon, Sun');
  });
});
