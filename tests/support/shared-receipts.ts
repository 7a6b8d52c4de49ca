import type { Database } from '../../src/server/db/database.js';
import type { DeclarationHead } from '../../src/shared/schemas/declarations.js';

/**
 * Appends an entry whose hash shares `entry`'s first `length` characters and differs at the next,
 * written behind the site's back (no real hash starts like another for so long): a receipt of that
 * prefix then names two entries.
 */
export async function insertTwin(
  database: Database,
  head: DeclarationHead,
  entry: { hash: string },
  twin: { gid: number; date: string; length: number },
): Promise<string> {
  const next = entry.hash[twin.length] === 'f' ? 'e' : 'f';
  const hash = `${entry.hash.slice(0, twin.length)}${next}${'0'.repeat(63 - twin.length)}`;
  await database.db
    .insertInto('declarations')
    .values({
      seq: head.seq + 1,
      gid: twin.gid,
      result_date: twin.date,
      value: '99',
      previous: null,
      declared_at: new Date(0).toISOString(),
      prev_hash: head.hash,
      hash,
      declared_by: null,
    })
    .execute();
  return hash;
}
