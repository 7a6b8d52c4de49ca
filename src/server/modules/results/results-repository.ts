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

/** The periods that have results: the years and months the chart pages exist for. */
export interface ChartPeriods {
  /** Each live ghadi's years with an active result, ascending (a ghadi with none is absent). */
  years: Map<number, number[]>;
  /** Months (YYYY-MM) with an active result of any live ghadi, ascending. */
  months: string[];
}

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

export interface SubmittedResult {
  gid: number;
  date: string;
  value: string;
  userId: number;
  now: string;
}

/** What a submission did: the value it replaced, when it replaced one. */
/** A result as a chart cell needs it. */
export interface ChartCellRow {
  result_date: string;
  value: string;
  previous_value: string | null;
}

export interface UpsertOutcome {
  kind: 'created' | 'corrected' | 'unchanged';
  previous: string | null;
}

export class ResultsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * One result per ghadi and date: a first submission inserts, a later one with another value replaces
   * it and records the old one in result_history; the same value again changes nothing. Runs in the
   * caller's transaction (the change log's), which appends what changed to the declaration log.
   */
  async upsert(trx: Executor, input: SubmittedResult): Promise<UpsertOutcome> {
    await this.lockResult(trx, input.gid, input.date);
    const inserted = await trx
      .insertInto('results')
      .values({
        gid: input.gid,
        result_date: input.date,
        value: input.value,
        created_by: input.userId,
        created_at: input.now,
        updated_at: input.now,
        declared_at: input.now,
        previous_value: null,
      })
      .onConflict((conflict) => conflict.columns(['gid', 'result_date']).doNothing())
      .returning('result_id')
      .executeTakeFirst();
    if (inserted) return { kind: 'created', previous: null };

    const existing = await trx
      .selectFrom('results')
      .select(['result_id', 'value', 'is_active'])
      .where('gid', '=', input.gid)
      .where('result_date', '=', input.date)
      .executeTakeFirstOrThrow();
    if (existing.value === input.value) {
      if (existing.is_active !== 1)
        await trx
          .updateTable('results')
          .set({ is_active: 1 })
          .where('result_id', '=', existing.result_id)
          .execute();
      return { kind: 'unchanged', previous: existing.value };
    }
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
      .set({
        value: input.value,
        created_by: input.userId,
        updated_at: input.now,
        is_active: 1,
        previous_value: existing.value,
        declared_at: input.now,
      })
      .where('result_id', '=', existing.result_id)
      .execute();
    return { kind: 'corrected', previous: existing.value };
  }

  /**
   * Holds one result (ghadi and date) until `trx` ends, before it is read. PostgreSQL reads each
   * statement as committed when it starts: without the lock, writers of the same new value at once
   * would all read the old one and each record a correction; with it, each reads what the one before
   * committed, and the same value again is seen as such. A transaction-scoped advisory lock on two
   * 32-bit keys, a space apart from the app's single-key locks (the declaration log's, the change
   * log's): a collision of two results' keys only makes them wait for each other. SQLite has one
   * writer at a time already.
   */
  private async lockResult(trx: Executor, gid: number, date: string): Promise<void> {
    if (this.database.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(${gid}::integer, hashtext(${date}))`.execute(trx);
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

  /** Every matching result, newest first: for short lists (a month, a ghadi's results). */
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
