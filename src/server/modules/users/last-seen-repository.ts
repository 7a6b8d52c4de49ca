import type { Database } from '../../db/database.js';

export class LastSeenRepository {
  constructor(private readonly database: Database) {}

  /**
   * Sets the user's last_seen_at to `at` unless it is already later than `notBefore` (ISO instants):
   * one keyed update, and none at all when another process wrote it within that window. True when
   * it wrote.
   */
  async touch(userId: number, at: string, notBefore: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('users')
      .set({ last_seen_at: at })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', notBefore)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
