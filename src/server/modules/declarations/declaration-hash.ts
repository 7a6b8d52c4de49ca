import { hash } from 'node:crypto';

/** What an entry's hash covers: everything but its readable name and the hashes themselves. */
export interface HashedFields {
  seq: number;
  gid: number;
  date: string;
  value: string;
  previous: string | null;
  declaredAt: string;
}

/**
 * The published formula (docs/api.md, "The declaration log"): lowercase hex SHA-256 of the UTF-8 bytes of
 * prevHash + "\n" + JSON.stringify([seq, GID, Date, Result, Previous, DeclaredAt]).
 */
export function declarationHash(prevHash: string, fields: HashedFields): string {
  const { seq, gid, date, value, previous, declaredAt } = fields;
  const text = `${prevHash}\n${JSON.stringify([seq, gid, date, value, previous, declaredAt])}`;
  // One-shot: the log's verification hashes a million of these.
  return hash('sha256', text, 'hex');
}
