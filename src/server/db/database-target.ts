import path from 'node:path';

/** Where the data lives: the embedded SQLite file by default, PostgreSQL when DATABASE_URL says so. */
export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

const DEFAULT_SQLITE_FILE = path.resolve('data', 'ghadi.db');

export function parseDatabaseUrl(value: string | undefined): DatabaseTarget {
  if (!value) return { kind: 'sqlite', file: DEFAULT_SQLITE_FILE };
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new Error('empty path');
    return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
  }
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: 'postgres', url: value };
  throw new Error('must start with sqlite: or postgres://');
}
