import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { isMissingTable } from '../modules/backup/migration-mismatch.js';
import { rotateStoredKey } from '../modules/settings/signing-key-store.js';
import { oneLine, requireFile, whereIs } from './cli-output.js';

/**
 * npm run rotate-secret: replaces the signing key stored in the database DATABASE_URL names (as the
 * server reads it). Every token signed with the old key is refused from then on, by every server on
 * that database, running or not: each reads the key's generation with the session on every request.
 * Exits 0 on success, 1 on a failure (one line on stderr), 2 on bad arguments.
 */
const USAGE = 'usage: rotate-secret (no arguments; DATABASE_URL names the database)';

async function run(): Promise<string> {
  const config = loadConfig();
  if (config.jwtSecret) {
    throw new Error(
      'JWT_SECRET is set, and servers that have it sign with it, not with the stored key: to end every ' +
        'session, change JWT_SECRET on every server and restart them',
    );
  }
  const target = config.database;
  // Opening a SQLite path creates the file: a mistyped DATABASE_URL would get a key and nothing else.
  if (target.kind === 'sqlite') requireFile(target.file, 'The database');
  const database = openDatabase(target, { poolSize: 1 });
  try {
    const key = await rotateStoredKey(database).catch((error: unknown) => {
      throw isMissingTable(error)
        ? new Error('The database has no settings table: no server of this site has run on it')
        : error;
    });
    return (
      `Replaced the signing key of ${whereIs(target)} (generation ${key.id}). Every session has ended, ` +
      'on every server on this database, running or not: users sign in again.'
    );
  } finally {
    await database.close();
  }
}

async function main(): Promise<number> {
  if (process.argv.length > 2) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    process.stdout.write(`${await run()}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`rotate-secret failed: ${oneLine(error)}\n`);
    return 1;
  }
}

process.exitCode = await main();
