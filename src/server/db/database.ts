import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SelectQueryBuilder, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import { createOwnerOnlyIfAbsent, makeOwnerOnlyFolder, restrictToOwner } from '../lib/owner-only-files.js';
import type { DatabaseSchema } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** What a repository runs a query on: the database, or a transaction a service opened. */
export type Executor = Kysely<DatabaseSchema>;

export interface Database {
  db: Kysely<DatabaseSchema>;
  dialect: Dialect;
  /** The PostgreSQL schema the database works in, when one was chosen. */
  pgSchema?: string;
  /** Where it is: a change bus opens a connection of its own there (PostgreSQL's LISTEN). */
  target: DatabaseTarget;
  /**
   * The better-sqlite3 handle under `db` (SQLite only), for what SQL cannot do: the online backup API
   * (db:backup). Exposed rather than opened again so a backup copies through the connection that owns
   * the data: an in-memory database has no file a second handle could open.
   */
  sqlite?: SQLite.Database;
  /** Connections in use now, for the metrics: PostgreSQL's pool; SQLite has its one connection. */
  poolUse(): { total: number; idle?: number; waiting?: number };
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL schema to work in (tests use one per suite). */
  pgSchema?: string;
  /** PostgreSQL connections for queries (DATABASE_POOL_SIZE). */
  poolSize?: number;
}

export function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Database {
  if (target.kind === 'sqlite') {
    const onDisk = target.file !== ':memory:';
    if (onDisk) {
      // The file holds password hashes: made owner-only before SQLite writes a byte into it, so the
      // -wal and -shm files SQLite creates beside it take the same mode.
      makeOwnerOnlyFolder(path.dirname(target.file));
      createOwnerOnlyIfAbsent(target.file);
    }
    const sqlite = new SQLite(target.file);
    sqlite.pragma('journal_mode = WAL');
    // Files of an older start (or copied in) may have been made readable by others.
    if (onDisk) restrictToOwner(target.file, `${target.file}-wal`, `${target.file}-shm`);
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) });
    return {
      db,
      dialect: 'sqlite',
      target,
      sqlite,
      poolUse: () => ({ total: 1 }),
      close: () => db.destroy(),
    };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: options.poolSize ?? 10,
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
  });
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    ...(options.pgSchema ? { pgSchema: options.pgSchema } : {}),
    target,
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

/** The PostgreSQL channel on which writes to this database (schema) announce their changes. */
export function changeChannel(database: Database): string {
  return `ghadi_changes_${database.pgSchema ?? 'public'}`;
}

/**
 * Runs `work` in one transaction that excludes every other holder of the same lock, in every
 * process on the database: on PostgreSQL a transaction-scoped advisory lock; on SQLite a write
 * transaction taken up front (BEGIN IMMEDIATE), which excludes every other writer of the file.
 * `work` must use only the executor it is given: on SQLite the process's one connection is held
 * for the duration, and on PostgreSQL a second pooled connection could wait on this one.
 */
export async function inLockedTransaction<T>(
  database: Database,
  lockName: string,
  work: (db: Executor) => Promise<T>,
): Promise<T> {
  if (database.dialect === 'postgres') {
    return database.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${lockName}))`.execute(trx);
      return work(trx);
    });
  }
  return database.db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/** Unique-constraint failures from either driver, so services can answer 409. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Counts the rows a query selects (drivers answer count(*) as a number, a string or a bigint). */
export async function countRows<DB, TB extends keyof DB>(
  query: SelectQueryBuilder<DB, TB, object>,
): Promise<number> {
  const row = await query
    .select(sql<number | string | bigint>`count(*)`.as('count'))
    .executeTakeFirstOrThrow();
  return Number((row as { count: number | string | bigint }).count);
}
