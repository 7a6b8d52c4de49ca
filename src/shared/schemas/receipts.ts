import { z } from 'zod';
import { RECEIPT_PATTERN } from '../receipt-codes.js';
import { declarationEntry } from './declarations.js';

/** GET /api/declarations/receipt/{receipt}: 10 hex characters, in either case. */
export const receiptParams = z.object({
  receipt: z
    .string()
    .regex(RECEIPT_PATTERN, 'Must be a receipt: 10 to 64 hexadecimal characters')
    .describe(
      'The start (at least 10 characters) of a log entry’s hash that no other entry shares (upper case is read as lower case)',
    ),
});

/** Another entry of the same ghadi and date, named by its receipt. */
const relatedEntry = z.object({
  seq: z.number().int().min(1),
  Receipt: z.string(),
  Result: z.string(),
  DeclaredAt: z.string(),
  Step: z.enum(['open', 'close']).nullable(),
  Corrected: z.boolean().describe('It replaced the value before it as a correction'),
});
export type RelatedEntry = z.infer<typeof relatedEntry>;

/**
 * A log entry as GET /api/declarations shows it, with what its receipt page says of it. `Previous` is
 * the value it replaced: as a correction (`Corrected`), or, on an open/close market, the open half a
 * close step (`Step: "close"`) completed, which is no correction.
 */
export const receiptEntry = declarationEntry.extend({
  Receipt: z
    .string()
    .describe('The shortest start of hash, at least 10 characters, that no other entry’s hash shares'),
  Corrected: z
    .boolean()
    .describe('It replaced Previous as a correction (a close step completing its open half is not one)'),
  Latest: z
    .boolean()
    .describe('No later entry exists for this ghadi and date: its value is the one published'),
  Next: relatedEntry
    .nullable()
    .describe(
      'The entry that replaced this value (the next one of this ghadi and date), or null when Latest',
    ),
  Current: relatedEntry
    .nullable()
    .describe('The latest entry of this ghadi and date (its value is published), or null when Latest'),
});
export type ReceiptEntry = z.infer<typeof receiptEntry>;

/** The inclusion proof of an entry in the tree of the latest checkpoint (as /api/log/proof/inclusion). */
export const receiptProof = z.object({
  seq: z.number().int().min(1),
  size: z.number().int().min(1).describe('The tree size of the checkpoint the proof leads to'),
  leafHash: z.string().describe('The entry’s leaf hash (RFC 6962), base64'),
  hashes: z.array(z.string()).describe('The inclusion proof, base64, in RFC 6962’s order'),
});

export const receiptAnswer = z.object({
  success: z.literal(true),
  data: receiptEntry,
  proof: receiptProof,
  checkpoint: z.string().describe('The latest checkpoint (a C2SP signed note) the proof leads to'),
});
export type ReceiptAnswer = z.infer<typeof receiptAnswer>;

/** An entry whose hash begins with a receipt that several entries share. */
export const sharedReceiptEntry = declarationEntry
  .pick({ seq: true, GID: true, Name: true, Date: true, Result: true, hash: true })
  .extend({ Receipt: z.string().describe('Its own receipt, which names it alone') });
export type SharedReceiptEntry = z.infer<typeof sharedReceiptEntry>;

/** 409: the receipt asked for begins the hashes of several entries. */
export const receiptConflict = z.object({
  success: z.literal(false),
  message: z.string(),
  entries: z.array(sharedReceiptEntry),
});
