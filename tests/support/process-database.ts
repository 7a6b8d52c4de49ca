import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Dialect } from '../../src/server/db/database.js';
import type { DatabaseTarget } from '../../src/server/db/database-target.js';
import { POSTGRES_URL, withAdminClient } from './test-app.js';

export interface ProcessDatabase {
  /** DATABASE_URL for a server process. */
  url: string;
  /** The same database, to open it from the test. */
  target: DatabaseTarget;
  drop(): Promise<void>;
}

const asAdmin = async (statement: string): Promise<void> => {
  await withAdminClient((client) => client.query(statement));
};

/**
 * A database of its own for a server process started by the test: a SQLite file in `dir`, or a
 * PostgreSQL database (dropped by drop()). A process reads DATABASE_URL only, so a schema per test
 * (as in-process apps use) is not an option here.
 */
export async function processDatabase(dialect: Dialect, dir: string): Promise<ProcessDatabase> {
  if (dialect === 'sqlite') {
    const file = path.join(dir, `process-${randomBytes(4).toString('hex')}.db`);
    return { url: `sqlite:${file}`, target: { kind: 'sqlite', file }, drop: async () => {} };
  }
  const name = `ghadi_process_${randomBytes(5).toString('hex')}`;
  await asAdmin(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    target: { kind: 'postgres', url: url.toString() },
    drop: () => asAdmin(`drop database if exists ${name} with (force)`),
  };
}
