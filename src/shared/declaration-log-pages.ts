/** The addresses and paging of the public declaration log: /declarations?page=N and /feed.xml. */

export const DECLARATIONS_PATH = '/declarations';
export const FEED_PATH = '/feed.xml';
/** Entries on a page of /declarations, and in /feed.xml. */
export const DECLARATIONS_PER_PAGE = 50;

/** A page of the log; the first page has no query. */
export function declarationsPagePath(pageNumber: number): string {
  return pageNumber === 1 ? DECLARATIONS_PATH : `${DECLARATIONS_PATH}?page=${pageNumber}`;
}

/** How many pages a log of `entries` entries fills (one page when it is empty). */
export function declarationsPageCount(entries: number): number {
  return Math.max(1, Math.ceil(entries / DECLARATIONS_PER_PAGE));
}
