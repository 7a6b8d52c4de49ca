import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** The periods that have results: the years and months the chart pages exist for. */
export interface ChartPeriods {
  /** Each live ghadi's years with an active result, ascending (a ghadi with none is absent). */
  years: Map<number, number[]>;
  /** Months (YYYY-MM) with an active result of any live ghadi, ascending. */
  months: string[];
}

/** A result as a chart cell needs it. */
export interface ChartCellRow {
  result_date: string;
  value: string;
  previous_value: string | null;
}

export class ResultsChartRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * Each live ghadi's years with an active result, and the months with an active result of any live
   * ghadi: what the chart pages exist for. Walked as a loose index scan, one seek per year of a ghadi
   * (its (gid, result_date) index) and per month (the listing index, which holds is_active and gid),
   * each to the first result after the period before: a few hundred seeks however many results there
   * are, where reading them all and keeping the distinct periods reads every row.
   */
  async chartPeriods(): Promise<ChartPeriods> {
    // The period (a date's first 4 or 7 characters) of the first active result, after the period
    // `after` names when it names one: '2024' || '-99' and '2024-05' || '-99' come after all its dates.
    const firstPeriod = (length: 4 | 7, after?: 'y.year' | 'm.month') => {
      const first = this.db
        .selectFrom('results as r')
        .select(sql<string>`substr(${sql.ref('r.result_date')}, 1, ${sql.lit(length)})`.as('period'))
        .where('r.is_active', '=', 1)
        .orderBy('r.result_date')
        .limit(1);
      return after ? first.where('r.result_date', '>', sql<string>`${sql.ref(after)} || '-99'`) : first;
    };
    const deleted = this.db.selectFrom('ghadis').select('gid').where('is_deleted', '=', 1);
    const rows = await this.db
      .withRecursive('years(gid, year)', (db) =>
        db
          .selectFrom('ghadis as g')
          .select(['g.gid', firstPeriod(4).where('r.gid', '=', sql.ref<number>('g.gid')).as('year')])
          .where('g.is_deleted', '=', 0)
          .unionAll((db) =>
            db
              .selectFrom('years as y')
              .select([
                'y.gid',
                firstPeriod(4, 'y.year').where('r.gid', '=', sql.ref<number>('y.gid')).as('year'),
              ])
              .where('y.year', 'is not', null),
          ),
      )
      .withRecursive('months(month)', (db) =>
        db.selectNoFrom([firstPeriod(7).where('r.gid', 'not in', deleted).as('month')]).unionAll((db) =>
          db
            .selectFrom('months as m')
            .select([firstPeriod(7, 'm.month').where('r.gid', 'not in', deleted).as('month')])
            .where('m.month', 'is not', null),
        ),
      )
      .selectFrom('years')
      .select(['gid', 'year as period'])
      .where('year', 'is not', null)
      .$castTo<{ gid: number | null; period: string | null }>()
      .unionAll((db) =>
        db
          .selectFrom('months')
          .select([sql<number | null>`null`.as('gid'), 'month as period'])
          .where('month', 'is not', null),
      )
      .execute();
    const years = new Map<number, number[]>();
    const months: string[] = [];
    for (const { gid, period } of rows) {
      if (period === null) continue;
      if (gid === null) months.push(period);
      else if (years.has(gid)) years.get(gid)?.push(Number(period));
      else years.set(gid, [Number(period)]);
    }
    for (const list of years.values()) list.sort((a, b) => a - b);
    return { years, months: months.sort() };
  }

  /**
   * One ghadi's active results of a year as a chart shows them (date, value, whether corrected): its
   * (gid, result_date) index alone, no author or ghadi joined. A year chart is built after every
   * declaration of its ghadi, so it reads no more than it shows.
   */
  async yearCells(gid: number, year: number): Promise<ChartCellRow[]> {
    return this.db
      .selectFrom('results')
      .select(['result_date', 'value', 'previous_value'])
      .where('gid', '=', gid)
      .where('result_date', '>=', `${year}-01-01`)
      .where('result_date', '<=', `${year}-12-31`)
      .where('is_active', '=', 1)
      .execute();
  }
}
