import { type GhadiKind, stepOf } from '../../../shared/matka.js';
import { isCorrection } from '../../../shared/receipt-codes.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import type { ReceiptEntry, RelatedEntry, SharedReceiptEntry } from '../../../shared/schemas/receipts.js';
import type { DeclarationRow } from './declarations-repository.js';

/**
 * Entries read for one receipt: the one it names, or, when a 10-character receipt begins several
 * hashes (about 0.5 % of logs of 110 000 entries have one such pair), up to this many of them, which
 * the 409 and the page list so that a reader can tell which one they were given.
 */
export const RECEIPT_ROWS = 20;

/** What a receipt names: one entry, several (a prefix they share), or none (null). */
export type ReceiptLookup =
  | { kind: 'entry'; entry: ReceiptEntry }
  | { kind: 'shared'; entries: SharedReceiptEntry[] };

/** Receipts of hashes, each the shortest unique prefix (read from the hash index). */
export type ReceiptsOf = (hashes: readonly string[]) => Promise<Map<string, string>>;

function related(row: DeclarationRow, kind: GhadiKind, receipts: Map<string, string>): RelatedEntry {
  const Step = stepOf(kind, row.value);
  return {
    seq: row.seq,
    Receipt: receipts.get(row.hash) ?? row.hash,
    Result: row.value,
    DeclaredAt: row.declared_at,
    Step,
    Corrected: isCorrection({ Result: row.value, Previous: row.previous, Step }),
  };
}

/**
 * What a receipt answers: the entry it names, whether a later entry of its ghadi and date replaced
 * its value (the next one, which corrected it or completed its open half, and the latest, whose value
 * is the one published), each named by its own receipt.
 */
export async function receiptEntryOf(
  entry: DeclarationEntry,
  kind: GhadiKind,
  newer: readonly DeclarationRow[],
  receiptsOf: ReceiptsOf,
): Promise<ReceiptEntry> {
  const next = newer[0];
  const latest = newer.at(-1);
  const receipts = await receiptsOf([
    entry.hash,
    ...[next, latest].flatMap((row) => (row ? [row.hash] : [])),
  ]);
  return {
    ...entry,
    Receipt: receipts.get(entry.hash) ?? entry.hash,
    Corrected: isCorrection(entry),
    Latest: latest === undefined,
    Next: next ? related(next, kind, receipts) : null,
    Current: latest ? related(latest, kind, receipts) : null,
  };
}
