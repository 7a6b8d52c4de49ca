import { sql } from 'kysely';
import { type Database, isUniqueViolation, openDatabase } from './database.js';

/** Any constant: the session lock under which one process at a time migrates and bootstraps. */
const FIRST_START_LOCK = 7_316_002;
const SQLITE_ATTEMPTS = 30;

/**
 * A SQLite error another process's start can cause: busy, a row it just created, or a table its
 * migration just created (read before its commit). Whatever else is wrong fails every attempt.
 */
function mayBeACollision(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isUniqueViolation(error) || (typeof code === 'string' && code.startsWith('SQLITE_'));
}

/**
 * Runs `work` (migrations and the first start's admin, ghadis and secret) as if no other process were
 * starting on the same database, so that several processes started at once create everything once.
 * - PostgreSQL: a session advisory lock held on one connection, which `work` runs on.
 * - SQLite: its single writer serializes the statements; a process that collides with another's start
 *   runs `work` again (a few times), which then finds it done.
 */
export async function whileAlone<T>(database: Database, work: (alone: Database) => Promise<T>): Promise<T> {
  if (database.dialect === 'postgres') {
    // A connection of its own, without the requests' deadline: waiting for another process's start,
    // or a migration of a large table, may rightly take longer than any request should.
    const alone = openDatabase(database.target, {
      ...(database.pgSchema ? { pgSchema: database.pgSchema } : {}),
      poolSize: 1,
      connectTimeoutMs: database.deadlineMs,
      health: database.health,
    });
    try {
      return await alone.db.connection().execute(async (connection) => {
        await sql`select pg_advisory_lock(${FIRST_START_LOCK})`.execute(connection);
        try {
          return await work({ ...alone, db: connection });
        } finally {
          await sql`select pg_advisory_unlock(${FIRST_START_LOCK})`.execute(connection);
        }
      });
    } finally {
      await alone.close();
    }
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(database);
    } catch (error) {
      if (attempt >= SQLITE_ATTEMPTS || !mayBeACollision(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
    }
  }
}
