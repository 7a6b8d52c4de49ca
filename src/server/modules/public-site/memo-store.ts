/**
 * Values built once and shared until cleared. While a value is being built its promise is shared,
 * so a burst of requests after a change runs one build; once built, the value itself is kept so that
 * a hit costs no promise. A build that fails is forgotten (the next request tries again), and a build
 * still running when the store is cleared is not kept (it may have read data from before the change).
 */
export class MemoStore<T> {
  private entries = new Map<string, T | Promise<T>>();

  /** @param maxEntries the oldest entry goes when a new one would exceed this. */
  constructor(private readonly maxEntries: number) {}

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
        if (entries.get(key) === pending) {
          if (keep(value)) entries.set(key, value);
          else entries.delete(key);
        }
        return value;
      },
      (error: unknown) => {
        if (entries.get(key) === pending) entries.delete(key);
        throw error;
      },
    );
    if (entries.size >= this.maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, pending);
    return pending;
  }

  /** The value if it is built, without building it. */
  peek(key: string): T | undefined {
    const found = this.entries.get(key);
    return found instanceof Promise ? undefined : found;
  }

  clear(): void {
    // A new map, so that builds started before the clear cannot store into it.
    this.entries = new Map();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Awaits a value that may already be there, without a promise when it is. */
export function whenReady<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
