/**
 * Bytes that several stores share: together they keep at most `max` (each may exceed it by the one
 * value it is adding, which it keeps while older ones make room).
 */
export class ByteBudget {
  used = 0;
  constructor(readonly max: number) {}
}

export interface Weighing<T> {
  budget: ByteBudget;
  weigh(value: T): number;
}

export interface MemoStoreOptions<T> {
  /** Bytes counted against a budget shared with other stores. */
  weighing?: Weighing<T>;
  /** Whether what a clear drops is kept aside as stale (for readers when a rebuild cannot run). */
  keepStale?: boolean;
}

/**
 * Values built once and shared until cleared. While a value is being built its promise is shared,
 * so a burst of requests after a change runs one build; once built, the value itself is kept so that
 * a hit costs no promise. A build that fails is forgotten (the next request tries again), and a build
 * still running when the store is cleared is not kept (it may have read data from before the change).
 * The oldest values go first when the store has too many, or (with `weighing`) too many bytes.
 *
 * With `keepStale`, what a clear drops is kept aside until a fresh value of its key is built: a reader may
 * take it when the fresh one cannot be built (the database is away). Stale values count against the
 * same limits, and go before any fresh one.
 */
export class MemoStore<T> {
  private entries = new Map<string, T | Promise<T>>();
  private readonly weights = new Map<string, number>();
  private readonly stale = new Map<string, { value: T; weight: number }>();

  /** @param maxEntries the oldest entry goes when a new one would exceed this. */
  private readonly weighing: Weighing<T> | undefined;
  private readonly keepStale: boolean;

  constructor(
    private readonly maxEntries: number,
    options: MemoStoreOptions<T> = {},
  ) {
    this.weighing = options.weighing;
    this.keepStale = options.keepStale === true;
  }

  /**
   * The built value, or a promise of it. `keep` may refuse a built value (it is still returned to
   * everyone who asked while it was built), e.g. an answer for a name that may never be asked again.
   */
  get(key: string, build: () => Promise<T>, keep: (value: T) => boolean = () => true): T | Promise<T> {
    const found = this.entries.get(key);
    if (found !== undefined) return found;
    const entries = this.entries;
    const pending = build().then(
      (value) => {
        // A store cleared meanwhile has a new map: this value is not kept in it.
        if (entries === this.entries && entries.get(key) === pending) {
          if (keep(value)) this.kept(key, value);
          else entries.delete(key);
        }
        return value;
      },
      (error: unknown) => {
        if (entries.get(key) === pending) entries.delete(key);
        throw error;
      },
    );
    if (entries.size >= this.maxEntries) this.dropOldest();
    entries.set(key, pending);
    return pending;
  }

  /** The value if it is built, without building it. */
  peek(key: string): T | undefined {
    const found = this.entries.get(key);
    return found instanceof Promise ? undefined : found;
  }

  /** The value a clear dropped, while no fresh one of its key has been built. */
  staleValue(key: string): T | undefined {
    return this.stale.get(key)?.value;
  }

  clear(): void {
    for (const [key, value] of this.keepStale ? this.entries : []) {
      if (value instanceof Promise) continue;
      this.dropStale(key);
      this.stale.set(key, { value, weight: this.weights.get(key) ?? 0 });
    }
    while (this.stale.size > this.maxEntries) this.dropStale(this.stale.keys().next().value as string);
    // A new map, so that builds started before the clear cannot store into it. The bytes of the values
    // that became stale stay counted; the others are given back.
    if (!this.keepStale && this.weighing)
      for (const weight of this.weights.values()) this.weighing.budget.used -= weight;
    this.entries = new Map();
    this.weights.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private kept(key: string, value: T): void {
    this.entries.set(key, value);
    this.dropStale(key);
    if (!this.weighing) return;
    const { budget } = this.weighing;
    const weight = this.weighing.weigh(value);
    this.weights.set(key, weight);
    budget.used += weight;
    while (budget.used > budget.max && this.stale.size > 0)
      this.dropStale(this.stale.keys().next().value as string);
    while (budget.used > budget.max && this.entries.size > 1 && this.dropOldest(key)) {}
  }

  private dropStale(key: string): void {
    const stale = this.stale.get(key);
    if (!stale) return;
    this.stale.delete(key);
    if (this.weighing) this.weighing.budget.used -= stale.weight;
  }

  /** Drops the oldest entry other than `except`; false when there is none. */
  private dropOldest(except?: string): boolean {
    for (const key of this.entries.keys()) {
      if (key === except) continue;
      this.entries.delete(key);
      const weight = this.weights.get(key);
      if (weight !== undefined && this.weighing) {
        this.weighing.budget.used -= weight;
        this.weights.delete(key);
      }
      return true;
    }
    return false;
  }
}

/** Awaits a value that may already be there, without a promise when it is. */
export function whenReady<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
