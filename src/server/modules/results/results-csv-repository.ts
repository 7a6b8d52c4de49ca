import { sql } from 'kysely';
import type { GhadiKind } from '../../../shared/matka.js';
import type { Database, Executor } from '../../db/database.js';

/** One exported line. */
export interface ExportRow {
  result_date: string;
  gid: number;
  name_en: string;
  value: string;
}

export interface ExportFilter {
  from: string;
  to: string;
  gid?: number | undefined;
}

/** A ghadi as an import names it: by GID or by its folded English name. */
export interface GhadiEntry {
  gid: number;
  name_en: string;
  name_folded: string;
  deleted: boolean;
  kind: GhadiKind;
}

/** A stored result an imported line may match. */
export interface StoredResult {
  resultId: number;
  value: string;
}
/** Stored results by `ghadi|date` (resultKey). */
export type StoredResults = Map<string, StoredResult>;

export const resultKey = (gid: number, date: string) => `${gid}|${date}`;

/** New results written in one statement each: 6 parameters a row stays well under both databases' limits. */
const INSERT_BATCH = 500;

export interface NewResult {
  gid: number;
  date: string;
  value: string;
}

/** A stored result and the value an import gives it. */
export interface Correction {
  stored: StoredResult;
  value: string;
  /** The value completes the stored open half: not a correction (previous_value stays null). */
  completes: boolean;
}

/** The SQL of CSV export and import; the rules are in results-csv-service.ts. */
export class ResultsCsvRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Live ghadis' active results in a date range (and of one ghadi), the query every page refines. */
  private exported(filter: ExportFilter) {
    return this.db
      .selectFrom('results as r')
      .innerJoin('ghadis as g', 'g.gid', 'r.gid')
      .where('r.result_date', '>=', filter.from)
      .where('r.result_date', '<=', filter.to)
      .where('r.is_active', '=', 1)
      .where('g.is_deleted', '=', 0)
      .$if(filter.gid !== undefined, (query) => query.where('r.gid', '=', filter.gid ?? 0));
  }

  /**
   * The range in pages of about `size` rows, by date then GID, each page whole days. No index holds
   * (date, gid) in that order, so each page first finds the date its `size`-th row falls on (walking
   * the date index only), then reads and sorts those days alone: every page costs the same, however
   * far into the range it is, and memory holds one page.
   */
  async *pages(filter: ExportFilter, size: number): AsyncGenerator<ExportRow[]> {
    let after: string | null = null;
    for (;;) {
      const from: string | null = after;
      const boundary: { result_date: string } | undefined = await this.exported(filter)
        .select('r.result_date')
        .$if(from !== null, (query) => query.where('r.result_date', '>', from ?? ''))
        .orderBy('r.result_date')
        .limit(1)
        .offset(size - 1)
        .executeTakeFirst();
      const until: string = boundary?.result_date ?? filter.to;
      const rows = await this.exported(filter)
        .select(['r.result_date', 'r.gid', 'g.name_en', 'r.value'])
        .$if(from !== null, (query) => query.where('r.result_date', '>', from ?? ''))
        .where('r.result_date', '<=', until)
        .orderBy('r.result_date')
        .orderBy('r.gid')
        .execute();
      if (rows.length > 0) yield rows;
      if (!boundary || until >= filter.to) return;
      after = until;
    }
  }

  /** Every ghadi, deleted ones included (an import names a deleted one: that line is refused). */
  async ghadis(): Promise<GhadiEntry[]> {
    const rows = await this.db
      .selectFrom('ghadis')
      .select(['gid', 'name_en', 'name_folded', 'is_deleted', 'kind'])
      .execute();
    return rows.map(({ is_deleted, ...row }) => ({ ...row, deleted: is_deleted === 1 }));
  }

  /** The stored results of these ghadis between two dates: what an import's lines are compared with. */
  async stored(gids: number[], from: string, to: string, trx: Executor = this.db): Promise<StoredResults> {
    const stored: StoredResults = new Map();
    if (gids.length === 0) return stored;
    const rows = await trx
      .selectFrom('results')
      .select(['result_id', 'gid', 'result_date', 'value'])
      .where('gid', 'in', gids)
      .where('result_date', '>=', from)
      .where('result_date', '<=', to)
      .execute();
    for (const row of rows) {
      stored.set(resultKey(row.gid, row.result_date), {
        resultId: row.result_id,
        value: row.value,
      });
    }
    return stored;
  }

  /**
   * Inserts results that were not stored when the import read them, many to a statement; returns
   * those another writer stored meanwhile (the caller upserts them, which keeps their history).
   */
  async insertNew<T extends NewResult>(
    trx: Executor,
    results: T[],
    userId: number,
    now: string,
  ): Promise<T[]> {
    const missed: T[] = [];
    for (let start = 0; start < results.length; start += INSERT_BATCH) {
      const batch = results.slice(start, start + INSERT_BATCH);
      const inserted = await trx
        .insertInto('results')
        .values(
          batch.map((result) => ({
            gid: result.gid,
            result_date: result.date,
            value: result.value,
            created_by: userId,
            created_at: now,
            updated_at: now,
            declared_at: now,
            previous_value: null,
          })),
        )
        .onConflict((conflict) => conflict.columns(['gid', 'result_date']).doNothing())
        .returning(['gid', 'result_date'])
        .execute();
      const done = new Set(inserted.map((row) => resultKey(row.gid, row.result_date)));
      missed.push(...batch.filter((result) => !done.has(resultKey(result.gid, result.date))));
    }
    return missed;
  }

  /**
   * Replaces stored values as ResultsWriteRepository.upsert does (the old value goes to result_history,
   * the result becomes the importer's and active), many rows to a statement: one by one, 110 000
   * corrections took over a minute on PostgreSQL.
   */
  async correct(trx: Executor, corrections: Correction[], userId: number, now: string): Promise<void> {
    for (let start = 0; start < corrections.length; start += INSERT_BATCH) {
      const batch = corrections.slice(start, start + INSERT_BATCH);
      await trx
        .insertInto('result_history')
        .values(
          batch.map(({ stored, value }) => ({
            result_id: stored.resultId,
            old_value: stored.value,
            new_value: value,
            changed_by: userId,
            changed_at: now,
          })),
        )
        .execute();
      await trx
        .updateTable('results')
        .set({
          value: sql<string>`case result_id ${sql.join(
            batch.map(({ stored, value }) => sql`when ${stored.resultId} then ${value}`),
            sql` `,
          )} else value end`,
          previous_value: sql<string>`case result_id ${sql.join(
            batch.map(
              ({ stored, completes }) => sql`when ${stored.resultId} then ${completes ? null : stored.value}`,
            ),
            sql` `,
          )} else previous_value end`,
          created_by: userId,
          updated_at: now,
          declared_at: now,
          is_active: 1,
        })
        .where(
          'result_id',
          'in',
          batch.map(({ stored }) => stored.resultId),
        )
        .execute();
    }
  }
}
