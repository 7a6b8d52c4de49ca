import { isDatabaseUnavailable } from '../../db/database-errors.js';
import { type Now, systemNow } from '../../lib/clock.js';
import { SITE_KEY } from './answer-keys.js';
import { answerBytes, type CachedAnswer, type Encoding, keepOnly, withEncoding } from './cached-answer.js';
import { DropMemory } from './drop-memory.js';
import { type Built, Entry, READS_HALF_LIFE_MS, readsOf, type Served } from './kept-entry.js';

/*
 * One thing past 300 lines: the kept answers' life cycle (lookup, build, store, drop, rebuild,
 * evict) shares one map, one key index and one byte count, and each step keeps the others' rules
 * (a stale answer is served only while its rebuild runs; eviction never takes one being built).
 * The entry and the drop memory, which hold no such rule, are files of their own.
 */

/** How the cache runs the server's own rebuilds (of what a change dropped): when a place is free. */
export interface BuildRunner {
  background(build: () => Promise<Built>): Promise<Built>;
}

/** What the cache is told of each lookup, by the read's route (the metrics). */
export type LookupOutcome = 'hit' | 'stale' | 'miss';

export interface AnswerCacheOptions {
  /** Bytes the kept answers' bodies may take together (PUBLIC_CACHE_MB). */
  maxBytes: number;
  now?: Now;
  onLookup?: (route: string, outcome: LookupOutcome) => void;
  /** Told of each build: one a reader waits for, or a rebuild of what a change dropped (the metrics). */
  onBuild?: (route: string, kind: 'reader' | 'rebuild') => void;
  /** Whether the database is away now: the last answer then beats a 503, however old. */
  databaseUnavailable?: () => boolean;
  /** Told when a build failed because the database is away and the last answer was sent instead. */
  onDatabaseFailure?: (error: unknown) => void;
}

/** While its rebuild runs, readers get the answer a change replaced, for at most this long. */
export const STALE_SERVE_MS = 1000;
/** Eviction frees down to this share of the budget, so that it runs once in many stores. */
const EVICT_TO = 0.9;

/**
 * Every kept public answer, by the read's route and its key, with what it shows (its keys). A change
 * drops the answers whose keys it names (answer-keys.ts), and nothing else. An answer readers read
 * is rebuilt at once, as the server's own work; until the new one is built (at most STALE_SERVE_MS),
 * readers get the one it replaces, so nobody waits for a rebuild of a page they read. An answer
 * never built (or dropped and unread since a rebuild) is built while its first reader waits, once
 * however many wait. The bodies kept stay within a byte budget: past it, what is read least goes.
 */
export class AnswerCache {
  /** Bumped by every drop: what a caller remembers of an answer is current while this has not moved. */
  generation = 0;
  private readonly entries = new Map<string, Entry>();
  private readonly byKey = new Map<string, Set<Entry>>();
  private readonly drops = new DropMemory();
  private used = 0;
  private epoch = 0;
  private readonly epochTimer: NodeJS.Timeout;
  /** Rebuilds started by drops and not finished: a writer waits for them (`rebuilt`). */
  private readonly rebuilding = new Set<Promise<Served>>();
  private readonly now: Now;

  constructor(
    private readonly runner: BuildRunner,
    private readonly options: AnswerCacheOptions,
  ) {
    this.now = options.now ?? systemNow;
    this.epochTimer = setInterval(() => {
      this.epoch += 1;
    }, READS_HALF_LIFE_MS);
    this.epochTimer.unref();
  }

  close(): void {
    clearInterval(this.epochTimer);
  }

  /** Bytes the kept bodies take (fresh and stale). */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The answer for a read's key: kept, stale while its rebuild runs, or built now while the caller
   * waits. `build` makes it for this key; `run` runs a reader's build (through the build gate, which
   * may refuse it).
   */
  serve(
    route: string,
    key: string,
    build: () => Promise<Built>,
    run: (build: () => Promise<Built>) => Promise<Built> = (work) => work(),
  ): Served | Promise<Served> {
    const id = `${route}\u0000${key}`;
    const ready = this.ready(route, key);
    if (ready) return ready;
    const entry = this.entries.get(id) ?? this.create(id, route);
    entry.rebuild = build;
    return this.start(entry, () => run(build), false);
  }

  /**
   * The answer when it can be sent without waiting (fresh, or stale while rebuilt); else undefined.
   * `countMiss` false: the caller hands a miss on to `serve`, which counts it.
   */
  ready(route: string, key: string, countMiss = true): Served | undefined {
    const entry = this.entries.get(`${route}\u0000${key}`);
    const answer = entry?.answer;
    if (!entry || !answer) {
      if (countMiss) this.options.onLookup?.(route, 'miss');
      return undefined;
    }
    if (entry.fresh) {
      this.read(entry);
      this.options.onLookup?.(route, 'hit');
      return { answer, stale: false, entry };
    }
    if (this.staleServable(entry)) {
      this.read(entry);
      this.options.onLookup?.(route, 'stale');
      if (!entry.building && entry.rebuild) this.rebuildNow(entry);
      return { answer, stale: true, entry };
    }
    if (countMiss) this.options.onLookup?.(route, 'miss');
    return undefined;
  }

  /** Counts a hit on a kept answer sent without a lookup (the fast path's remembered lines). */
  hit(entry: Entry): void {
    this.read(entry);
    this.options.onLookup?.(entry.route, 'hit');
  }

  private read(entry: Entry): void {
    if (entry.epoch !== this.epoch) {
      entry.reads = readsOf(entry, this.epoch);
      entry.epoch = this.epoch;
    }
    entry.reads += 1;
    entry.readsSinceBuilt += 1;
  }

  /** A reader asked for an encoding the answer did not have (made by answer-delivery's sendCached). */
  made(entry: Entry, encoding: Encoding): void {
    entry.asked.add(encoding);
    if (!entry.answer) return;
    this.used += answerBytes(entry.answer) - entry.bytes;
    entry.bytes = answerBytes(entry.answer);
    this.evictIfOver(entry);
  }

  /**
   * Drops the answers that show any of `keys`: the ones read since they were built are rebuilt at once
   * (the most read first), the others when next asked for.
   */
  drop(keys: readonly string[]): void {
    this.drops.record(keys);
    const dropped = new Set<Entry>();
    for (const key of keys) for (const entry of this.byKey.get(key) ?? []) dropped.add(entry);
    this.dropEntries(dropped);
  }

  /** Drops every answer (changes may have been missed). */
  dropAll(): void {
    this.drop([SITE_KEY]);
    this.dropEntries(new Set(this.entries.values()));
  }

  /**
   * Resolves when the rebuilds started by drops so far are done, or after STALE_SERVE_MS: a writer
   * then reads, in this process, the answers its write made.
   */
  async rebuilt(): Promise<void> {
    if (this.rebuilding.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STALE_SERVE_MS);
    });
    await Promise.race([Promise.allSettled([...this.rebuilding]), late]);
    clearTimeout(timer);
  }

  private dropEntries(dropped: Set<Entry>): void {
    this.generation += 1;
    const at = this.now();
    const hot: Entry[] = [];
    for (const entry of dropped) {
      if (!entry.fresh) continue;
      entry.fresh = false;
      entry.droppedAt = at;
      if (entry.readsSinceBuilt > 0) hot.push(entry);
    }
    hot.sort((a, b) => readsOf(b, this.epoch) - readsOf(a, this.epoch));
    for (const entry of hot) if (!entry.building && entry.rebuild) this.rebuildNow(entry);
  }

  private rebuildNow(entry: Entry): void {
    const build = entry.rebuild as () => Promise<Built>;
    const pending = this.start(entry, () => this.runner.background(build), true);
    this.rebuilding.add(pending);
    // Its failure reaches readers who joined it; here only its end matters.
    pending.catch(() => {}).finally(() => this.rebuilding.delete(pending));
  }

  /** Readers may take a dropped answer while its rebuild runs, briefly; without the database, always. */
  private staleServable(entry: Entry): boolean {
    if (this.options.databaseUnavailable?.()) return true;
    return entry.building !== undefined && this.now() - entry.droppedAt <= STALE_SERVE_MS;
  }

  private create(id: string, route: string): Entry {
    const entry = new Entry(id, route);
    entry.epoch = this.epoch;
    this.entries.set(id, entry);
    return entry;
  }

  /** Runs a build of `entry` (readers who come meanwhile join it) and keeps what it makes. */
  private start(entry: Entry, run: () => Promise<Built>, rebuild: boolean): Promise<Served> {
    if (entry.building) return entry.building;
    const began = this.drops.count;
    let overtaken = false;
    this.options.onBuild?.(entry.route, rebuild ? 'rebuild' : 'reader');
    const pending: Promise<Served> = run()
      .then(async (built): Promise<Served> => {
        if (!built.keep) {
          this.forget(entry);
          return { answer: built.answer, stale: false, entry: null };
        }
        for (const encoding of entry.asked) await withEncoding(built.answer, encoding);
        if (this.entries.get(entry.id) !== entry) return { answer: built.answer, stale: false, entry: null };
        overtaken = this.drops.since([SITE_KEY, ...built.answer.caching.keys], began);
        this.store(entry, built.answer, !overtaken, rebuild ? 0 : 1);
        // Built from data a change has since replaced: its readers get it as a stale answer, which no
        // shared cache keeps.
        return { answer: built.answer, stale: overtaken, entry };
      })
      .catch((error: unknown): Served => {
        const previous = entry.answer;
        // Without the database, the answer from before the latest change is better than a 503.
        if (previous && isDatabaseUnavailable(error)) {
          this.options.onDatabaseFailure?.(error);
          return { answer: previous, stale: true, entry };
        }
        if (!previous && !rebuild) this.forget(entry);
        throw error;
      })
      .finally(() => {
        if (entry.building !== pending) return;
        entry.building = undefined;
        if (overtaken && entry.answer && !entry.fresh && entry.rebuild) this.rebuildNow(entry);
      });
    entry.building = pending;
    return pending;
  }

  private store(entry: Entry, answer: CachedAnswer, fresh: boolean, readsSinceBuilt: number): void {
    keepOnly(answer, entry.asked);
    const bytes = answerBytes(answer);
    this.used += bytes - entry.bytes;
    entry.bytes = bytes;
    entry.answer = answer;
    entry.readsSinceBuilt = readsSinceBuilt;
    this.index(entry, answer.caching.keys);
    entry.fresh = fresh;
    // A change came while it was built, which it may not show: readers got it, and it is built again
    // as soon as this build has ended (start's `finally`).
    if (!fresh) entry.droppedAt = this.now();
    this.evictIfOver(entry);
  }

  private index(entry: Entry, keys: readonly string[]): void {
    for (const key of entry.keys) this.byKey.get(key)?.delete(entry);
    // Every answer is dropped with the whole site, whatever keys its builder named.
    entry.keys = keys.includes(SITE_KEY) ? keys : [...keys, SITE_KEY];
    for (const key of entry.keys) {
      let set = this.byKey.get(key);
      if (!set) {
        set = new Set();
        this.byKey.set(key, set);
      }
      set.add(entry);
    }
  }

  private forget(entry: Entry): void {
    if (this.entries.get(entry.id) !== entry) return;
    this.entries.delete(entry.id);
    for (const key of entry.keys) {
      const set = this.byKey.get(key);
      set?.delete(entry);
      if (set?.size === 0) this.byKey.delete(key);
    }
    this.used -= entry.bytes;
    entry.bytes = 0;
    entry.answer = undefined;
    entry.fresh = false;
  }

  /** Past the budget, the least read answers go (stale ones before fresh), never `keep`. */
  private evictIfOver(keep: Entry): void {
    if (this.used <= this.options.maxBytes) return;
    const candidates = [...this.entries.values()].filter(
      (entry) => entry !== keep && entry.answer !== undefined && entry.building === undefined,
    );
    candidates.sort(
      (a, b) => Number(a.fresh) - Number(b.fresh) || readsOf(a, this.epoch) - readsOf(b, this.epoch),
    );
    const target = this.options.maxBytes * EVICT_TO;
    for (const entry of candidates) {
      if (this.used <= target) break;
      this.forget(entry);
    }
  }
}
