import type { GhadiKind } from '../../../shared/matka.js';
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
  /** ISO instant of the first whole value declared for the ghadi and date. */
  first_declared_at: string;
  /** ISO instant of the first whole value not written by an import, or null when every one was. */
  first_timed_at: string | null;
}

/** A log entry that gave a date of the ghadi a new value over an old one. */
export interface ReplacingEntryRow {
  kind: GhadiKind;
  value: string;
  previous: string;
}

/** What the per-ghadi figures are made of: the live ghadis and the declaration log of a range of dates. */
export class GhadiStatsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  private ghadis() {
    return this.db
      .selectFrom('ghadis')
      .select(['gid', 'name_en', 'r_time', 'created_at', 'days'])
      .where('is_deleted', '=', 0);
  }

  liveGhadis(): Promise<StatsGhadiRow[]> {
    return this.ghadis().orderBy('order_id').orderBy('gid').execute();
  }

  liveGhadi(gid: number): Promise<StatsGhadiRow | undefined> {
    return this.ghadis().where('gid', '=', gid).executeTakeFirst();
  }

  /**
   * When each result of a live ghadi (or of `gid`) dated `from` to `to` was first declared. The log
   * keeps every value, the first included, while a result row keeps only the latest one's time;
   * corrections come later than the first value, so the earliest entry is it. ISO instants of one
   * format order as text. One entry per (ghadi, date) and value, found through the log's date index:
   * a few thousand rows for a year. An open/close market's day is declared when it is complete: its
   * first whole value (`123-68-459`), due at RTime, the close time; an open half alone is no result
   * yet. The first whole value an import did not write tells whether the first one was imported.
   */
  firstDeclarations(from: string, to: string, gid?: number): Promise<FirstDeclarationRow[]> {
    return this.db
      .selectFrom('declarations as d')
      .innerJoin('ghadis as g', 'g.gid', 'd.gid')
      .select((eb) => {
        const half = eb.and([eb('g.kind', '=', 'open-close'), eb('d.value', 'not like', '___-__-___')]);
        const none = eb.val<string | null>(null);
        return [
          'd.gid',
          'd.result_date',
          eb.fn
            .min<string>(eb.case().when(half).then(none).else(eb.ref('d.declared_at')).end())
            .as('first_declared_at'),
          eb.fn
            .min<string | null>(
              eb
                .case()
                .when(eb.or([half, eb('d.imported', '=', 1)]))
                .then(none)
                .else(eb.ref('d.declared_at'))
                .end(),
            )
            .as('first_timed_at'),
        ];
      })
      .where('g.is_deleted', '=', 0)
      .where('d.result_date', '>=', from)
      .where('d.result_date', '<=', to)
      .$if(gid !== undefined, (query) => query.where('d.gid', '=', gid ?? 0))
      .groupBy(['d.gid', 'd.result_date'])
      .execute()
      .then((rows) => rows.filter((row) => row.first_declared_at !== null));
  }

  /** The entries that replaced a value of one ghadi dated `from` to `to` (the close steps among them). */
  async replacingEntries(gid: number, from: string, to: string): Promise<ReplacingEntryRow[]> {
    const rows = await this.db
      .selectFrom('declarations as d')
      .innerJoin('ghadis as g', 'g.gid', 'd.gid')
      .select(['g.kind', 'd.value', 'd.previous'])
      .where('d.gid', '=', gid)
      .where('d.result_date', '>=', from)
      .where('d.result_date', '<=', to)
      .where('d.previous', 'is not', null)
      .execute();
    return rows.flatMap(({ previous, ...row }) => (previous === null ? [] : [{ ...row, previous }]));
  }
}
