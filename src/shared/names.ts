/**
 * How a ghadi's English name becomes its public address and is found again: Unicode-aware lower
 * case of the composed form, done in code so that SQLite (whose lower() folds only ASCII) and
 * PostgreSQL agree, and so that "Éclair" and "गली" are found like "NCR".
 */
export function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * A folded name as people type it into an address: a hyphen for each space ("delhi-bazar" for
 * "Delhi Bazar"), which is also how search engines spell it. Spaces and hyphens read alike.
 */
export function looseName(name: string): string {
  return foldName(name).replaceAll('-', ' ');
}

/** The ghadis a list can be found by from an address: by folded name, and by loose name. */
export interface NameIndex<G> {
  folded: Map<string, G>;
  loose: Map<string, G>;
}

/** Indexes a list (by OrderId): where two ghadis share a spelling, the first keeps it. */
export function indexNames<G extends { NameEn: string }>(list: readonly G[]): NameIndex<G> {
  const folded = new Map<string, G>();
  const loose = new Map<string, G>();
  for (const ghadi of list) {
    const key = foldName(ghadi.NameEn);
    if (!folded.has(key)) folded.set(key, ghadi);
    const typed = looseName(ghadi.NameEn);
    if (!loose.has(typed)) loose.set(typed, ghadi);
  }
  return { folded, loose };
}

/**
 * The ghadi an address names: the one whose folded name it is exactly, else (hyphens read as spaces)
 * the first by OrderId whose loose name it is. So every ghadi keeps its own address, and
 * "delhi-bazar" reaches "Delhi Bazar" unless a ghadi is named "Delhi-Bazar".
 */
export function ghadiAddressed<G>(index: NameIndex<G>, name: string): G | undefined {
  return index.folded.get(foldName(name)) ?? index.loose.get(looseName(name));
}

/** The same, for a list searched once (the SPA's pages, a live event). */
export function findAddressed<G extends { NameEn: string }>(list: readonly G[], name: string): G | undefined {
  return ghadiAddressed(indexNames(list), name);
}
