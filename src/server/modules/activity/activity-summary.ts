import { withoutControls } from '../../lib/plain-text.js';

/** A field's value as a summary shows it. */
export type Shown = string | number | boolean | null;

/** Long values (a content block's HTML) are cut: the summary says what changed, the record keeps it. */
const VALUE_MAX = 60;

/** A string without its control characters, quoted: JSON would otherwise spell a C0 one out. */
function shown(value: Shown): string {
  if (typeof value !== 'string') return String(value);
  const text = withoutControls(value);
  return JSON.stringify(text.length <= VALUE_MAX ? text : `${text.slice(0, VALUE_MAX - 1)}…`);
}

/** `Field: old → new` for each field whose value differs, in the order of `after`. */
export function changedFields(before: Record<string, Shown>, after: Record<string, Shown>): string[] {
  return Object.entries(after)
    .filter(([field, value]) => before[field] !== value)
    .map(([field, value]) => `${field}: ${shown(before[field] ?? null)} → ${shown(value)}`);
}

/** `Field: value` for each field: what a new record was made with. */
export function fieldValues(fields: Record<string, Shown>): string[] {
  return Object.entries(fields).map(([field, value]) => `${field}: ${shown(value)}`);
}

export function summaryOf(parts: string[]): string {
  return parts.length > 0 ? parts.join('; ') : 'nothing changed';
}
