import type { Database, Executor } from '../../db/database.js';

// The spec names the table `usermaps` (key `usermap_id`); the code calls its rows assignments.
export interface AssignmentRow {
  usermap_id: number;
  user_id: number;
  gid: number;
  username: string;
  display_name: string;
  name_en: string;
}

export class AssignmentsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  private joined() {
    return this.db
      .selectFrom('usermaps as m')
      .innerJoin('users as u', 'u.user_id', 'm.user_id')
      .innerJoin('ghadis as g', 'g.gid', 'm.gid')
      .select(['m.usermap_id', 'm.user_id', 'm.gid', 'u.username', 'u.display_name', 'g.name_en'])
      .where('u.is_deleted', '=', 0)
      .where('g.is_deleted', '=', 0);
  }

  list(): Promise<AssignmentRow[]> {
    return this.joined().orderBy('u.username').orderBy('g.order_id').execute();
  }

  listFor(userId: number, gids: number[]): Promise<AssignmentRow[]> {
    return this.joined()
      .where('m.user_id', '=', userId)
      .where('m.gid', 'in', gids)
      .orderBy('g.order_id')
      .execute();
  }

  /** The live ghadis among `gids`, with their names. */
  async liveGhadiNames(gids: number[]): Promise<Map<number, string>> {
    const rows = await this.db
      .selectFrom('ghadis')
      .select(['gid', 'name_en'])
      .where('gid', 'in', gids)
      .where('is_deleted', '=', 0)
      .execute();
    return new Map(rows.map((row) => [row.gid, row.name_en]));
  }

  /** Adds the pairs not assigned yet; returns the new ones. */
  assign(
    trx: Executor,
    userId: number,
    gids: number[],
    now: string,
  ): Promise<{ usermap_id: number; gid: number }[]> {
    return trx
      .insertInto('usermaps')
      .values(gids.map((gid) => ({ user_id: userId, gid, created_at: now })))
      .onConflict((conflict) => conflict.columns(['user_id', 'gid']).doNothing())
      .returning(['usermap_id', 'gid'])
      .execute();
  }

  /** The assignment as it was, with its agent's and ghadi's names; undefined when there was none. */
  async delete(trx: Executor, assignmentId: number): Promise<AssignmentRow | undefined> {
    const deleted = await trx
      .deleteFrom('usermaps')
      .where('usermap_id', '=', assignmentId)
      .returning(['usermap_id', 'user_id', 'gid'])
      .executeTakeFirst();
    if (!deleted) return undefined;
    const names = await trx
      .selectFrom(['users as u', 'ghadis as g'])
      .select(['u.username', 'u.display_name', 'g.name_en'])
      .where('u.user_id', '=', deleted.user_id)
      .where('g.gid', '=', deleted.gid)
      .executeTakeFirstOrThrow();
    return { ...names, ...deleted };
  }

  /** Runs `work` in one transaction: an assignment's writes and its activity entry commit together. */
  inTransaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async isAssigned(userId: number, gid: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('usermaps')
      .select('usermap_id')
      .where('user_id', '=', userId)
      .where('gid', '=', gid)
      .executeTakeFirst();
    return row !== undefined;
  }

  async assignedGids(userId: number): Promise<number[]> {
    const rows = await this.joined().where('m.user_id', '=', userId).execute();
    return rows.map((row) => row.gid);
  }
}
