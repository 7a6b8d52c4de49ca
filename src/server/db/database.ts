import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type DatabaseConnection,
  Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type QueryResult,
  type RootOperationNode,
  type SelectQueryBuilder,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
  type UnknownRow,
} from 'kysely';
import pg from 'pg';
import { createOwnerOnlyIfAbsent, makeOwnerOnlyFolder, restrictToOwner } from '../lib/owner-only-files.js';
import { isDatabaseUnavailable } from './database-errors.js';
import { DatabaseHealth } from './database-health.js';
import type { DatabaseTarget } from './database-target.js';
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
  /** Whether the database answers, and (SQLite) whether writes fail: for 503s and readiness. */
  health: DatabaseHealth;
  /** DatabaseOptions.deadlineMs (0: none). */
  deadlineMs: number;
  /** Connections in use now, for the metrics: PostgreSQL's pool; SQLite has its one connection. */
  poolUse(): { total: number; idle?: number; waiting?: number };
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL schema to work in (tests use one per suite). */
  pgSchema?: string;
  /** PostgreSQL connections for queries (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /**
   * The longest a statement may take (DATABASE_DEADLINE_MS): PostgreSQL's statement_timeout and
   * connect timeout, with a client-side deadline a little longer for a database that stopped
   * answering at all; SQLite's busy timeout. 0 (the default: tools, tests) waits as long as it takes.
   */
  deadlineMs?: number;
  /**
   * PostgreSQL: how long to wait for a connection, when it should differ from `deadlineMs` (work that
   * may take long, like migrations, still must not wait forever for a database that never answers).
   */
  connectTimeoutMs?: number;
  health?: DatabaseHealth;
}

/** SQLite waits this long for another process's write lock when no deadline is set. */
const SQLITE_DEFAULT_BUSY_MS = 5000;
/** A PostgreSQL statement past its deadline is cancelled by the server; the client waits this much more. */
const CLIENT_DEADLINE_MARGIN_MS = 1000;

/**
 * Tells the health whether queries answer: every query that returns is proof the database is there.
 * Not that writes work again after they failed: a small write can fit where a real one does not
 * (DatabaseHealth.wrote says who may tell that).
 */
class HealthPlugin implements KyselyPlugin {
  constructor(private readonly health: DatabaseHealth) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.health.answered();
    return result;
  }
}

/**
 * SQLite ends a transaction by itself on some failures (a full disk, an I/O error); Kysely's rollback
 * after them would then fail with "no transaction is active", and that error, not the cause, would
 * reach the log. Rolled back only while a transaction is open.
 */
class SqliteDriverKeepingTheCause extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
  ) {
    super(config);
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

class SqliteDialectKeepingTheCause extends SqliteDialect {
  constructor(private readonly sqliteConfig: SqliteDialectConfig & { database: SQLite.Database }) {
    super(sqliteConfig);
  }

  override createDriver(): SqliteDriver {
    return new SqliteDriverKeepingTheCause(this.sqliteConfig, this.sqliteConfig.database);
  }
}

/**
 * node-postgres' pool as Kysely uses it, made safe for a database that goes away: a connection whose
 * query failed for the database's sake (lost, or past node-postgres' query_timeout) is destroyed on
 * release instead of being handed to the next request.
 */
function guardedPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let broken: Error | undefined;
      const failed = (error: unknown) => {
        if (isDatabaseUnavailable(error)) broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      };
      return {
        query: ((text: unknown, parameters?: ReadonlyArray<unknown>) => {
          // A cursor (not used by this app) goes through as it is.
          if (typeof text !== 'string') return client.query(text as never);
          // After a failure for the database's sake (a rollback follows, say) the connection is not trusted.
          if (broken) return Promise.reject(broken);
          return client.query(text, parameters as unknown[]).catch(failed);
        }) as unknown as PostgresPoolClient['query'],
        release: () => client.release(broken),
      };
    },
    end: () => pool.end(),
  };
}

export function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Database {
  const health = options.health ?? new DatabaseHealth();
  if (target.kind === 'sqlite') {
    const onDisk = target.file !== ':memory:';
    if (onDisk) {
      // The file holds password hashes: made owner-only before SQLite writes a byte into it, so the
      // -wal and -shm files SQLite creates beside it take the same mode.
      makeOwnerOnlyFolder(path.dirname(target.file));
      createOwnerOnlyIfAbsent(target.file);
    }
    const sqlite = new SQLite(target.file, { timeout: options.deadlineMs || SQLITE_DEFAULT_BUSY_MS });
    sqlite.pragma('journal_mode = WAL');
    // Files of an older start (or copied in) may have been made readable by others.
    if (onDisk) restrictToOwner(target.file, `${target.file}-wal`, `${target.file}-shm`);
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<DatabaseSchema>({
      dialect: new SqliteDialectKeepingTheCause({ database: sqlite }),
      plugins: [new HealthPlugin(health)],
    });
    return {
      db,
      dialect: 'sqlite',
      target,
      sqlite,
      health,
      deadlineMs: options.deadlineMs ?? 0,
      poolUse: () => ({ total: 1 }),
      close: () => db.destroy(),
    };
  }
  const deadlineMs = options.deadlineMs ?? 0;
  const connectTimeoutMs = options.connectTimeoutMs ?? deadlineMs;
  const sessionOptions = [
    ...(options.pgSchema ? [`-c search_path=${options.pgSchema}`] : []),
    ...(deadlineMs > 0 ? [`-c statement_timeout=${deadlineMs}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString: target.url,
    max: options.poolSize ?? 10,
    keepAlive: true,
    ...(connectTimeoutMs > 0 ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
    // A database that stopped answering at all: the server cannot cancel what it never received.
    ...(deadlineMs > 0 ? { query_timeout: deadlineMs + CLIENT_DEADLINE_MARGIN_MS } : {}),
    ...(sessionOptions.length > 0 ? { options: sessionOptions.join(' ') } : {}),
  });
  // An idle connection the server ends (a restart, a failover, an idle reaper) is dropped by the pool
  // and made again when needed; without these listeners its error event would end the process.
  pool.on('error', (error) => health.connectionLost(error));
  pool.on('connect', (client) => client.on('error', (error) => health.connectionLost(error)));
  const db = new Kysely<DatabaseSchema>({
    dialect: new PostgresDialect({ pool: guardedPool(pool) }),
    plugins: [new HealthPlugin(health)],
  });
  return {
    db,
    dialect: 'postgres',
    health,
    deadlineMs,
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
      await holdLock(database, trx, lockName);
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
      // SQLite may have ended the transaction itself (a full disk): the cause is what is thrown.
      if (database.sqlite?.inTransaction !== false) await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/**
 * Takes a second lock inside a transaction begun by inLockedTransaction, held to its end. On SQLite
 * the write transaction already excludes every other writer, so there is nothing more to take.
 */
export async function holdLock(database: Database, trx: Executor, lockName: string): Promise<void> {
  if (database.dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtext(${lockName}))`.execute(trx);
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
