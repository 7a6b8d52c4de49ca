import { z } from 'zod';
import { RECEIPT_PATTERN } from '../receipt-codes.js';
import { declarationEntry } from './declarations.js';

/** GET /api/declarations/receipt/{receipt}: 10 hex characters, in either case. */
export const receiptParams = z.object({
  receipt: z
    .string()
    .regex(RECEIPT_PATTERN, 'Must be a receipt: 10 hexadecimal characters')
    .describe('The first 10 characters of a log entry’s hash (upper case is read as lower case)'),
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
  Receipt: z.string().describe('The first 10 characters of hash'),
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
  Shared: z
    .array(declarationEntry.pick({ seq: true, Name: true, Date: true, Result: true, hash: true }))
    .describe(
      'Later entries whose hash starts with the same 10 characters (rare; usually empty): the receipt names the earliest',
    ),
});
export type ReceiptEntry = z.infer<typeof receiptEntry>;

export const receiptAnswer = z.object({ success: z.literal(true), data: receiptEntry });
