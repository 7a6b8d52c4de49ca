/**
 * What a submission on a panna or open/close ghadi stores (docs/api.md, "Kinds of ghadi"): resolved
 * against the day's stored value, with a message naming the wrong part. The server enforces it; the
 * agent's and admin's forms run it as they type. Apart from matka.ts so that the public pages, which
 * only read stored values, do not download it.
 */
import { ankOf, type GhadiKind, HALF, isPanna, WHOLE, wholeValue, withAnk } from './matka.js';

/** A submission as the server stores it, or the reason it cannot be. */
export type Resolved = { ok: true; value: string } | { ok: false; message: string };

const fail = (message: string): Resolved => ({ ok: false, message });

function checkPanna(panna: string, part: string): string | null {
  return isPanna(panna)
    ? null
    : `${panna} is not a valid ${part}: its digits must rise in the order 1 2 3 4 5 6 7 8 9 0 (e.g. 128, 190, 550)`;
}

function checkAnk(panna: string, ank: string, part: string): string | null {
  const expected = String(ankOf(panna));
  return ank === expected ? null : `The ${part} of ${panna} is ${expected}, not ${ank}`;
}

function resolvePanna(text: string): Resolved {
  const match = /^(\d{3})(?:-(\d))?$/.exec(text);
  if (!match) return fail('Send a panna (128) or a panna and its ank (128-1)');
  const panna = match[1] as string;
  const problem =
    checkPanna(panna, 'panna') ?? (match[2] === undefined ? null : checkAnk(panna, match[2], 'ank'));
  return problem ? fail(problem) : { ok: true, value: withAnk(panna) };
}

const DAY_COMPLETE = 'The day is complete; send the whole value (e.g. 123-68-459) to correct it';

/**
 * An open/close submission against the day's stored value (`current`, null when there is none). The
 * forms: `OOO` or `OOO-J` (the open half; a bare three digits is the close panna once an open half
 * is stored), `OOO-JJ-CCC` (the whole day), and `CCC` or `C-CCC` (the close half) over an open half.
 */
function resolveOpenClose(text: string, current: string | null): Resolved {
  const stored = current === null ? null : HALF.test(current) ? 'open' : WHOLE.test(current) ? 'whole' : null;
  const open = stored === 'open' ? (HALF.exec(current as string)?.[1] as string) : null;
  const bare = /^(\d{3})$/.exec(text);
  const half = HALF.exec(text);
  const closeHalf = /^(\d)-(\d{3})$/.exec(text);
  const whole = WHOLE.exec(text);

  if (bare && open === null) {
    if (stored === 'whole') return fail(DAY_COMPLETE);
    const problem = checkPanna(text, 'open panna');
    return problem ? fail(problem) : { ok: true, value: withAnk(text) };
  }
  if (half) {
    if (stored === 'whole') return fail(DAY_COMPLETE);
    const [, panna, ank] = half as unknown as [string, string, string];
    const problem = checkPanna(panna, 'open panna') ?? checkAnk(panna, ank, 'open ank');
    return problem ? fail(problem) : { ok: true, value: withAnk(panna) };
  }
  if (bare || closeHalf) {
    if (stored === 'whole') return fail(DAY_COMPLETE);
    if (open === null) return fail('Declare the open panna first: the close panna completes it');
    const panna = bare ? (bare[1] as string) : (closeHalf?.[2] as string);
    const problem =
      checkPanna(panna, 'close panna') ??
      (closeHalf ? checkAnk(panna, closeHalf[1] as string, 'close ank') : null);
    return problem ? fail(problem) : { ok: true, value: wholeValue(open, panna) };
  }
  if (whole) {
    const [, openPanna, openAnk, closeAnk, closePanna] = whole as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    const problem =
      checkPanna(openPanna, 'open panna') ??
      checkPanna(closePanna, 'close panna') ??
      (ankOf(openPanna) === Number(openAnk) && ankOf(closePanna) === Number(closeAnk)
        ? null
        : `The jodi of ${openPanna} and ${closePanna} is ${ankOf(openPanna)}${ankOf(closePanna)}, not ${openAnk}${closeAnk}`);
    if (problem) return fail(problem);
    if (open !== null && open !== openPanna) {
      return fail(
        `The open panna ${openPanna} differs from the declared open panna ${open}; send the open panna alone (e.g. ${openPanna}-${ankOf(openPanna)}) to correct it`,
      );
    }
    return { ok: true, value: text };
  }
  return fail(
    'Send the open panna (123 or 123-6), the close panna once the open is declared (459 or 8-459), or the whole value (123-68-459)',
  );
}

/** The value a submission stores on a ghadi of `kind`, given the day's stored value. */
export function resolveSubmission(kind: GhadiKind, text: string, current: string | null): Resolved {
  if (kind === 'jodi') return { ok: true, value: text };
  const trimmed = text.trim();
  return kind === 'panna' ? resolvePanna(trimmed) : resolveOpenClose(trimmed, current);
}
