import { knownMigrations } from '../../db/migrate.js';

/** An error on a table the database lacks: the migrations table, on a database no server has run on. */
export function isMissingTable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '42P01' || (typeof message === 'string' && message.startsWith('no such table'));
}

/** Why a database or dump with these migrations does not match this code, or undefined when it does. */
export function migrationMismatch(migrations: string[]): string | undefined {
  const known = knownMigrations();
  const unknown = migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    return `it has migrations this version does not know (${unknown.join(', ')}): use the version that made it`;
  const missing = known.filter((name) => !migrations.includes(name));
  if (missing.length > 0)
    return `it lacks migrations this version has (${missing.join(', ')}): bring it up to date with its own version first`;
  return undefined;
}
