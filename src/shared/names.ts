/**
 * How a ghadi's English name becomes its public address and is found again: Unicode-aware lower
 * case of the composed form, done in code so that SQLite (whose lower() folds only ASCII) and
 * PostgreSQL agree, and so that "Éclair" and "गली" are found like "NCR".
 */
export function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
