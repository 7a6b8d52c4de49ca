import type { CachedAnswer } from '../model/cached-answer.js';

/**
 * The site's 404 page is the same for every address of a language (it shows the site, its day and
 * its ghadis, never the address), so it is built once per language and kind of caching until the
 * site changes or its day does, and compressed off the event loop like a kept page: a crawler
 * walking years without results costs a lookup, not a render and a compression each. At most a
 * handful of answers, whatever the addresses asked.
 */
export class NotFoundAnswers {
  private stamp = '';
  private readonly answers = new Map<string, Promise<CachedAnswer>>();

  /** The answer of `kind` as of `stamp` (the site's version and day), built by `build` when missing. */
  answer(stamp: string, kind: string, build: () => Promise<CachedAnswer>): Promise<CachedAnswer> {
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      this.answers.clear();
    }
    const kept = this.answers.get(kind);
    if (kept) return kept;
    const built = build();
    this.answers.set(kind, built);
    // A failed build is not kept: the next 404 tries again.
    built.catch(() => {
      if (this.answers.get(kind) === built) this.answers.delete(kind);
    });
    return built;
  }
}
