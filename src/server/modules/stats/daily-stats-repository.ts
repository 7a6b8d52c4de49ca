import type { Database, Executor } from '../../db/database.js';

export interface DayCounts {
  visitors: number;
  declarations: number;
  corrections: number;
}

export interface DailyStatsRow extends DayCounts {
  date: string;
}

export class DailyStatsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Adds to a day's totals in the caller's transaction. The database does the sum (an upsert adding
   * to the stored row), so processes adding to the same day at once never lose each other's counts.
   */
  async add(trx: Executor, date: string, counts: Partial<DayCounts>): Promise<void> {
    await trx
      .insertInto('daily_stats')
      .values({
        date,
        visitors: counts.visitors ?? 0,
        declarations: counts.declarations ?? 0,
        corrections: counts.corrections ?? 0,
      })
      .onConflict((conflict) =>
        conflict.column('date').doUpdateSet((eb) => ({
          visitors: eb('daily_stats.visitors', '+', eb.ref('excluded.visitors')),
          declarations: eb('daily_stats.declarations', '+', eb.ref('excluded.declarations')),
          corrections: eb('daily_stats.corrections', '+', eb.ref('excluded.corrections')),
        })),
      )
      .execute();
  }

  /** The stored days from `from` to `to` (YYYY-MM-DD), in order; a day nothing happened on has no row. */
  range(from: string, to: string): Promise<DailyStatsRow[]> {
    return this.database.db
      .selectFrom('daily_stats')
      .select(['date', 'visitors', 'declarations', 'corrections'])
      .where('date', '>=', from)
      .where('date', '<=', to)
      .orderBy('date')
      .execute();
  }
}
