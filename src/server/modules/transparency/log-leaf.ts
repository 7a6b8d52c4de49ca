import { leafBytes } from '../../../shared/merkle-proofs.js';

/** The hashed fields of a log entry, as the declarations table stores them. */
export interface LeafFields {
  seq: number;
  gid: number;
  result_date: string;
  value: string;
  previous: string | null;
  declared_at: string;
}

/** A stored entry's leaf bytes: the published formula (src/shared/merkle-proofs.ts), one place for both sides. */
export function leafDataOf(entry: LeafFields): Buffer {
  const { seq, gid, result_date, value, previous, declared_at } = entry;
  const bytes = leafBytes({
    seq,
    GID: gid,
    Date: result_date,
    Result: value,
    Previous: previous,
    DeclaredAt: declared_at,
  });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
