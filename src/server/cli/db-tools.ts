import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { backupSqlite } from '../modules/backup/backup-service.js';
import { exportDatabase } from '../modules/backup/dump-export.js';
import type { DumpSummary } from '../modules/backup/dump-format.js';
import { importDump } from '../modules/backup/dump-import.js';
import { oneLine, requireFile, whereIs } from './cli-output.js';

/**
 * npm run db:export -- FILE | db:import -- FILE [--force] | db:backup -- FILE, on the database
 * DATABASE_URL names (as the server reads it). Exits 0 on success, 1 on a failure, 2 on bad arguments;
 * every failure is one line on stderr.
 */
const USAGE = 'usage: db:export -- FILE | db:import -- FILE [--force] | db:backup -- FILE';

type CommandName = 'export' | 'import' | 'backup';
interface Command {
  name: CommandName;
  file: string;
  force: boolean;
}

class UsageError extends Error {}

function parseArguments(args: string[]): Command {
  const [name, ...rest] = args;
  if (name !== 'export' && name !== 'import' && name !== 'backup') throw new UsageError(USAGE);
  const force = rest.includes('--force');
  const positional = rest.filter((arg) => arg !== '--force');
  const file = positional[0];
  if (positional.length !== 1 || !file || file.startsWith('-')) {
    throw new UsageError(`db:${name} needs exactly one FILE (${USAGE})`);
  }
  if (force && name !== 'import') throw new UsageError(`--force applies to db:import only (${USAGE})`);
  return { name, file: path.resolve(file), force };
}

function countLines(summary: DumpSummary): string {
  const counts = Object.entries(summary.counts);
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  const width = Math.max(...counts.map(([table]) => table.length));
  return [...counts.map(([table, count]) => `  ${table.padEnd(width)}  ${count}`), `  ${total} rows`].join(
    '\n',
  );
}

async function run(command: Command): Promise<string> {
  const target = loadConfig().database;
  if (command.name === 'backup' && target.kind !== 'sqlite') {
    throw new Error('db:backup copies a SQLite database; on PostgreSQL use npm run db:export (or pg_dump)');
  }
  if (
    target.kind === 'sqlite' &&
    [target.file, `${target.file}-wal`, `${target.file}-shm`].includes(command.file)
  )
    throw new Error(`${command.file} is the database itself: write the ${command.name} elsewhere`);
  // Opening a SQLite path creates the file: a mistyped DATABASE_URL would export an empty database.
  if (command.name !== 'import' && target.kind === 'sqlite') requireFile(target.file, 'The database');
  if (command.name === 'import') requireFile(command.file, 'The dump');
  const database = openDatabase(target, { poolSize: 2 });
  try {
    if (command.name === 'backup') {
      const { pages } = await backupSqlite(database, command.file);
      return `Backed up ${whereIs(target)} to ${command.file} (${pages} pages; without the signing key)`;
    }
    if (command.name === 'export') {
      const summary = await exportDatabase(database, command.file);
      return `Exported ${whereIs(target)} to ${command.file} (without the signing key):\n${countLines(summary)}`;
    }
    const summary = await importDump(database, command.file, { force: command.force });
    const source = `a ${summary.header.dialect} dump of ${summary.header.exportedAt}`;
    return (
      `Imported ${source} into ${whereIs(target)}${command.force ? ' (its rows replaced)' : ''}:\n${countLines(summary)}\n` +
      'A new signing key is stored there (a dump holds none): every session on that database has ' +
      'ended and users sign in again, unless its servers sign with JWT_SECRET.'
    );
  } finally {
    await database.close();
  }
}

async function main(): Promise<number> {
  let command: Command;
  try {
    command = parseArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${oneLine(error)}\n`);
    return 2;
  }
  try {
    process.stdout.write(`${await run(command)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`db:${command.name} failed: ${oneLine(error)}\n`);
    return 1;
  }
}

process.exitCode = await main();
