/** A write the public site shows, as the change log records it. */
export type Change =
  | { kind: 'result'; gid: number; date: string }
  | { kind: 'ghadi'; gid: number }
  | { kind: 'content'; slug: string }
  /** Many results written at once (a CSV import): readers drop everything rather than follow each one. */
  | { kind: 'results-imported'; count: number }
  /** The site's day rolled over: at SITE_TIMEZONE midnight (today) or at UTC midnight (utcDate). */
  | { kind: 'day'; today: string; utcDate: string };

export type ChangeKind = Change['kind'];

/** A change with its place in the log: the id every process and live event knows it by. */
export interface LoggedChange {
  id: number;
  change: Change;
}
