import { z } from 'zod';
import { isCalendarDate } from '../dates.js';
import { pagination, positiveId } from './common.js';

export const resultValue = z
  .string('This field is required')
  .trim()
  .min(1, 'This field is required')
  .max(20, 'Must be at most 20 characters')
  .regex(/^[\p{L}\p{N} *#+\-/]+$/u, 'Use letters, digits, spaces or * # + - /');

export const resultSubmitInput = z.object({
  ghadiId: positiveId,
  result: resultValue,
  /** A date, a datetime-local value or an ISO timestamp; the server derives the business date. */
  dateTime: z
    .string('This field is required')
    .trim()
    .min(1, 'This field is required')
    .max(40, 'Is not a date'),
  /**
   * The value the submitter expects to replace: the published value it saw, or null for none. When
   * given and the published value differs, the submission is refused (409) and changes nothing, so a
   * late replay cannot undo a correction made meanwhile.
   */
  Expected: resultValue.nullable().optional(),
});
export type ResultSubmitInput = z.infer<typeof resultSubmitInput>;

/**
 * A submission's headers: an optional Idempotency-Key (the web app sends a new random UUID with each
 * submission), so a retry of it is applied once (docs/api.md). Other headers pass as they are.
 */
export const resultSubmitHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\x20-\x7e]{1,128}$/, 'Must be 1 to 128 printable ASCII characters')
    .optional()
    .describe('Any 1 to 128 printable ASCII characters, new for each submission (a random UUID, say)'),
});

export const publicResultRecord = z.object({
  _id: z.string(),
  id: z.string(),
  GID: z.number().int(),
  Name: z.string(),
  Result: z.string(),
  DateTime: z.string(),
  Date: z.string(),
  isActive: z.boolean(),
  /** True when the current value replaced an earlier one (a correction). */
  Corrected: z.boolean(),
  /** The value the current one replaced, or null for a first declaration. */
  Previous: z.string().nullable(),
  /** When the current value was declared: ISO 8601 UTC with milliseconds. */
  DeclaredAt: z.string(),
});
export type PublicResultRecord = z.infer<typeof publicResultRecord>;

export const resultRecord = publicResultRecord.extend({
  CreatedById: z.number().int().nullable(),
  CreatedByName: z.string(),
  UpdatedAt: z.string(),
});
export type ResultRecord = z.infer<typeof resultRecord>;

const monthText = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Must be YYYY-MM');

/** Deep enough for decades of results at 5 a page; past that a page number is a mistake or a probe. */
export const MAX_PAGE = 100_000;
/** The admin's largest page; the unpaged list (no page, no limit) stays for existing clients. */
export const MAX_ADMIN_LIMIT = 500;
/** Public and agent pages are smaller: their screens show 10 to 31 rows. */
export const MAX_PUBLIC_LIMIT = 100;
export const AGENT_HISTORY_PAGE_SIZE = 10;
export const ADMIN_RESULTS_PAGE_SIZES = [5, 10, 15] as const;

export const pageNumber = z.coerce
  .number('Must be a whole number')
  .int('Must be a whole number')
  .min(1, 'Must be 1 or more')
  .max(MAX_PAGE, `Must be ${MAX_PAGE} or less`);

export const pageSize = (max: number) =>
  z.coerce
    .number('Must be a whole number')
    .int('Must be a whole number')
    .min(1, 'Must be 1 or more')
    .max(max, `Must be ${max} or less`);

/** What the lists search: a ghadi or agent name, a result, or a date (YYYY, YYYY-MM, YYYY-MM-DD). */
const searchText = z.string().trim().max(100, 'Must be at most 100 characters');

export const resultListQuery = z.object({
  month: monthText.optional(),
  q: searchText.optional(),
  page: pageNumber.optional(),
  limit: pageSize(MAX_ADMIN_LIMIT).optional(),
});
export type ResultListQuery = z.infer<typeof resultListQuery>;

export const ghadiResultsQuery = z.object({
  month: z.coerce
    .number()
    .int('Must be a month number')
    .min(1, 'Must be 1 to 12')
    .max(12, 'Must be 1 to 12')
    .optional(),
  year: z.coerce
    .number()
    .int('Must be a year')
    .min(2000, 'Must be 2000 or later')
    .max(2100, 'Must be 2100 or earlier')
    .optional(),
});

export const resultListAnswer = z.object({
  success: z.literal(true),
  data: z.array(z.union([resultRecord, publicResultRecord])),
  pagination: pagination.optional(),
});

export const agentHistoryQuery = z.object({
  ghadiId: positiveId.optional(),
  q: searchText.optional(),
  page: pageNumber.default(1),
  limit: pageSize(MAX_PUBLIC_LIMIT).default(AGENT_HISTORY_PAGE_SIZE),
});

export type AgentHistoryQuery = z.infer<typeof agentHistoryQuery>;

export const pagedResultsAnswer = z.object({
  success: z.literal(true),
  data: z.array(publicResultRecord),
  pagination,
});

/** The columns of the results CSV, in the order the export writes them. */
export const RESULTS_CSV_COLUMNS = ['Date', 'GID', 'Name', 'Result'] as const;
/** An import file's largest size (the rest of the API takes 1 MB bodies). */
export const RESULTS_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** Line errors an import answer lists; `errorCount` says how many there were in all. */
export const RESULTS_IMPORT_MAX_ERRORS = 1000;

const DATE_MESSAGE = 'Must be a date (YYYY-MM-DD)';
/** A business date as a query names it: a real calendar day, YYYY-MM-DD. */
export const calendarDate = z.string('This field is required').trim().refine(isCalendarDate, DATE_MESSAGE);

export const resultsExportQuery = z
  .object({ from: calendarDate, to: calendarDate, gid: positiveId.optional() })
  .refine((query) => query.from <= query.to, { path: ['to'], message: 'Must be on or after from' });
export type ResultsExportQuery = z.infer<typeof resultsExportQuery>;

export const resultsImportQuery = z.object({
  dryRun: z.enum(['true', 'false'], 'Must be true or false').transform((value) => value === 'true'),
});

export const importLineError = z.object({ line: z.number().int(), message: z.string() });
export type ImportLineError = z.infer<typeof importLineError>;

/**
 * What an import (or its dry run) did or would do. With line errors nothing is written, `success` is
 * false, and the counts are those of the valid lines.
 */
export const resultsImportAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  dryRun: z.boolean(),
  created: z.number().int(),
  corrected: z.number().int(),
  unchanged: z.number().int(),
  /** The first RESULTS_IMPORT_MAX_ERRORS errors, by line. */
  errors: z.array(importLineError),
  errorCount: z.number().int(),
});
export type ResultsImportAnswer = z.infer<typeof resultsImportAnswer>;
