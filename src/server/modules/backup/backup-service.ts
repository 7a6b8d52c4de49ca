import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { type Database, type Executor, inLockedTransaction } from '../../db/database.js';
import { knownMigrations, migrateToLatest } from '../../db/migrate.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { openOwnerOnly } from '../../lib/owner-only-files.js';
import { SettingsRepository } from '../settings/settings-repository.js';
import { holdKeyLock, storedGeneration, writeNewKey } from '../settings/signing-key-store.js';
import {
  DUMP_FORMAT,
  DUMP_FORMAT_VERSION,
  DumpError,
  type DumpHeader,
  DumpWriter,
  dumpHeaderSchema,
  parseLine,
  readDumpLines,
} from './dump-format.js';
import { loadRows } from './dump-loader.js';
import { DumpRepository, type DumpRow } from './dump-repository.js';
import { TABLE_ORDER, type TableName, tableSpec } from './dump-tables.js';

/** Rows read per query: enough to amortize a round trip, few enough that memory stays flat. */
const PAGE_SIZE = 1000;

export type RowCounts = Record<TableName, number>;

export interface DumpSummary {
  header: DumpHeader;
  counts: RowCounts;
}

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
  const { key, bigints = [], omit, transient } = tableSpec(table);
  if (transient) return 0;
  let after: unknown;
  let count = 0;
  for (;;) {
    const rows = await repository.page(table, key, after, pageSize, omit);
    if (rows.length > 0) await writer.write(rows.map((row) => ({ table, row: normalize(row, bigints) })));
    count += rows.length;
    if (rows.length < pageSize) return count;
    after = rows[rows.length - 1]?.[key];
  }
}

/**
 * The same row reads the same from either database: columns in name order, and PostgreSQL's bigints
 * (answered as text) as numbers, as SQLite answers them.
 */
function normalize(row: DumpRow, bigints: readonly string[]): DumpRow {
  const out: DumpRow = {};
  for (const column of Object.keys(row).sort()) {
    const value = row[column];
    out[column] = bigints.includes(column) || typeof value === 'bigint' ? toSafeNumber(value, column) : value;
  }
  return out;
}

function toSafeNumber(value: unknown, column: string): number | null {
  if (value === null) return null;
  const number = Number(value);
  if (!Number.isSafeInteger(number))
    throw new DumpError(`Column ${column} holds ${String(value)}, not an integer`);
  return number;
}

export function isMissingTable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '42P01' || (typeof message === 'string' && message.startsWith('no such table'));
}

/** Why a database or dump with these migrations does not match this code, or undefined when it does. */
function migrationMismatch(migrations: string[]): string | undefined {
  const known = knownMigrations();
  const unknown = migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    return `it has migrations this version does not know (${unknown.join(', ')}): use the version that made it`;
  const missing = known.filter((name) => !migrations.includes(name));
  if (missing.length > 0)
    return `it lacks migrations this version has (${missing.join(', ')}): bring it up to date with its own version first`;
  return undefined;
}

export interface ImportOptions {
  /** Delete every row of the target first (in the same transaction); without it a non-empty target is refused. */
  force?: boolean;
}

/**
 * Loads a dump into `database`: migrates it, refuses a dump of other migrations or (without force) a
 * target with any row, then inserts every row with its keys in one transaction, which the trailer's
 * counts must confirm before it commits: a damaged file leaves the target as it was. The same
 * transaction stores a new signing key (a dump has none), so every session on the target ends.
 */
export async function importDump(
  database: Database,
  file: string,
  options: ImportOptions = {},
): Promise<DumpSummary> {
  const lines = readDumpLines(file);
  try {
    const header = await readHeader(lines);
    const mismatch = migrationMismatch(header.migrations);
    if (mismatch) throw new DumpError(`The dump cannot be imported by this version: ${mismatch}`);
    await prepareTarget(database, options.force === true);
    const counts = await inLockedTransaction(database, 'db-import', async (trx) => {
      await holdKeyLock(database, trx);
      const repository = new DumpRepository(trx);
      const settings = new SettingsRepository({ ...database, db: trx });
      // Past the target's own generation: its running processes, if any, see the key change.
      const generation = await storedGeneration(settings);
      await clear(repository, options.force === true);
      const loaded = await loadRows(repository, lines);
      if (database.dialect === 'postgres') await moveSequences(repository);
      await writeNewKey(settings, generation);
      return loaded;
    });
    return { header, counts };
  } finally {
    await lines.return(undefined);
  }
}

/**
 * A new database is migrated; a site's database is checked first and left as it is when refused (a
 * mistyped DATABASE_URL naming an older site must not be upgraded on the way to a refusal).
 */
async function prepareTarget(database: Database, force: boolean): Promise<void> {
  const repository = new DumpRepository(database.db);
  const executed = await repository.executedMigrations().catch((error: unknown) => {
    if (isMissingTable(error)) return null;
    throw error;
  });
  if (executed === null) {
    await migrateToLatest(database);
    return;
  }
  const mismatch = migrationMismatch(executed);
  if (mismatch) {
    throw new DumpError(
      `The target database does not match this version (${mismatch}): start this version's server on it once, or import into a new database`,
    );
  }
  if (!force) await requireEmpty(repository);
}

async function readHeader(lines: AsyncGenerator<string>): Promise<DumpHeader> {
  const first = await lines.next();
  if (first.done) throw new DumpError('The dump is empty');
  const header = dumpHeaderSchema.safeParse(parseLine(first.value, 1));
  if (!header.success) {
    throw new DumpError(
      `The file is not a ${DUMP_FORMAT} of version ${DUMP_FORMAT_VERSION} (its first line is not the header)`,
    );
  }
  return header.data;
}

async function requireEmpty(repository: DumpRepository): Promise<void> {
  const filled: TableName[] = [];
  for (const table of TABLE_ORDER)
    if (await repository.hasRows(table, tableSpec(table).seed)) filled.push(table);
  if (filled.length > 0) {
    throw new DumpError(
      `The target database is not empty (rows in ${filled.join(', ')}); --force deletes them all first`,
    );
  }
}

/** Every row (children before parents), or only the rows the migrations seeded, which the dump has too. */
async function clear(repository: DumpRepository, everything: boolean): Promise<void> {
  for (const table of [...TABLE_ORDER].reverse()) {
    const { seed } = tableSpec(table);
    if (everything || seed) await repository.deleteRows(table, everything ? undefined : seed);
  }
}

async function moveSequences(repository: DumpRepository): Promise<void> {
  for (const table of TABLE_ORDER) {
    const spec = tableSpec(table);
    if (spec.generated) await repository.moveSequencePastKeys(table, spec.key);
  }
}

/**
 * SQLite only: a page-by-page copy through SQLite's online backup API, consistent while the site
 * writes, then without the signing key (a site started on the copy makes a new one). The file is
 * owner-only from its creation, and appears only once complete. `progress` (for tests) is told
 * after each step but the last, the first of which only opens the copy, and returns the pages to
 * copy next (100 without it); 0 holds the copy, asking SQLite again at every turn of the event loop
 * until it says more.
 */
export async function backupSqlite(
  database: Database,
  file: string,
  progress?: (done: SQLite.BackupMetadata) => number,
): Promise<{ pages: number }> {
  if (!database.sqlite) {
    throw new DumpError('db:backup copies a SQLite database; on PostgreSQL use db:export (or pg_dump)');
  }
  const partial = `${file}.partial`;
  // SQLite's files beside the copy, which an interrupted backup may have left: SQLite would replay them.
  const beside = [`${partial}-journal`, `${partial}-wal`, `${partial}-shm`];
  try {
    await Promise.all(beside.map((left) => fs.promises.rm(left, { force: true })));
    // SQLite writes into an existing empty file as into a new database, and keeps its mode.
    fs.closeSync(openOwnerOnly(partial));
    const { totalPages } = await database.sqlite.backup(partial, progress && { progress });
    await removeOmittedRows(partial);
    await fs.promises.rename(partial, file);
    return { pages: totalPages };
  } catch (error) {
    await Promise.all([partial, ...beside].map((left) => fs.promises.rm(left, { force: true })));
    throw error;
  }
}

/**
 * Deletes the rows dumps leave out from a SQLite copy, then rewrites the whole file (VACUUM): a
 * deleted row's bytes would otherwise stay in the file's free space. The copy leaves WAL mode first,
 * so that it is one file with nothing pending beside it; a server opening it turns WAL on again.
 */
async function removeOmittedRows(file: string): Promise<void> {
  const sqlite = new SQLite(file);
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    sqlite.pragma('journal_mode = DELETE');
    const repository = new DumpRepository(db);
    for (const table of TABLE_ORDER) {
      const { omit, transient } = tableSpec(table);
      if (omit) await repository.deleteOmitted(table, omit);
      if (transient) await repository.deleteRows(table);
    }
    await repository.vacuum();
  } finally {
    await db.destroy();
  }
}
