import { describe, expect, it } from 'vitest';
import {
  ankOf,
  completesOpenHalf,
  daysToMask,
  isPanna,
  maskToDays,
  mondayFirst,
  partsOf,
  runsOn,
  stepOf,
} from './matka.js';
import { resolveSubmission } from './matka-submissions.js';

const everyThreeDigits = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

describe('isPanna', () => {
  it('accepts the issue examples and refuses its counter-examples', () => {
    for (const panna of ['120', '190', '280', '100', '550', '000', '128', '459'])
      expect(isPanna(panna), panna).toBe(true);
    for (const text of ['021', '005', '321', '12', '1234', '12a', ' 12'])
      expect(isPanna(text), text).toBe(false);
  });

  it('accepts 220 of the 1 000 three-digit strings: 120 single, 90 double, 10 triple', () => {
    const pannas = everyThreeDigits.filter(isPanna);
    const alike = (panna: string) => 4 - new Set(panna).size;
    expect(pannas).toHaveLength(220);
    expect(pannas.filter((p) => alike(p) === 1)).toHaveLength(120);
    expect(pannas.filter((p) => alike(p) === 2)).toHaveLength(90);
    expect(pannas.filter((p) => alike(p) === 3)).toHaveLength(10);
  });

  it('holds for exactly the strings whose digits rise with 0 as the highest', () => {
    const order = '1234567890';
    for (const text of everyThreeDigits) {
      const [a, b, c] = [...text].map((digit) => order.indexOf(digit));
      expect(isPanna(text), text).toBe((a as number) <= (b as number) && (b as number) <= (c as number));
    }
  });
});

describe('ankOf', () => {
  it('is the digit sum mod 10', () => {
    expect(ankOf('123')).toBe(6);
    expect(ankOf('459')).toBe(8);
    expect(ankOf('000')).toBe(0);
    expect(ankOf('999')).toBe(7);
  });
});

describe('resolveSubmission', () => {
  const ok = (value: string) => ({ ok: true, value });

  it('leaves a jodi ghadi value as sent', () => {
    expect(resolveSubmission('jodi', '45', null)).toEqual(ok('45'));
    expect(resolveSubmission('jodi', '123', '45')).toEqual(ok('123'));
  });

  it('stores a starline panna with its ank', () => {
    expect(resolveSubmission('panna', '128', null)).toEqual(ok('128-1'));
    expect(resolveSubmission('panna', '128-1', '120-3')).toEqual(ok('128-1'));
    expect(resolveSubmission('panna', '128-2', null)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/ank/),
    });
    expect(resolveSubmission('panna', '821', null)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/panna/),
    });
    expect(resolveSubmission('panna', '123-68-459', null).ok).toBe(false);
  });

  it('takes the open half, then completes it with the close panna', () => {
    expect(resolveSubmission('open-close', '123', null)).toEqual(ok('123-6'));
    expect(resolveSubmission('open-close', '123-6', null)).toEqual(ok('123-6'));
    expect(resolveSubmission('open-close', '459', '123-6')).toEqual(ok('123-68-459'));
    expect(resolveSubmission('open-close', '8-459', '123-6')).toEqual(ok('123-68-459'));
    expect(resolveSubmission('open-close', '123-68-459', '123-6')).toEqual(ok('123-68-459'));
    expect(resolveSubmission('open-close', '123-68-459', null)).toEqual(ok('123-68-459'));
  });

  it('names the wrong part', () => {
    const message = (text: string, current: string | null) => {
      const resolved = resolveSubmission('open-close', text, current);
      return resolved.ok ? '' : resolved.message;
    };
    expect(message('321', null)).toMatch(/open panna/);
    expect(message('123-5', null)).toMatch(/open ank/);
    expect(message('321', '123-6')).toMatch(/close panna/);
    expect(message('7-459', '123-6')).toMatch(/close ank/);
    expect(message('123-67-459', null)).toMatch(/jodi/);
    expect(message('123-68-451', null)).toMatch(/close panna/);
    expect(message('8-459', null)).toMatch(/open panna first/);
    expect(message('124-78-459', '123-6')).toMatch(/differs from the declared open panna 123/);
    for (const text of ['123', '123-6', '459', '8-459'])
      expect(message(text, '123-68-459'), text).toMatch(/day is complete/);
    expect(message('12-34', null)).toMatch(/Send the open panna/);
  });

  it('corrects an open half with the open form and a whole day with the whole value', () => {
    expect(resolveSubmission('open-close', '124-7', '123-6')).toEqual(ok('124-7'));
    expect(resolveSubmission('open-close', '124-78-459', '123-68-459')).toEqual(ok('124-78-459'));
  });
});

describe('steps and parts', () => {
  it('derives the step from the stored form on open/close ghadis only', () => {
    expect(stepOf('open-close', '123-6')).toBe('open');
    expect(stepOf('open-close', '123-68-459')).toBe('close');
    expect(stepOf('panna', '128-1')).toBeNull();
    expect(stepOf('jodi', '123-6')).toBeNull();
  });

  it('splits stored values', () => {
    expect(partsOf('open-close', '123-68-459')).toEqual({ Open: '123', Jodi: '68', Close: '459' });
    expect(partsOf('open-close', '123-6')).toEqual({ Open: '123', Jodi: '6', Close: null });
    expect(partsOf('panna', '128-1')).toEqual({ Open: '128', Jodi: '1', Close: null });
    expect(partsOf('jodi', '45')).toBeNull();
  });

  it('tells a completion from a correction', () => {
    expect(completesOpenHalf('123-6', '123-68-459')).toBe(true);
    expect(completesOpenHalf('124-7', '123-68-459')).toBe(false);
    expect(completesOpenHalf('123-68-450', '123-68-459')).toBe(false);
    expect(completesOpenHalf(null, '123-68-459')).toBe(false);
  });
});

describe('days', () => {
  it('round-trips the weekday set and orders it Monday first', () => {
    expect(daysToMask([0, 1, 2, 3, 4, 5, 6])).toBe(127);
    expect(maskToDays(daysToMask([1, 3, 6]))).toEqual([1, 3, 6]);
    expect(mondayFirst([0, 1, 2, 3, 4, 5, 6])).toEqual([1, 2, 3, 4, 5, 6, 0]);
  });

  it('knows which weekday a date falls on', () => {
    // 2026-11-29 is a Sunday.
    expect(runsOn([1, 2, 3, 4, 5, 6], '2026-11-29')).toBe(false);
    expect(runsOn([1, 2, 3, 4, 5, 6], '2026-11-30')).toBe(true);
  });
});
