/** Keys whose latest drop is remembered (to tell a build a change overtook); past this, all are forgotten. */
const MAX_REMEMBERED_DROPS = 50_000;

/**
 * When each key was last dropped, counted in drops: a build that began at count N and shows a key
 * dropped after N was overtaken by a change, and may not show it.
 */
export class DropMemory {
  /** Drops so far: a build notes it when it begins. */
  count = 0;
  private readonly droppedAt = new Map<string, number>();
  /** Drops before this one are forgotten (the map is cleared when it grows large): a build older is overtaken. */
  private forgottenBefore = 0;

  record(keys: readonly string[]): void {
    this.count += 1;
    if (this.droppedAt.size > MAX_REMEMBERED_DROPS) {
      this.droppedAt.clear();
      this.forgottenBefore = this.count;
    }
    for (const key of keys) this.droppedAt.set(key, this.count);
  }

  /** Whether any of `keys` was dropped after the count was `since`. */
  since(keys: readonly string[], since: number): boolean {
    if (since < this.forgottenBefore) return true;
    return keys.some((key) => (this.droppedAt.get(key) ?? 0) > since);
  }
}
