import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { openOwnerOnly } from '../../lib/owner-only-files.js';
import { DumpError } from './dump-format.js';
import { DumpRepository } from './dump-repository.js';
import { TABLE_ORDER, tableSpec } from './dump-tables.js';

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
