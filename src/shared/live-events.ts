/**
 * What GET /api/events pushes to open public pages: each change with the data it changed, so that a
 * page applies it without a request. Types only (the public bundle carries no schemas).
 */
import type { ContentBlockRecord } from './schemas/content-blocks.js';
import type { DeclarationEntry } from './schemas/declarations.js';
import type { GhadiRecord } from './schemas/ghadis.js';
import type { PublicResultRecord } from './schemas/results.js';

export type LiveEvent =
  /** A result declared or corrected: the ghadi's row as GET /api/ghadis now shows it, and the result. */
  | {
      kind: 'result';
      gid: number;
      date: string;
      /** Null when the ghadi is no longer listed (deleted meanwhile). */
      ghadi: GhadiRecord | null;
      /** As public GET /api/results shows it; null when it is not public. */
      result: PublicResultRecord | null;
      /** The declaration log's entry for it, as GET /api/declarations shows it (null: none). */
      declaration: DeclarationEntry | null;
    }
  /** A ghadi created, edited or deleted (null). */
  | { kind: 'ghadi'; gid: number; ghadi: GhadiRecord | null }
  /** A content block's public answer (GET /api/contentblocks/slug/{slug}), or null when it has none. */
  | { kind: 'content'; slug: string; block: ContentBlockRecord | null }
  /**
   * The site's day rolled over: the new "today", the record chart's month (UTC), every ghadi's row
   * (today's and yesterday's results moved), and the new month's record when the month changed.
   */
  | {
      kind: 'day';
      today: string;
      recordMonth: string;
      ghadis: GhadiRecord[];
      record: PublicResultRecord[] | null;
    }
  /** The page missed more than the server kept: it reloads its data (GET /api/home) once. */
  | { kind: 'resync' };

export const EVENTS_PATH = '/api/events';
/** The query parameter a page's first connection names the version it was rendered at with. */
export const EVENTS_SINCE_PARAM = 'since';
