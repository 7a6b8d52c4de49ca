import { CompiledQuery, sql } from 'kysely';
import { countRows, type Database } from '../../db/database.js';

const TOTAL = 'sessions';
const CHUNK = 500;

export interface VisitorTotals {
  /** Every session ever counted, pruned ones included. */
  total: number;
  /** Sessions seen since the given instant. */
  active: number;
}

export class VisitorsRepository {
  /** The INSERT of a full chunk (a batch's chunks are all CHUNK rows but its last). */
  private fullChunkInsert: string | undefined;

  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async totals(activeSince: string): Promise<VisitorTotals> {
    const [row, active] = await Promise.all([
      this.db.selectFrom('visitor_totals').select('total').where('name', '=', TOTAL).executeTakeFirst(),
      countRows(this.db.selectFrom('visitors').where('last_seen', '>=', activeSince)),
    ]);
    return { total: Number(row?.total ?? 0), active };
  }

  /**
   * Records a batch of sightings in one transaction and adds the new sessions to the running total;
   * returns how many were new. Sessions already stored get the batch's time as last_seen.
   */
  async recordBatch(sessionIds: string[], seenAt: string): Promise<number> {
    if (sessionIds.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      let added = 0;
      for (let start = 0; start < sessionIds.length; start += CHUNK) {
        const chunk = sessionIds.slice(start, start + CHUNK);
        const inserted = await trx.executeQuery(this.insertQuery(chunk, seenAt));
        // Rows already stored are skipped (on conflict do nothing): what changed is what was added.
        const addedHere = Number(inserted.numAffectedRows ?? 0);
        added += addedHere;
        if (addedHere < chunk.length) {
          await trx
            .updateTable('visitors')
            .set({ last_seen: seenAt })
            .where('session_id', 'in', chunk)
            .execute();
        }
      }
      if (added > 0) {
        await trx
          .updateTable('visitor_totals')
          .set({ total: sql<number>`total + ${added}` })
          .where('name', '=', TOTAL)
          .execute();
      }
      return added;
    });
  }

  /**
   * Sessions seen at one instant, ignoring those already stored (the count of rows it changes is the
   * count added). Written as text, that of a full chunk once: at 500 rows a statement, building it
   * with Kysely cost more CPU than SQLite's own insert (new visitors arriving by the thousand a
   * second). PostgreSQL names the instant once ($1); better-sqlite3 takes plain `?`s, the instant
   * repeated.
   */
  private insertQuery(sessionIds: string[], seenAt: string): CompiledQuery {
    const postgres = this.database.dialect === 'postgres';
    const full = sessionIds.length === CHUNK;
    let text = full ? this.fullChunkInsert : undefined;
    if (text === undefined) {
      const values = sessionIds.map((_, row) => (postgres ? `($${row + 2}, $1, $1)` : '(?, ?, ?)'));
      text =
        `insert into visitors (session_id, first_seen, last_seen) values ${values.join(', ')} ` +
        'on conflict (session_id) do nothing';
      if (full) this.fullChunkInsert = text;
    }
    const parameters = postgres
      ? [seenAt, ...sessionIds]
      : sessionIds.flatMap((sessionId) => [sessionId, seenAt, seenAt]);
    return CompiledQuery.raw(text, parameters);
  }

  /** Forgets sessions not seen since `before`; the running total keeps counting them. */
  async pruneSeenBefore(before: string): Promise<number> {
    const result = await this.db.deleteFrom('visitors').where('last_seen', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
