import { z } from 'zod';
import { calendarDate } from './results.js';

/** prevHash of the first entry: there is no entry before it. */
export const GENESIS_HASH = '0'.repeat(64);

/** Entries a page of GET /api/declarations holds by default, and at most. */
export const DEFAULT_DECLARATIONS_LIMIT = 100;
export const MAX_DECLARATIONS_LIMIT = 1000;

const hexHash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * One entry of the public declaration log. Its hash is the lowercase hex SHA-256 of the UTF-8 bytes
 * of `prevHash + "\n" + JSON.stringify([seq, GID, Date, Result, Previous, DeclaredAt])`; `Name` (the
 * ghadi's current NameEn) is for reading only and not hashed.
 */
export const declarationEntry = z.object({
  seq: z.number().int().min(1),
  GID: z.number().int(),
  Name: z.string(),
  /** The business date, YYYY-MM-DD. */
  Date: z.string(),
  Result: z.string(),
  /** The value it replaced, or null for a first declaration. */
  Previous: z.string().nullable(),
  /** ISO 8601 UTC with milliseconds, e.g. 2026-11-22T08:26:03.123Z. */
  DeclaredAt: z.string(),
  prevHash: hexHash,
  hash: hexHash,
  /**
   * On an open/close ghadi, the step the stored value's form shows: `open` for an open half (123-6),
   * `close` for a whole day (123-68-459); null on other kinds. Not hashed: read from the value.
   */
  Step: z.enum(['open', 'close']).nullable(),
});
export type DeclarationEntry = z.infer<typeof declarationEntry>;

/** The log's latest entry: seq 0 and the genesis hash while it is empty. */
export const declarationHead = z.object({ seq: z.number().int().min(0), hash: hexHash });
export type DeclarationHead = z.infer<typeof declarationHead>;

const seqNumber = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const declarationsQuery = z.object({
  after: seqNumber.default(0),
  limit: z.coerce
    .number()
    .int()
    .min(1, 'Must be 1 or more')
    .max(MAX_DECLARATIONS_LIMIT, `Must be ${MAX_DECLARATIONS_LIMIT} or less`)
    .default(DEFAULT_DECLARATIONS_LIMIT),
  gid: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  date: calendarDate.optional(),
});
export type DeclarationsQuery = z.infer<typeof declarationsQuery>;

export const declarationsAnswer = z.object({
  success: z.literal(true),
  data: z.array(declarationEntry),
  head: declarationHead,
});

export const declarationHeadAnswer = z.object({ success: z.literal(true) }).extend(declarationHead.shape);

/** GET /api/result-history: one result, by ghadi and business date. */
export const resultHistoryQuery = z.object({
  gid: z.coerce.number().int().min(1).max(2_147_483_647),
  date: calendarDate,
});

/** An admin's view of one result's declarations: who declared each value. */
export const resultHistoryEntry = declarationEntry.extend({
  DeclaredById: z.number().int().nullable(),
  DeclaredByName: z.string(),
});
export type ResultHistoryEntry = z.infer<typeof resultHistoryEntry>;
