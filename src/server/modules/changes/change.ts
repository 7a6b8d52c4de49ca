import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';

/**
 * A declared result as the public sees it, written by the declaring process in the transaction that
 * wrote the result, so that no process reads back what the write held (its live event sends this).
 */
export interface ShownResult {
  /** As public GET /api/results shows it. */
  result: PublicResultRecord;
  /** Its entry in the declaration log, as GET /api/declarations shows it. */
  declaration: DeclarationEntry;
}

/** A write the public site shows, as the change log records it. */
export type Change =
  | {
      kind: 'result';
      gid: number;
      date: string;
      /**
       * Whether the write made the result (rather than changing one): a new result in a past period
       * may give it its first result, and so a page it did not have. Absent in older rows: taken as true.
       */
      created?: boolean;
      /**
       * The result and its log entry as written. Absent for an import's results and in rows written
       * before it was carried: readers then read them.
       */
      shown?: ShownResult;
    }
  | {
      kind: 'ghadi';
      gid: number;
      /**
       * Whether what every page lists changed (a ghadi added or deleted, its names or its place in the
       * order), rather than only what its own answers show. Absent in older rows: taken as true.
       */
      listed?: boolean;
    }
  | { kind: 'content'; slug: string }
  /** A holiday added or removed, of one ghadi or (gid null) of every ghadi. */
  | { kind: 'holiday'; date: string; gid: number | null }
  /** Many results written at once (a CSV import): readers drop everything rather than follow each one. */
  | { kind: 'results-imported'; count: number }
  /**
   * The site's day rolled over: at SITE_TIMEZONE midnight (today) or at UTC midnight (utcDate).
   * `previous` is the site's date before it (absent in older rows).
   */
  | { kind: 'day'; today: string; utcDate: string; previous?: string };

export type ChangeKind = Change['kind'];

/** A change with its place in the log: the id every process and live event knows it by. */
export interface LoggedChange {
  id: number;
  change: Change;
}
