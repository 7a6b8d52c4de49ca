import type { Database } from '../../db/database.js';

export interface StatsGhadiRow {
  gid: number;
  name_en: string;
  r_time: string;
  created_at: string;
  /** The weekdays it runs, as a bit set (src/shared/matka.ts). */
  days: number;
}

export interface FirstDeclarationRow {
  gid: number;
  result_date: string;
  /** ISO instant of the first value declared for the ghadi and date. */
  first_declared_at: string;
}

/** What the per-ghadi figures are made of: the live ghadis and the declaration log of a range of dates. */
export class GhadiStatsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  liveGhadis(): Promise<StatsGhadiRow[]> {
    return this.db
      .selectFrom('ghadis')
      .select(['gid', 'name_en', 'r_time', 'created_at', 'days'])
      .where('is_deleted', '=', 0)
      .orderBy('order_id')
      .orderBy('gid')
      .execute();
  }

  /**
   * When each result of a live ghadi dated `from` to `to` was first declared. The log keeps every
   * value, the first included, while a result row keeps only the latest one's time; corrections come
   * later than the first value, so the earliest entry is it. ISO instants of one format order as text.
   * One entry per (ghadi, date) and value, found through the log's date index: a few thousand rows
   * for a year. An open/close market's day is declared when it is complete: its first whole value
   * (`123-68-459`), due at RTime, the close time; an open half alone is no result yet.
   */
  firstDeclarations(from: string, to: string): Promise<FirstDeclarationRow[]> {
    return this.db
      .selectFrom('declarations as d')
      .innerJoin('ghadis as g', 'g.gid', 'd.gid')
      .select((eb) => [
        'd.gid',
        'd.result_date',
        eb.fn
          .min<string>(
            eb
              .case()
              .when(eb.and([eb('g.kind', '=', 'open-close'), eb('d.value', 'not like', '___-__-___')]))
              .then(eb.val<string | null>(null))
              .else(eb.ref('d.declared_at'))
              .end(),
          )
          .as('first_declared_at'),
      ])
      .where('g.is_deleted', '=', 0)
      .where('d.result_date', '>=', from)
      .where('d.result_date', '<=', to)
      .groupBy(['d.gid', 'd.result_date'])
      .execute()
      .then((rows) => rows.filter((row) => row.first_declared_at !== null));
  }
}
