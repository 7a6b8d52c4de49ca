import { describe, expect, it } from 'vitest';
import { awaitedDueAt, awaitedOf, awaitedTimeOf, boardStateOf, marketStepOf } from './open-close-steps.js';

const MINUTE = 60_000;
const OPEN = '2026-12-10T10:15:00.000Z';
const CLOSE = '2026-12-10T12:15:00.000Z';
const base = { dueAt: CLOSE, openDueAt: OPEN, closed: null, overdueAfterMinutes: 15 } as const;

describe('marketStepOf', () => {
  it('reads the step an open/close day waits for from its stored value', () => {
    expect(marketStepOf('open-close', null)).toBe('open');
    expect(marketStepOf('open-close', '123-6')).toBe('close');
    expect(marketStepOf('open-close', '123-68-459')).toBe('complete');
    // A value of no market form (declared before the ghadi became a market) is replaced by the open.
    expect(marketStepOf('open-close', '45')).toBe('open');
    expect(marketStepOf('jodi', null)).toBeNull();
    expect(marketStepOf('panna', '128-1')).toBeNull();
  });
});

describe('boardStateOf', () => {
  const at = (iso: string, minutes: number) => Date.parse(iso) + minutes * MINUTE;

  it('times a market’s open by its open time and its close by the result time', () => {
    const open = { ...base, step: 'open' as const, result: null };
    expect(boardStateOf({ ...open, now: at(OPEN, -1) })).toBe('waiting');
    expect(boardStateOf({ ...open, now: at(OPEN, 0) })).toBe('due');
    expect(boardStateOf({ ...open, now: at(OPEN, 15) })).toBe('overdue');
    const close = { ...base, step: 'close' as const, result: { corrected: false } };
    expect(boardStateOf({ ...close, now: at(OPEN, 15) })).toBe('waiting');
    expect(boardStateOf({ ...close, now: at(CLOSE, 0) })).toBe('due');
    expect(boardStateOf({ ...close, now: at(CLOSE, 15) })).toBe('overdue');
    const whole = { ...base, step: 'complete' as const, now: at(CLOSE, 60) };
    expect(boardStateOf({ ...whole, result: { corrected: false } })).toBe('declared');
    expect(boardStateOf({ ...whole, result: { corrected: true } })).toBe('corrected');
  });

  it('keeps a closed ghadi waiting, never due, unless its value is in', () => {
    const now = at(CLOSE, 60);
    expect(boardStateOf({ ...base, closed: 'holiday', step: null, result: null, now })).toBe('waiting');
    expect(boardStateOf({ ...base, closed: 'off-day', step: 'open', result: null, now })).toBe('waiting');
    expect(boardStateOf({ ...base, closed: 'holiday', step: null, result: { corrected: false }, now })).toBe(
      'declared',
    );
    expect(
      awaitedDueAt({ ...base, closed: 'holiday', step: 'close', result: { corrected: false } }),
    ).toBeNull();
  });

  it('reads a jodi ghadi as before: due at its result time until its value is in', () => {
    const jodi = { ...base, openDueAt: null, step: null };
    expect(boardStateOf({ ...jodi, result: null, now: at(CLOSE, 1) })).toBe('due');
    expect(boardStateOf({ ...jodi, result: { corrected: false }, now: at(CLOSE, 1) })).toBe('declared');
    expect(awaitedDueAt({ ...jodi, result: null })).toBe(CLOSE);
  });
});

describe('awaitedOf and awaitedTimeOf', () => {
  const market = { Kind: 'open-close' as const, OpenTime: '11:45 AM', RTime: '5:45 PM' };

  it('a jodi or panna ghadi waits for its one result at RTime', () => {
    for (const Kind of ['jodi', 'panna'] as const) {
      expect(awaitedOf(Kind, '')).toBe('result');
      expect(awaitedTimeOf({ Kind, OpenTime: null, RTime: '1:45 PM' }, '')).toBe('1:45 PM');
    }
    expect(awaitedOf('jodi', '45')).toBeNull();
    expect(awaitedOf('panna', '128-1')).toBeNull();
    expect(awaitedTimeOf({ Kind: 'panna', OpenTime: null, RTime: '1:45 PM' }, '128-1')).toBeNull();
  });

  it('an open/close market waits for its open at OpenTime, then for its close at RTime', () => {
    expect(awaitedOf('open-close', '')).toBe('open');
    expect(awaitedTimeOf(market, '')).toBe('11:45 AM');
    expect(awaitedOf('open-close', '123-6')).toBe('close');
    expect(awaitedTimeOf(market, '123-6')).toBe('5:45 PM');
    expect(awaitedOf('open-close', '123-68-459')).toBeNull();
    expect(awaitedTimeOf(market, '123-68-459')).toBeNull();
    // A value of no open/close form (declared before the ghadi became a market) is read as the server
    // reads it: the open panna is awaited, and replaces it.
    expect(awaitedOf('open-close', '45')).toBe('open');
  });
});
