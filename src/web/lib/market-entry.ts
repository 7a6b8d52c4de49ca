/**
 * What a typed result means on a panna or open/close ghadi, worked out as it is typed: the parts (the
 * ank, the jodi), the value the server will store, or why it cannot be sent. The reading is the
 * server's own (resolveSubmission in src/shared/matka-submissions.ts, given the day's stored value), so that the
 * form and the server never disagree.
 */
import { ankOf, completesOpenHalf, type GhadiKind, isPanna, partsOf } from '../../shared/matka.js';
import { resolveSubmission } from '../../shared/matka-submissions.js';
import { type MarketStep, marketStepOf } from '../../shared/open-close-steps.js';

export type EntryReading =
  /** Nothing typed yet, or a jodi ghadi (its value is sent as typed). */
  | { kind: 'none' }
  /** The start of a value that is not whole yet (e.g. "12", "123-6" on the way to a whole day). */
  | { kind: 'partial' }
  /** `parts` in words, and the value as stored and published. */
  | { kind: 'ok'; parts: string; value: string }
  | { kind: 'problem'; message: string };

/** Beginnings of the forms the server takes (123-68-459, 8-459) that are no form yet. */
const BEGINNING = /^(\d{0,2}|\d{3}-|\d{3}-\d\d(-\d{0,2})?|\d-\d{0,2})$/;
/** Forms that are also the beginning of a whole day: 123 and 123-6 on the way to 123-68-459. */
const HALF_ON_THE_WAY = /^(\d{3})(?:-(\d))?$/;

/**
 * Whether a refused `typed` may still become a value: the beginning of a form, or an open half whose
 * digits are right but which the day does not take alone (a complete day takes only the whole value).
 */
function onTheWay(kind: GhadiKind, typed: string): boolean {
  if (kind === 'panna' ? /^(\d{0,2}|\d{3}-)$/.test(typed) : BEGINNING.test(typed)) return true;
  const half = HALF_ON_THE_WAY.exec(typed);
  if (!half) return false;
  const panna = half[1] as string;
  return isPanna(panna) && (half[2] === undefined || Number(half[2]) === ankOf(panna));
}

/** The parts of a value as stored, in words: "Open 123 · ank 6", "Open 123 · Jodi 68 · Close 459". */
function partsText(kind: GhadiKind, value: string, current: string | null): string {
  const parts = partsOf(kind, value);
  if (!parts) return value;
  if (kind === 'panna') return `Panna ${parts.Open} · ank ${parts.Jodi}`;
  if (parts.Close === null) return `Open ${parts.Open} · ank ${parts.Jodi}`;
  // Completing the declared open half: the close is what was typed, the jodi what it makes.
  return completesOpenHalf(current, value)
    ? `Close ${parts.Close} · ank ${ankOf(parts.Close)} · Jodi ${parts.Jodi}`
    : `Open ${parts.Open} · Jodi ${parts.Jodi} · Close ${parts.Close}`;
}

/** Reads `text` as typed for a ghadi of `kind` whose day stores `current` (null: nothing yet). */
export function readEntry(kind: GhadiKind, text: string, current: string | null): EntryReading {
  const typed = text.trim();
  if (kind === 'jodi' || typed === '') return { kind: 'none' };
  const resolved = resolveSubmission(kind, typed, current);
  if (resolved.ok)
    return { kind: 'ok', value: resolved.value, parts: partsText(kind, resolved.value, current) };
  if (onTheWay(kind, typed)) return { kind: 'partial' };
  return { kind: 'problem', message: resolved.message };
}

/** What an open/close market's day waits for, as the agent's form says it. */
export function stepDueText(step: MarketStep): string {
  if (step === 'open') return 'Open panna due';
  if (step === 'close') return 'Close panna due';
  return 'Day complete — send the whole value to correct it';
}

/** The step due on a day storing `current`, in words; null for a ghadi that is not an open/close market. */
export function dueStepText(kind: GhadiKind, current: string | null): string | null {
  const step = marketStepOf(kind, current);
  return step === null ? null : stepDueText(step);
}

/** A hint for the field: the forms a value of this kind may take. */
export function entryHint(kind: GhadiKind, step: MarketStep | null): string | null {
  if (kind === 'panna') return 'A panna (128) or a panna and its ank (128-1).';
  if (kind !== 'open-close') return null;
  if (step === 'open') return 'The open panna (123), or the whole day (123-68-459).';
  if (step === 'close') return 'The close panna (459); the open panna again (123-6) corrects the open.';
  return 'The whole value (123-68-459) corrects the day.';
}
