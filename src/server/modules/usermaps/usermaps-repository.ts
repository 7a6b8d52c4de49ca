import type { Database } from '../../db/database.js';

export interface UsermapRow {
  usermap_id: number;
  user_id: number;
  gid: number;
  username: string;
  display_name: string;
  name_en: string;
}

export class UsermapsRepository {
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

  list(): Promise<UsermapRow[]> {
    return this.joined().orderBy('u.username').orderBy('g.order_id').execute();
  }

  listFor(userId: number, gids: number[]): Promise<UsermapRow[]> {
    return this.joined()
      .where('m.user_id', '=', userId)
      .where('m.gid', 'in', gids)
      .orderBy('g.order_id')
      .execute();
  }

  async existingGids(gids: number[]): Promise<number[]> {
    const rows = await this.db
      .selectFrom('ghadis')
      .select('gid')
      .where('gid', 'in', gids)
      .where('is_deleted', '=', 0)
      .execute();
    return rows.map((row) => row.gid);
  }

  /** Adds the pairs not assigned yet; returns how many were new. */
  async assign(userId: number, gids: number[], now: string): Promise<number> {
    const rows = await this.db
      .insertInto('usermaps')
      .values(gids.map((gid) => ({ user_id: userId, gid, created_at: now })))
      .onConflict((conflict) => conflict.columns(['user_id', 'gid']).doNothing())
      .returning('usermap_id')
      .execute();
    return rows.length;
  }

  async delete(usermapId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('usermaps')
      .where('usermap_id', '=', usermapId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
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
