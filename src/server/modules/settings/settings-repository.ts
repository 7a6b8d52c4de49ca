import type { Database } from '../../db/database.js';

export class SettingsRepository {
  constructor(private readonly database: Database) {}

  async get(key: string): Promise<string | undefined> {
    const row = await this.database.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  /** Stores the value unless the key exists; returns the value that is stored. */
  async putIfAbsent(key: string, value: string): Promise<string> {
    await this.database.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
    return (await this.get(key)) ?? value;
  }
}
