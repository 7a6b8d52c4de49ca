import fs from 'node:fs';
import type { Database, Executor } from '../../db/database.js';
import {
  DUMP_FORMAT,
  DUMP_FORMAT_VERSION,
  DumpError,
  type DumpHeader,
  type DumpSummary,
  DumpWriter,
  type RowCounts,
} from './dump-format.js';
import { DumpRepository, type DumpRow } from './dump-repository.js';
import { TABLE_ORDER, type TableName, tableSpec } from './dump-tables.js';
import { isMissingTable, migrationMismatch } from './migration-mismatch.js';

/** Rows read per query: enough to amortize a round trip, few enough that memory stays flat. */
const PAGE_SIZE = 1000;

export interface ExportOptions {
  /** Rows per keyset page (tests use a small one to cross page boundaries). */
  pageSize?: number;
}

/**
 * Writes every table to `file` (gzip NDJSON) from one snapshot, so a running site's writes during the
 * export are in it entirely or not at all. The file appears only once complete.
 */
export async function exportDatabase(
  database: Database,
  file: string,
  options: ExportOptions = {},
): Promise<DumpSummary> {
  const partial = `${file}.partial`;
  const writer = new DumpWriter(partial);
  try {
    const summary = await inSnapshot(database, (trx) =>
      writeDump(new DumpRepository(trx), database, writer, options.pageSize ?? PAGE_SIZE),
    );
    await writer.end();
    await fs.promises.rename(partial, file);
    return summary;
  } catch (error) {
    await writer.abort();
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
}

/**
 * One read transaction. PostgreSQL: repeatable read gives every query the snapshot of the first.
 * SQLite (WAL): a read transaction sees the database as at its first read until it ends, while the
 * site goes on writing through its own connection.
 */
function inSnapshot<T>(database: Database, work: (trx: Executor) => Promise<T>): Promise<T> {
  const transaction = database.db.transaction();
  if (database.dialect === 'sqlite') return transaction.execute(work);
  return transaction.setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
}

async function writeDump(
  repository: DumpRepository,
  database: Database,
  writer: DumpWriter,
  pageSize: number,
): Promise<DumpSummary> {
  const migrations = await repository.executedMigrations().catch((error: unknown) => {
    throw isMissingTable(error)
      ? new DumpError('The database has no migrations table: no server of this site has run on it')
      : error;
  });
  const mismatch = migrationMismatch(migrations);
  if (mismatch) throw new DumpError(`The database cannot be exported by this version: ${mismatch}`);
  const header: DumpHeader = {
    format: DUMP_FORMAT,
    formatVersion: DUMP_FORMAT_VERSION,
    migrations,
    exportedAt: new Date().toISOString(),
    dialect: database.dialect,
  };
  await writer.write([header]);
  const counts = {} as RowCounts;
  for (const table of TABLE_ORDER) counts[table] = await writeTable(repository, table, writer, pageSize);
  await writer.write([{ counts }]);
  return { header, counts };
}

async function writeTable(
  repository: DumpRepository,
  table: TableName,
  writer: DumpWriter,
  pageSize: number,
): Promise<number> {
  const { key, bigints = [], binary = [], omit, transient, rowsPerPage } = tableSpec(table);
  if (transient) return 0;
  const limit = Math.min(pageSize, rowsPerPage ?? pageSize);
  let after: unknown;
  let count = 0;
  for (;;) {
    const rows = await repository.page(table, key, after, limit, omit);
    if (rows.length > 0)
      await writer.write(rows.map((row) => ({ table, row: normalize(row, bigints, binary) })));
    count += rows.length;
    if (rows.length < limit) return count;
    after = rows[rows.length - 1]?.[key];
  }
}

/**
 * The same row reads the same from either database: columns in name order, PostgreSQL's bigints
 * (answered as text) as numbers, as SQLite answers them, and bytes as base64 (JSON has no bytes).
 */
function normalize(row: DumpRow, bigints: readonly string[], binary: readonly string[]): DumpRow {
  const out: DumpRow = {};
  for (const column of Object.keys(row).sort()) {
    const value = row[column];
    if (binary.includes(column)) out[column] = toBase64(value, column);
    else
      out[column] =
        bigints.includes(column) || typeof value === 'bigint' ? toSafeNumber(value, column) : value;
  }
  return out;
}

function toBase64(value: unknown, column: string): string | null {
  if (value === null) return null;
  if (!(value instanceof Uint8Array)) throw new DumpError(`Column ${column} holds no bytes`);
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}

function toSafeNumber(value: unknown, column: string): number | null {
  if (value === null) return null;
  const number = Number(value);
  if (!Number.isSafeInteger(number))
    throw new DumpError(`Column ${column} holds ${String(value)}, not an integer`);
  return number;
}
