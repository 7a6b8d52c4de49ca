import { sql } from 'kysely';
import { countRows, type Database, type Executor } from '../../db/database.js';

export interface ResultRow {
  result_id: number;
  gid: number;
  result_date: string;
  value: string;
  is_active: number;
  updated_at: string;
  name_en: string;
  created_by: number | null;
  author_display_name: string | null;
  author_username: string | null;
}

export interface ResultFilter {
  /** YYYY-MM */
  month?: string;
  search?: string;
  /** Whether the search also matches who declared a result (admins only: others may not learn it). */
  searchAuthors?: boolean;
  gids?: number[];
  /** Public readers do not see results of deleted ghadis. */
  liveGhadisOnly: boolean;
}

export interface SubmittedResult {
  gid: number;
  date: string;
  value: string;
  userId: number;
  now: string;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export class ResultsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * One result per ghadi and date: a first submission inserts, a later one replaces the value
   * and records the old one in result_history. Runs in the caller's transaction (the change log's).
   */
  async upsert(trx: Executor, input: SubmittedResult): Promise<{ replaced: boolean }> {
    const inserted = await trx
      .insertInto('results')
      .values({
        gid: input.gid,
        result_date: input.date,
        value: input.value,
        created_by: input.userId,
        created_at: input.now,
        updated_at: input.now,
      })
      .onConflict((conflict) => conflict.columns(['gid', 'result_date']).doNothing())
      .returning('result_id')
      .executeTakeFirst();
    if (inserted) return { replaced: false };

    const existing = await trx
      .selectFrom('results')
      .select(['result_id', 'value'])
      .where('gid', '=', input.gid)
      .where('result_date', '=', input.date)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('result_history')
      .values({
        result_id: existing.result_id,
        old_value: existing.value,
        new_value: input.value,
        changed_by: input.userId,
        changed_at: input.now,
      })
      .execute();
    await trx
      .updateTable('results')
      .set({ value: input.value, created_by: input.userId, updated_at: input.now, is_active: 1 })
      .where('result_id', '=', existing.result_id)
      .execute();
    return { replaced: true };
  }

  async findOne(gid: number, date: string, liveGhadisOnly = false): Promise<ResultRow | undefined> {
    return this.query({ liveGhadisOnly })
      .where('r.gid', '=', gid)
      .where('r.result_date', '=', date)
      .executeTakeFirst();
  }

  async list(filter: ResultFilter, page?: { offset: number; limit: number }): Promise<ResultRow[]> {
    return this.query(filter)
      .orderBy('r.result_date', 'desc')
      .orderBy('g.order_id')
      .orderBy('r.result_id', 'desc')
      .$if(page !== undefined, (query) => query.limit(page?.limit ?? 0).offset(page?.offset ?? 0))
      .execute();
  }

  async countMatching(filter: ResultFilter): Promise<number> {
    return countRows(this.db.selectFrom(this.query(filter).as('matching')));
  }

  async countAll(): Promise<number> {
    return countRows(this.db.selectFrom('results').where('is_active', '=', 1));
  }

  async historyOf(gid: number, date: string) {
    return this.db
      .selectFrom('result_history as h')
      .innerJoin('results as r', 'r.result_id', 'h.result_id')
      .select(['h.old_value', 'h.new_value', 'h.changed_by', 'h.changed_at'])
      .where('r.gid', '=', gid)
      .where('r.result_date', '=', date)
      .orderBy('h.history_id')
      .execute();
  }

  private query(filter: ResultFilter) {
    let query = this.db
      .selectFrom('results as r')
      .innerJoin('ghadis as g', 'g.gid', 'r.gid')
      .leftJoin('users as u', 'u.user_id', 'r.created_by')
      .select([
        'r.result_id',
        'r.gid',
        'r.result_date',
        'r.value',
        'r.is_active',
        'r.updated_at',
        'r.created_by',
        'g.name_en',
        'u.display_name as author_display_name',
        'u.username as author_username',
      ])
      .where('r.is_active', '=', 1);
    if (filter.liveGhadisOnly) query = query.where('g.is_deleted', '=', 0);
    if (filter.gids) query = query.where('r.gid', 'in', filter.gids.length ? filter.gids : [-1]);
    if (filter.month) {
      query = query
        .where('r.result_date', '>=', `${filter.month}-01`)
        .where('r.result_date', '<=', `${filter.month}-31`);
    }
    if (filter.search) {
      const pattern = `%${escapeLike(filter.search.toLowerCase())}%`;
      const columns = [
        ...(filter.searchAuthors ? ['u.display_name', 'u.username'] : []),
        'g.name_en',
        'r.value',
        'r.result_date',
      ];
      query = query.where((eb) =>
        eb.or(columns.map((column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`)),
      );
    }
    return query;
  }
}
