import { type RawBuilder, sql } from 'kysely';
import { countRows, type Database } from '../../db/database.js';
import type { DailyStats } from '../stats/daily-stats.js';

const TOTAL = 'sessions';

export interface BatchRecorded {
  /** Sessions not stored before: added to the running total. */
  added: number;
  /** Stored sessions last seen before the active window: active again. */
  reactivated: number;
}

export class VisitorsRepository {
  constructor(
    private readonly database: Database,
    /** The day's totals the new sessions of each batch add to, in the batch's transaction. */
    private readonly stats?: DailyStats,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** Every session ever counted (the running total): one row, read at each write. */
  async total(): Promise<number> {
    const row = await this.db
      .selectFrom('visitor_totals')
      .select('total')
      .where('name', '=', TOTAL)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** Sessions seen since the given instant (epoch ms): a walk of the last_seen index, so it is not read at every write. */
  async activeSince(instant: number): Promise<number> {
    return countRows(this.db.selectFrom('visitors').where('last_seen', '>=', instant));
  }

  /**
   * Records a batch of sightings in one transaction and adds the new sessions to the running total.
   * Sessions already stored get the batch's time (epoch ms) as last_seen; those last seen before
   * `activeSince` are told apart (they become active again). A session listed twice counts once.
   */
  async recordBatch(sessionIds: string[], seenAt: number, activeSince: number): Promise<BatchRecorded> {
    if (sessionIds.length === 0) return { added: 0, reactivated: 0 };
    const listed = this.sessionList(sessionIds);
    return this.db.transaction().execute(async (trx) => {
      // Rows already stored are skipped (on conflict do nothing): the rows it changed were added.
      const inserted = await sql`insert into visitors (session_id, last_seen)
        select session_id, cast(${seenAt} as bigint) from ${listed} where true
        on conflict (session_id) do nothing`.execute(trx);
      const added = Number(inserted.numAffectedRows ?? 0);
      let reactivated = 0;
      if (added < sessionIds.length) {
        const seenAgain = (lastSeen: RawBuilder<unknown>) =>
          sql`update visitors set last_seen = ${seenAt}
            where session_id in (select session_id from ${listed}) and ${lastSeen}`.execute(trx);
        reactivated = Number((await seenAgain(sql`last_seen < ${activeSince}`)).numAffectedRows ?? 0);
        // The rows just added already say seenAt: only the others seen within the window move.
        await seenAgain(sql`last_seen >= ${activeSince} and last_seen < ${seenAt}`);
      }
      if (added > 0) {
        await trx
          .updateTable('visitor_totals')
          .set({ total: sql<number>`total + ${added}` })
          .where('name', '=', TOTAL)
          .execute();
        await this.stats?.visitorsAdded(trx, seenAt, added);
      }
      return { added, reactivated };
    });
  }

  /**
   * The batch as a table with one column, session_id, from a single parameter: PostgreSQL's text
   * array, SQLite's JSON array. One short statement for any batch size; a VALUES list of one
   * parameter per row cost more to build, bind and parse than SQLite's own insert (new visitors
   * arrive by the thousand a second at peaks), and had to be cut into chunks under the parameter limit.
   */
  private sessionList(sessionIds: string[]) {
    return this.database.dialect === 'postgres'
      ? sql`unnest(${sessionIds}::text[]) as listed(session_id)`
      : sql`(select value as session_id from json_each(${JSON.stringify(sessionIds)}))`;
  }

  /** Forgets sessions not seen since `before` (epoch ms); the running total keeps counting them. */
  async pruneSeenBefore(before: number): Promise<number> {
    const result = await this.db.deleteFrom('visitors').where('last_seen', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
