import { type Database, inLockedTransaction } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { SettingsRepository } from '../settings/settings-repository.js';
import { holdKeyLock, storedGeneration, writeNewKey } from '../settings/signing-key-store.js';
import {
  DUMP_FORMAT,
  DUMP_FORMAT_VERSION,
  DumpError,
  type DumpHeader,
  type DumpSummary,
  dumpHeaderSchema,
  parseLine,
  readDumpLines,
} from './dump-format.js';
import { loadRows } from './dump-loader.js';
import { DumpRepository } from './dump-repository.js';
import { TABLE_ORDER, type TableName, tableSpec } from './dump-tables.js';
import { isMissingTable, migrationMismatch } from './migration-mismatch.js';

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
