import { countRows, type Database } from '../../db/database.js';

export class VisitorsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async countAll(): Promise<number> {
    return countRows(this.db.selectFrom('visitors'));
  }

  async seenSince(since: string): Promise<Array<{ session_id: string; last_seen: string }>> {
    return this.db
      .selectFrom('visitors')
      .select(['session_id', 'last_seen'])
      .where('last_seen', '>=', since)
      .execute();
  }

  /**
   * Records a batch of sightings in one transaction; returns how many sessions were new.
   * Sessions already stored get the batch's time as last_seen (precise to one flush interval).
   */
  async recordBatch(sessionIds: string[], seenAt: string): Promise<number> {
    if (sessionIds.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      let added = 0;
      for (let start = 0; start < sessionIds.length; start += 500) {
        const chunk = sessionIds.slice(start, start + 500);
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
      return added;
    });
  }
}
