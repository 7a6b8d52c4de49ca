import { type GhadiKind, stepOf } from '../../../shared/matka.js';
import { isCorrection, receiptOf } from '../../../shared/receipt-codes.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import type { ReceiptEntry, RelatedEntry } from '../../../shared/schemas/receipts.js';
import type { DeclarationRow } from './declarations-repository.js';

/**
 * Entries read for one receipt: the one it names and, in the rare case that later hashes begin with
 * the same 10 characters (about 0.5 % of logs of 110 000 entries have one such pair), a few of those,
 * which its page lists so that a reader can tell which one they were given.
 */
export const RECEIPT_ROWS = 4;

function related(row: DeclarationRow, kind: GhadiKind): RelatedEntry {
  const Step = stepOf(kind, row.value);
  return {
    seq: row.seq,
    Receipt: receiptOf(row.hash),
    Result: row.value,
    DeclaredAt: row.declared_at,
    Step,
    Corrected: isCorrection({ Result: row.value, Previous: row.previous, Step }),
  };
}

/**
 * What a receipt answers: the entry it names, whether a later entry of its ghadi and date replaced
 * its value (the next one, which corrected it or completed its open half, and the latest, whose value
 * is the one published), and the later entries that share its receipt.
 */
export function receiptEntryOf(
  entry: DeclarationEntry,
  kind: GhadiKind,
  newer: readonly DeclarationRow[],
  shared: readonly DeclarationEntry[],
): ReceiptEntry {
  const next = newer[0];
  const latest = newer.at(-1);
  return {
    ...entry,
    Receipt: receiptOf(entry.hash),
    Corrected: isCorrection(entry),
    Latest: latest === undefined,
    Next: next ? related(next, kind) : null,
    Current: latest ? related(latest, kind) : null,
    Shared: shared.map((other) => ({
      seq: other.seq,
      Name: other.Name,
      Date: other.Date,
      Result: other.Result,
      hash: other.hash,
    })),
  };
}
