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

  /** The values of several keys, read in one statement (so from one state of the table). */
  async getMany(keys: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.database.db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', keys)
      .execute();
    return new Map(rows.map((row) => [row.key, row.value]));
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

  /** Removes a key. */
  async delete(key: string): Promise<void> {
    await this.database.db.deleteFrom('settings').where('key', '=', key).execute();
  }

  /** Stores the value, replacing the key's value if it has one. */
  async put(key: string, value: string): Promise<void> {
    await this.database.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
      .execute();
  }
}
