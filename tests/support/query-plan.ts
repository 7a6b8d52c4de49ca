import { CompiledQuery, sql } from 'kysely';
import type { Database } from '../../src/server/db/database.js';

/**
 * A statement's query plan as text. PostgreSQL may read a table of a few rows whole whatever its
 * indexes: sequential scans are made dear, so the plan shows whether an index can serve the query.
 */
export async function planOf(database: Database, query: CompiledQuery): Promise<string> {
  if (database.sqlite) {
    const rows = database.sqlite
      .prepare(`explain query plan ${query.sql}`)
      .all(...(query.parameters as unknown[])) as { detail: string }[];
    return rows.map((row) => row.detail).join('\n');
  }
  return database.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
    );
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}
