import { type SelectQueryBuilder, sql } from 'kysely';
import { foldName } from '../../../shared/names.js';
import { countRows, type Database, type Dialect, type Executor } from '../../db/database.js';
import type { DatabaseSchema } from '../../db/schema.js';

export interface ResultRow {
  result_id: number;
  gid: number;
  result_date: string;
  value: string;
  is_active: number;
  updated_at: string;
  previous_value: string | null;
  declared_at: string;
  name_en: string;
  created_by: number | null;
  author_display_name: string | null;
  author_username: string | null;
}

export interface ResultFilter {
  /** YYYY-MM */
  month?: string;
  /** A ghadi name or part of one, a result value, a date (YYYY, YYYY-MM or YYYY-MM-DD), or an author. */
  search?: string;
  /** Whether the search also matches who declared a result (admins only: others may not learn it). */
  searchAuthors?: boolean;
  gids?: number[];
  /** Public readers do not see results of deleted ghadis. */
  liveGhadisOnly: boolean;
}

/** A query on `results as r`. */
type FromResults = DatabaseSchema & { r: DatabaseSchema['results'] };

export interface PageRequest {
  page: number;
  limit: number;
}

/** Where the unpaged list goes on from: the last row of the chunk before. */
interface ListCursor {
  resultDate: string;
  resultId: number;
}

/** Up to this many ghadis or authors, a search looks their rows up in their own index. */
const FEW_FOR_AN_INDEX = 3;

/**
 * A searched column, as SQLite should use it. SQLite keeps no statistics (the app runs no ANALYZE),
 * so for a search naming many ghadis or authors it would still look each up in its own index, then
 * gather and sort all their rows: for a search matching most ghadis, every row. Compared as a value
 * (unary plus hides the column from the planner), the search walks the listing index in list order
 * instead and stops once the page is full. PostgreSQL plans by statistics and gets the plain column.
 */
function searchColumn(dialect: Dialect, column: 'r.gid' | 'r.created_by', ids: readonly number[]) {
  return dialect === 'sqlite' && ids.length > FEW_FOR_AN_INDEX
    ? sql<number>`+${sql.ref(column)}`
    : sql.ref<number>(column);
}

/** The first and last date a search text names, when it is a date, a month or a year. */
function dateRangeOf(text: string): [string, string] | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return [text, text];
  if (/^\d{4}-\d{2}$/.test(text)) return [`${text}-01`, `${text}-31`];
  if (/^\d{4}$/.test(text)) return [`${text}-01-01`, `${text}-12-31`];
  return null;
}

export class ResultsListRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async findOne(
    gid: number,
    date: string,
    liveGhadisOnly = false,
    db: Executor = this.db,
  ): Promise<ResultRow | undefined> {
    return this.withDetails(db.selectFrom('results as r'))
      .where('r.gid', '=', gid)
      .where('r.result_date', '=', date)
      .$if(liveGhadisOnly, (query) => query.where('g.is_deleted', '=', 0))
      .executeTakeFirst();
  }

  /** Every matching result, newest first: for short lists (a month, a ghadi's results). */
  async list(filter: ResultFilter): Promise<ResultRow[]> {
    const matching = await this.matching(filter);
    return this.withDetails(matching)
      .orderBy('r.result_date', 'desc')
      .orderBy('r.result_id', 'desc')
      .execute();
  }

  /**
   * One page of the list and the number of matching results. The page's ids come from the index alone;
   * only its rows are joined. A page in the back half is read from the other end, so that no page
   * reads more than half of the index.
   */
  async page(
    filter: ResultFilter,
    { page, limit }: PageRequest,
  ): Promise<{ rows: ResultRow[]; total: number }> {
    const matching = await this.matching(filter);
    const total = await countRows(matching);
    const offset = (page - 1) * limit;
    if (offset >= total) return { rows: [], total };
    const fromEnd = offset > total / 2;
    const direction = fromEnd ? 'asc' : 'desc';
    const ids = matching
      .select('r.result_id')
      .orderBy('r.result_date', direction)
      .orderBy('r.result_id', direction)
      .limit(fromEnd ? Math.min(limit, total - offset) : limit)
      .offset(fromEnd ? Math.max(0, total - offset - limit) : offset);
    const rows = await this.withDetails(this.db.selectFrom('results as r'))
      .where('r.result_id', 'in', ids)
      .orderBy('r.result_date', 'desc')
      .orderBy('r.result_id', 'desc')
      .execute();
    return { rows, total };
  }

  /**
   * The whole list in chunks, newest first, each read after the last row of the one before (no
   * offsets): a caller can send each chunk before reading the next, and others are served between.
   */
  async *chunks(filter: ResultFilter, size: number): AsyncGenerator<ResultRow[]> {
    const matching = await this.matching(filter);
    let cursor: ListCursor | null = null;
    for (;;) {
      const after: ListCursor | null = cursor;
      const rows: ResultRow[] = await this.withDetails(matching)
        .$if(after !== null, (query) =>
          query.where((eb) =>
            // The first condition bounds the index range; the second steps past the rows already sent.
            eb.and([
              eb('r.result_date', '<=', after?.resultDate ?? ''),
              eb.or([
                eb('r.result_date', '<', after?.resultDate ?? ''),
                eb('r.result_id', '<', after?.resultId ?? 0),
              ]),
            ]),
          ),
        )
        .orderBy('r.result_date', 'desc')
        .orderBy('r.result_id', 'desc')
        .limit(size)
        .execute();
      if (rows.length > 0) yield rows;
      const last: ResultRow | undefined = rows.at(-1);
      if (!last || rows.length < size) return;
      cursor = { resultDate: last.result_date, resultId: last.result_id };
    }
  }

  async countAll(): Promise<number> {
    return countRows(this.db.selectFrom('results').where('is_active', '=', 1));
  }

  /**
   * The matching results, on the results table alone: every condition is one an index answers in list
   * order (by date, by ghadi, by author, by value). Names are matched in code, on the few ghadis and
   * users, with the same Unicode fold on both databases.
   */
  private async matching(filter: ResultFilter) {
    let query = this.db.selectFrom('results as r').where('r.is_active', '=', 1);
    if (filter.liveGhadisOnly) {
      const deleted = await this.deletedGids();
      if (deleted.length) query = query.where('r.gid', 'not in', deleted);
    }
    if (filter.gids) {
      const gids = filter.gids.length ? filter.gids : [-1];
      query = query.where(searchColumn(this.database.dialect, 'r.gid', gids), 'in', gids);
    }
    if (filter.month) {
      query = query
        .where('r.result_date', '>=', `${filter.month}-01`)
        .where('r.result_date', '<=', `${filter.month}-31`);
    }
    const search = filter.search?.trim();
    if (search) {
      const [gids, authors] = await Promise.all([
        this.ghadisNamed(search),
        filter.searchAuthors ? this.usersNamed(search) : [],
      ]);
      const dates = dateRangeOf(search);
      query = query.where((eb) =>
        eb.or([
          // Values are stored as typed and found in any case.
          eb(sql<string>`lower(${sql.ref('r.value')})`, '=', search.toLowerCase()),
          ...(gids.length ? [eb(searchColumn(this.database.dialect, 'r.gid', gids), 'in', gids)] : []),
          ...(authors.length
            ? [eb(searchColumn(this.database.dialect, 'r.created_by', authors), 'in', authors)]
            : []),
          ...(dates
            ? [eb.and([eb('r.result_date', '>=', dates[0]), eb('r.result_date', '<=', dates[1])])]
            : []),
        ]),
      );
    }
    return query;
  }

  private async deletedGids(): Promise<number[]> {
    const rows = await this.db.selectFrom('ghadis').select('gid').where('is_deleted', '=', 1).execute();
    return rows.map((row) => row.gid);
  }

  private async ghadisNamed(text: string): Promise<number[]> {
    const folded = foldName(text);
    const ghadis = await this.db.selectFrom('ghadis').select(['gid', 'name_folded']).execute();
    return ghadis.filter((ghadi) => ghadi.name_folded.includes(folded)).map((ghadi) => ghadi.gid);
  }

  private async usersNamed(text: string): Promise<number[]> {
    const folded = foldName(text);
    const users = await this.db.selectFrom('users').select(['user_id', 'username', 'display_name']).execute();
    return users
      .filter(
        (user) => foldName(user.display_name).includes(folded) || foldName(user.username).includes(folded),
      )
      .map((user) => user.user_id);
  }

  /** The columns a list shows, joined for the rows of one page or chunk only. */
  private withDetails<O>(query: SelectQueryBuilder<FromResults, 'r', O>) {
    return query
      .innerJoin('ghadis as g', 'g.gid', 'r.gid')
      .leftJoin('users as u', 'u.user_id', 'r.created_by')
      .select([
        'r.result_id',
        'r.gid',
        'r.result_date',
        'r.value',
        'r.is_active',
        'r.updated_at',
        'r.previous_value',
        'r.declared_at',
        'r.created_by',
        'g.name_en',
        'u.display_name as author_display_name',
        'u.username as author_username',
      ]);
  }
}
