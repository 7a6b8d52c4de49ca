import type { Database } from '../../db/database.js';

export interface StatsGhadiRow {
  gid: number;
  name_en: string;
  r_time: string;
  created_at: string;
  kind: 'jodi' | 'panna' | 'open-close';
  open_time: string | null;
  /** The weekdays it runs, as a bit set (src/shared/matka.ts). */
  days: number;
}

export interface StatsHolidayRow {
  holiday_date: string;
  /** 0: every ghadi. */
  gid: number;
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
      .select(['gid', 'name_en', 'r_time', 'created_at', 'kind', 'open_time', 'days'])
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
   * for a year.
   */
  firstDeclarations(from: string, to: string): Promise<FirstDeclarationRow[]> {
    return this.db
      .selectFrom('declarations as d')
      .innerJoin('ghadis as g', 'g.gid', 'd.gid')
      .select(({ fn }) => ['d.gid', 'd.result_date', fn.min<string>('d.declared_at').as('first_declared_at')])
      .where('g.is_deleted', '=', 0)
      .where('d.result_date', '>=', from)
      .where('d.result_date', '<=', to)
      .groupBy(['d.gid', 'd.result_date'])
      .execute();
  }

  /** The holidays of a range of dates: a few dozen a year. */
  holidaysBetween(from: string, to: string): Promise<StatsHolidayRow[]> {
    return this.db
      .selectFrom('holidays')
      .select(['holiday_date', 'gid'])
      .where('holiday_date', '>=', from)
      .where('holiday_date', '<=', to)
      .execute();
  }
}
