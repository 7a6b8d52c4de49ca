import { sql } from 'kysely';
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
        const inserted = await trx
          .insertInto('visitors')
          .values(chunk.map((session_id) => ({ session_id, first_seen: seenAt, last_seen: seenAt })))
          .onConflict((conflict) => conflict.column('session_id').doNothing())
          .returning('session_id')
          .execute();
        added += inserted.length;
        if (inserted.length < chunk.length) {
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

  /** Forgets sessions not seen since `before`; the running total keeps counting them. */
  async pruneSeenBefore(before: string): Promise<number> {
    const result = await this.db.deleteFrom('visitors').where('last_seen', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
