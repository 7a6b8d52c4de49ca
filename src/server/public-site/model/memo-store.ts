/**
 * Values built once and shared until dropped: the public site's data (the ghadi list, a month's
 * results, a content block), which many answers are built from. While a value is being built its
 * promise is shared, so a burst of builds after a change reads the database once; once built, the
 * value itself is kept so that using it costs no promise. A build that fails is forgotten (the next
 * use tries again), and a build still running when its key is dropped is not kept (it may have read
 * data from before the change). The oldest values go first when the store has too many.
 */
export class MemoStore<T> {
  private readonly entries = new Map<string, T | Promise<T>>();

  constructor(private readonly maxEntries: number) {}

  /** The built value, or a promise of it. */
  get(key: string, build: () => Promise<T>): T | Promise<T> {
    const found = this.entries.get(key);
    if (found !== undefined) return found;
    const pending = build().then(
      (value) => {
        // Dropped meanwhile: not kept.
        if (this.entries.get(key) === pending) this.entries.set(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.entries.get(key) === pending) this.entries.delete(key);
        throw error;
      },
    );
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, pending);
    return pending;
  }

  /** The value if it is built, without building it. */
  peek(key: string): T | undefined {
    const found = this.entries.get(key);
    return found instanceof Promise ? undefined : found;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Awaits a value that may already be there, without a promise when it is. */
export function whenReady<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
