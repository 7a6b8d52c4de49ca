import { createHash } from 'node:crypto';

/** The fields of a declaration log entry that its hash covers, as GET /api/declarations answers them. */
export interface ChainedEntry {
  seq: number;
  GID: number;
  Date: string;
  Result: string;
  Previous: string | null;
  DeclaredAt: string;
  prevHash: string;
  hash: string;
}

/**
 * Checks a whole log with the published formula (docs/api.md), independently of the server's code:
 * the first broken link, or null when every entry chains.
 */
export function brokenLink(entries: readonly ChainedEntry[]): string | null {
  let previous = '0'.repeat(64);
  for (const [index, entry] of entries.entries()) {
    if (entry.seq !== index + 1) return `seq ${entry.seq} at position ${index + 1}`;
    if (entry.prevHash !== previous) return `entry ${entry.seq}: prevHash`;
    const fields = [entry.seq, entry.GID, entry.Date, entry.Result, entry.Previous, entry.DeclaredAt];
    const hash = createHash('sha256')
      .update(`${previous}\n${JSON.stringify(fields)}`, 'utf8')
      .digest('hex');
    if (hash !== entry.hash) return `entry ${entry.seq}: hash`;
    previous = hash;
  }
  return null;
}
