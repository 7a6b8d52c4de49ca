import type { Database, Executor } from '../../db/database.js';

/** One person's held entry for a ghadi and date. */
export interface PendingRow {
  user_id: number;
  value: string;
  submitted_at: string;
}

/** A held entry as the pending list shows it: with its ghadi, its author and the published value. */
export interface PendingListRow extends PendingRow {
  gid: number;
  result_date: string;
  name_en: string;
  display_name: string;
  current: string | null;
}

/** Every query of the entries held for a second person (decision 0020). */
export class PendingRepository {
  constructor(private readonly database: Database) {}

  /** A ghadi's held entries of a date, oldest first; read under the result's lock by the caller. */
  entriesOf(trx: Executor, gid: number, date: string): Promise<PendingRow[]> {
    return trx
      .selectFrom('pending_declarations')
      .select(['user_id', 'value', 'submitted_at'])
      .where('gid', '=', gid)
      .where('result_date', '=', date)
      .orderBy('submitted_at')
      .orderBy('user_id')
      .execute();
  }

  /** Stores a person's entry, replacing their earlier one for the same ghadi and date. */
  async hold(
    trx: Executor,
    entry: { gid: number; date: string; userId: number; value: string; now: string },
  ) {
    await trx
      .insertInto('pending_declarations')
      .values({
        gid: entry.gid,
        result_date: entry.date,
        user_id: entry.userId,
        value: entry.value,
        submitted_at: entry.now,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['gid', 'result_date', 'user_id'])
          .doUpdateSet({ value: entry.value, submitted_at: entry.now }),
      )
      .execute();
  }

  /** Removes a ghadi's held entries of a date (published or discarded); how many there were. */
  async clear(trx: Executor, gid: number, date: string): Promise<number> {
    const result = await trx
      .deleteFrom('pending_declarations')
      .where('gid', '=', gid)
      .where('result_date', '=', date)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Held entries of live ghadis that need two people, newest date first, at most `limit` rows; with
   * `userId`, only the days that person entered (everyone's entries of them). The list stays short:
   * entries leave when published.
   */
  list(options: { userId?: number; limit: number }): Promise<PendingListRow[]> {
    return (
      this.database.db
        .selectFrom('pending_declarations as p')
        .innerJoin('ghadis as g', 'g.gid', 'p.gid')
        .innerJoin('users as u', 'u.user_id', 'p.user_id')
        .leftJoin('results as r', (join) =>
          join
            .onRef('r.gid', '=', 'p.gid')
            .onRef('r.result_date', '=', 'p.result_date')
            .on('r.is_active', '=', 1),
        )
        .select([
          'p.gid',
          'p.result_date',
          'p.user_id',
          'p.value',
          'p.submitted_at',
          'g.name_en',
          'u.display_name',
          'r.value as current',
        ])
        .where('g.is_deleted', '=', 0)
        .where('g.confirmations', '=', 2)
        // A person's days, with every entry of them: whether another differs is judged on them all.
        .$if(options.userId !== undefined, (query) =>
          query.where(({ eb, refTuple, selectFrom }) =>
            eb(
              refTuple('p.gid', 'p.result_date'),
              'in',
              selectFrom('pending_declarations as own')
                .select(['own.gid', 'own.result_date'])
                .where('own.user_id', '=', options.userId as number)
                .$asTuple('gid', 'result_date'),
            ),
          ),
        )
        .orderBy('p.result_date', 'desc')
        .orderBy('g.order_id')
        .orderBy('p.gid')
        .orderBy('p.submitted_at')
        .limit(options.limit)
        .execute()
    );
  }
}
