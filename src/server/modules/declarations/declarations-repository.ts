import { type Selectable, sql } from 'kysely';
import type { GhadiKind } from '../../../shared/matka.js';
import type { Database, Executor } from '../../db/database.js';
import type { DeclarationsTable } from '../../db/schema.js';

export type DeclarationRow = Selectable<DeclarationsTable>;

/** A stored entry with what the public answers add: the ghadi's name and kind. */
export interface DeclarationListRow extends DeclarationRow {
  name_en: string;
  /** The ghadi's kind: an entry's Step is read from it and the stored value's form. */
  kind: GhadiKind;
}

/** An entry as an admin's history shows it: with who declared it. */
export interface DeclarationHistoryRow extends DeclarationListRow {
  declarer_display_name: string | null;
  declarer_username: string | null;
}

export interface DeclarationFilter {
  after: number;
  limit: number;
  gid?: number | undefined;
  date?: string | undefined;
}

/** The one lock every append takes: seq has no gaps and each prevHash is the entry before. */
export const APPEND_LOCK = 'ghadi_declarations';

/** Every query of the declaration log. */
export class DeclarationsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Holds the log for the rest of `trx`. PostgreSQL: a transaction-scoped advisory lock, so two
   * processes never read the same head. SQLite: the transaction has written (the result) before it
   * appends, so it holds the file's one write lock already.
   */
  async lock(trx: Executor): Promise<void> {
    if (this.database.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(${APPEND_LOCK}))`.execute(trx);
  }

  head(db: Executor = this.database.db): Promise<Pick<DeclarationRow, 'seq' | 'hash'> | undefined> {
    return db
      .selectFrom('declarations')
      .select(['seq', 'hash'])
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async insert(trx: Executor, rows: DeclarationRow[]): Promise<void> {
    if (rows.length > 0) await trx.insertInto('declarations').values(rows).execute();
  }

  /** Entries after a seq, oldest first, optionally of one ghadi or one date. */
  list(filter: DeclarationFilter): Promise<DeclarationListRow[]> {
    return this.withNames()
      .where('d.seq', '>', filter.after)
      .$if(filter.gid !== undefined, (query) => query.where('d.gid', '=', filter.gid ?? 0))
      .$if(filter.date !== undefined, (query) => query.where('d.result_date', '=', filter.date ?? ''))
      .orderBy('d.seq')
      .limit(filter.limit)
      .execute();
  }

  /** One ghadi's latest entries, newest first (its feeds). */
  newestOfGhadi(gid: number, limit: number): Promise<DeclarationListRow[]> {
    return this.withNames().where('d.gid', '=', gid).orderBy('d.seq', 'desc').limit(limit).execute();
  }

  /** One result's entries, oldest first (an admin's view of its history). */
  ofResult(gid: number, date: string): Promise<DeclarationHistoryRow[]> {
    return this.withNames()
      .leftJoin('users as u', 'u.user_id', 'd.declared_by')
      .select(['u.display_name as declarer_display_name', 'u.username as declarer_username'])
      .where('d.gid', '=', gid)
      .where('d.result_date', '=', date)
      .orderBy('d.seq')
      .execute();
  }

  /** One result's latest entry (a live event for a change that did not carry it). */
  latestOfResult(gid: number, date: string): Promise<DeclarationListRow | undefined> {
    return this.withNames()
      .where('d.gid', '=', gid)
      .where('d.result_date', '=', date)
      .orderBy('d.seq', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async isEmpty(db: Executor = this.database.db): Promise<boolean> {
    return (await db.selectFrom('declarations').select('seq').limit(1).executeTakeFirst()) === undefined;
  }

  /** Entries in seq order, a chunk at a time (verification walks the whole log). */
  async *chunks(size: number): AsyncGenerator<DeclarationRow[]> {
    let after = 0;
    for (;;) {
      const rows = await this.database.db
        .selectFrom('declarations')
        .selectAll()
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(size)
        .execute();
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
      after = rows[rows.length - 1]?.seq ?? after;
    }
  }

  /** Every stored result's current value, for comparing with the log's latest entries. */
  currentValues(): Promise<Array<{ gid: number; result_date: string; value: string }>> {
    return this.database.db.selectFrom('results').select(['gid', 'result_date', 'value']).execute();
  }

  /** What was declared before the log existed: every result, and every change result_history kept. */
  async pastDeclarations(db: Executor) {
    const [results, changes] = await Promise.all([
      db
        .selectFrom('results')
        .select(['result_id', 'gid', 'result_date', 'value', 'created_by', 'created_at'])
        .execute(),
      db
        .selectFrom('result_history')
        .select(['result_id', 'old_value', 'new_value', 'changed_by', 'changed_at'])
        .whereRef('old_value', '<>', 'new_value')
        .orderBy('changed_at')
        .orderBy('history_id')
        .execute(),
    ]);
    return { results, changes };
  }

  /**
   * The entries whose hash begins with `prefix` (lowercase hex), oldest first, at most `limit`: a range
   * on declarations_by_hash, which holds exactly the strings that begin with it (no hex digit sorts at
   * or after `g`).
   */
  withHashPrefix(prefix: string, limit: number): Promise<DeclarationListRow[]> {
    return this.withNames()
      .where('d.hash', '>=', prefix)
      .where('d.hash', '<', `${prefix}g`)
      .orderBy('d.seq')
      .limit(limit)
      .execute();
  }

  /**
   * The hashes just before and after `hash` in sorted order (null at either end): what its shortest
   * unique prefix is measured against. Two seeks on declarations_by_hash.
   */
  async neighbourHashes(hash: string): Promise<[string | null, string | null]> {
    const [below, above] = await Promise.all([
      this.database.db
        .selectFrom('declarations')
        .select('hash')
        .where('hash', '<', hash)
        .orderBy('hash', 'desc')
        .limit(1)
        .executeTakeFirst(),
      this.database.db
        .selectFrom('declarations')
        .select('hash')
        .where('hash', '>', hash)
        .orderBy('hash')
        .limit(1)
        .executeTakeFirst(),
    ]);
    return [below?.hash ?? null, above?.hash ?? null];
  }

  /**
   * One result's entries after `seq`, oldest first (what later replaced an entry's value). The query
   * names the result alone, which only declarations_by_result serves whole (a result has a handful of
   * entries); a bound on seq would let declarations_by_ghadi look as good, and read every later entry
   * of the ghadi.
   */
  async ofResultAfter(gid: number, date: string, seq: number): Promise<DeclarationRow[]> {
    const rows = await this.database.db
      .selectFrom('declarations')
      .selectAll()
      .where('gid', '=', gid)
      .where('result_date', '=', date)
      .orderBy('seq')
      .execute();
    return rows.filter((row) => row.seq > seq);
  }

  /** Entries with their ghadi's name and kind; the declarer's only where a history shows it (the join is much of a page's read). */
  private withNames() {
    return this.database.db
      .selectFrom('declarations as d')
      .innerJoin('ghadis as g', 'g.gid', 'd.gid')
      .selectAll('d')
      .select(['g.name_en', 'g.kind']);
  }
}
