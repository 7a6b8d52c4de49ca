/**
 * The kinds of ghadi and the rules of a matka result (docs/matka.md): what a panna is, its ank, the
 * forms a submission takes, and how a stored value splits into its parts. Shared by the server, which
 * enforces them, and the agent's form, which checks as the agent types.
 */

export const GHADI_KINDS = ['jodi', 'panna', 'open-close'] as const;
export type GhadiKind = (typeof GHADI_KINDS)[number];

/** Every weekday, 0 = Sunday … 6 = Saturday. */
export const ALL_DAYS: readonly number[] = [0, 1, 2, 3, 4, 5, 6];

/** A digit's place in the panna order, where 0 is the highest: 1 < 2 < … < 9 < 0. */
function rank(digit: string): number {
  return digit === '0' ? 10 : Number(digit);
}

/** Three digits in non-decreasing order when 0 counts as the highest digit (220 of the 1 000). */
export function isPanna(text: string): boolean {
  if (!/^\d{3}$/.test(text)) return false;
  const [a, b, c] = [...text].map(rank) as [number, number, number];
  return a <= b && b <= c;
}

/** The sum of a panna's digits mod 10. */
export function ankOf(panna: string): number {
  return [...panna].reduce((sum, digit) => sum + Number(digit), 0) % 10;
}

/** A panna with its ank, as a starline result and an open half are stored: `128-1`. */
export function withAnk(panna: string): string {
  return `${panna}-${ankOf(panna)}`;
}

/** The whole value of an open/close day: `123-68-459`. */
export function wholeValue(open: string, close: string): string {
  return `${open}-${ankOf(open)}${ankOf(close)}-${close}`;
}

/** An open half (`123-6`) and a whole day (`123-68-459`), as stored. */
export const HALF = /^(\d{3})-(\d)$/;
export const WHOLE = /^(\d{3})-(\d)(\d)-(\d{3})$/;

/** A stored value's step on an open/close ghadi: its open half, its whole day, or neither. */
export type Step = 'open' | 'close';

export function stepOf(kind: GhadiKind, value: string): Step | null {
  if (kind !== 'open-close') return null;
  if (HALF.test(value)) return 'open';
  if (WHOLE.test(value)) return 'close';
  return null;
}

/** A stored value's parts, as the weekly charts show them; null for a jodi ghadi or a value of no form. */
export interface ResultParts {
  Open: string;
  /** The jodi, or the open ank of an open half, or a starline panna's ank. */
  Jodi: string;
  Close: string | null;
}

export function partsOf(kind: GhadiKind, value: string): ResultParts | null {
  if (kind === 'jodi') return null;
  const half = HALF.exec(value);
  if (half) return { Open: half[1] as string, Jodi: half[2] as string, Close: null };
  if (kind !== 'open-close') return null;
  const whole = WHOLE.exec(value);
  return whole
    ? { Open: whole[1] as string, Jodi: `${whole[2]}${whole[3]}`, Close: whole[4] as string }
    : null;
}

/**
 * Whether `value` completes the open half `previous` (the same open panna, now with its close): the
 * close step, which is not a correction.
 */
export function completesOpenHalf(previous: string | null, value: string): boolean {
  return previous !== null && HALF.test(previous) && WHOLE.test(value) && value.startsWith(`${previous}`);
}

/** The weekday of a calendar date (YYYY-MM-DD), 0 = Sunday. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** Whether a ghadi running on `days` runs on `date`. */
export function runsOn(days: readonly number[], date: string): boolean {
  return days.includes(weekdayOf(date));
}

/** The weekdays as a bit set (bit d = weekday d), as the database keeps them: 127 is every day. */
export function daysToMask(days: readonly number[]): number {
  return days.reduce((mask, day) => mask | (1 << day), 0);
}

export function maskToDays(mask: number): number[] {
  return ALL_DAYS.filter((day) => (mask & (1 << day)) !== 0);
}

/** Running weekdays in the weekly charts' order, Monday first. */
export function mondayFirst(days: readonly number[]): number[] {
  return [1, 2, 3, 4, 5, 6, 0].filter((day) => days.includes(day));
}
