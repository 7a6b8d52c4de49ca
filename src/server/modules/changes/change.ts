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
