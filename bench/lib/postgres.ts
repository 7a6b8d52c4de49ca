/**
 * Throw-away PostgreSQL databases for checks that start servers of their own: the server reads only
 * DATABASE_URL (no schema of its own choosing), so each run gets a database, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where PostgreSQL is: ACCEPTANCE_DATABASE_URL, else the test suite's database. */
export const POSTGRES_URL =
  process.env.ACCEPTANCE_DATABASE_URL ??
  process.env.TEST_POSTGRES_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

export interface TemporaryDatabase {
  name: string;
  /** POSTGRES_URL pointed at the new database. */
  url: string;
  /** Runs one query on the database (for checks that look inside it). */
  query<R extends pg.QueryResultRow>(text: string): Promise<R[]>;
  drop(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${url}: ${(error as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTemporaryDatabase(
  prefix: string,
  serverUrl = POSTGRES_URL,
): Promise<TemporaryDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    query: (text) => withClient(url.toString(), async (client) => (await client.query(text)).rows),
    drop: async () => {
      await withClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
