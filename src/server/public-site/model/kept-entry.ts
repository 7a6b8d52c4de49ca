import type { CachedAnswer, Encoding } from './cached-answer.js';

/** A built answer, and whether it is worth keeping (an unknown name's 404 is not). */
export interface Built {
  answer: CachedAnswer;
  keep: boolean;
}

/** An answer to send: fresh, or the one a rebuild is replacing (`stale`). */
export interface Served {
  answer: CachedAnswer;
  stale: boolean;
  /** The kept entry it came from (null for an answer not kept). */
  entry: Entry | null;
}

/** Reads are counted in halves each period, so that what was read a lot long ago goes first. */
export const READS_HALF_LIFE_MS = 60_000;

/** One kept answer and what the cache knows of it. */
export class Entry {
  answer: CachedAnswer | undefined;
  fresh = false;
  /** When a change dropped it (the stale window starts). */
  droppedAt = 0;
  /** A build on its way; readers join it. */
  building: Promise<Served> | undefined;
  /** The latest way to build it, kept for the rebuild after a change. */
  rebuild: (() => Promise<Built>) | undefined;
  /**
   * Reads since it was last built, the reader it was built for included: an entry read since is
   * rebuilt as soon as a change drops it. A shared cache in front reads each answer once, when it
   * builds; after the purge it asks again at once, and a rebuild already under way answers it.
   */
  readsSinceBuilt = 0;
  /** Reads, halved each READS_HALF_LIFE_MS (`epoch` is when they were last halved). */
  reads = 0;
  epoch = 0;
  /** The encodings readers asked of it: made with each rebuild, the others dropped. */
  readonly asked = new Set<Encoding>(['br']);
  bytes = 0;
  keys: readonly string[] = [];

  constructor(
    readonly id: string,
    readonly route: string,
  ) {}
}

/** An entry's reads, halved for each READS_HALF_LIFE_MS since they were last counted. */
export function readsOf(entry: Entry, epoch: number): number {
  return entry.reads / 2 ** Math.min(30, epoch - entry.epoch);
}
