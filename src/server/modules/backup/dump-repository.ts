import { type Kysely, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { TableName } from './dump-tables.js';

export type DumpRow = Record<string, unknown>;

/** Rows left out: those whose `column` holds one of `values`. */
export interface Omitted {
  column: string;
  values: readonly string[];
}

/** The tables as the dump sees them: rows of whatever columns, moved by name. */
type AnyTables = Record<string, DumpRow>;

/** All SQL of db:export and db:import, on the database or the transaction the service opened. */
export class DumpRepository {
  private readonly tables: Kysely<AnyTables>;

  constructor(private readonly db: Executor) {
    // The dump moves every table the same way, so it gives up the per-table column types here.
    this.tables = db as unknown as Kysely<AnyTables>;
  }

  async executedMigrations(): Promise<string[]> {
    const result = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      this.db,
    );
    return result.rows.map((row) => row.name);
  }

  /**
   * The rows after key `after` (all from the start when undefined), in key order, but those whose
   * `omit.column` is one of `omit.values`: one keyset page.
   */
  page(table: TableName, key: string, after: unknown, limit: number, omit?: Omitted): Promise<DumpRow[]> {
    let query = this.tables.selectFrom(table).selectAll().orderBy(key).limit(limit);
    if (after !== undefined) query = query.where(key, '>', after);
    if (omit) query = query.where(omit.column, 'not in', omit.values);
    return query.execute();
  }

  /** Deletes the rows whose `omit.column` is one of `omit.values`. */
  async deleteOmitted(table: TableName, omit: Omitted): Promise<void> {
    await this.tables.deleteFrom(table).where(omit.column, 'in', omit.values).execute();
  }

  /** SQLite: rewrites the file, so that the bytes of deleted rows are gone from it, not only unlinked. */
  async vacuum(): Promise<void> {
    await sql`vacuum`.execute(this.db);
  }

  /** Whether the table has a row, not counting one equal to `except` in its columns. */
  async hasRows(table: TableName, except?: DumpRow): Promise<boolean> {
    let query = this.tables.selectFrom(table).select(sql<number>`1`.as('one'));
    if (except) query = query.where((eb) => eb.not(eb.and(except)));
    return (await query.limit(1).executeTakeFirst()) !== undefined;
  }

  /** Deletes every row, or those equal to `only` in its columns. */
  async deleteRows(table: TableName, only?: DumpRow): Promise<void> {
    let query = this.tables.deleteFrom(table);
    if (only) query = query.where((eb) => eb.and(only));
    await query.execute();
  }

  async insert(table: TableName, rows: DumpRow[]): Promise<void> {
    if (rows.length > 0) await this.tables.insertInto(table).values(rows).execute();
  }

  /**
   * PostgreSQL only: rows inserted with their keys leave the identity sequence where it was, so the
   * next generated key would collide; move it past the highest key (to 1 on an empty table).
   */
  async moveSequencePastKeys(table: TableName, column: string): Promise<void> {
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false) from ${sql.table(table)}`.execute(
      this.db,
    );
  }
}
