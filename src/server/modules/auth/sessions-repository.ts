import type { Selectable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { SessionsTable } from '../../db/schema.js';
import { KEY_GENERATION_SETTING } from '../settings/signing-key-store.js';
import type { UserRow } from '../users/users-repository.js';

export type SessionRow = Selectable<SessionsTable>;

export type SessionUserRow = Pick<
  UserRow,
  'user_id' | 'user_type' | 'username' | 'is_active' | 'token_version' | 'password_change_required'
> & {
  /** The session the token names, null when it has no row (pruned, or from before sessions were kept). */
  session_id: string | null;
  ended_at: string | null;
  session_seen_at: string | null;
  method: SessionsTable['method'] | null;
  /** The stored signing key's generation now (null with none): a token of another is refused. */
  key_generation: string | null;
};

/**
 * Expired rows deleted by each sign-in: more than the one it adds, so that the table drains to the
 * sessions of the last 12 hours without any sign-in deleting many.
 */
export const SESSION_PRUNE_BATCH = 50;

/** Live sessions a list shows at most: a script signing in every minute cannot make it huge. */
export const SESSION_LIST_MAX = 100;

/**
 * The instants a change of sessions goes by: `at` (the app's clock) is stored; `tokenNow` (the system
 * clock, which tokens expire by, as jose checks their `exp`) tells the live sessions from the expired.
 */
export interface SessionClock {
  at: string;
  tokenNow: string;
}

export class SessionsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Runs `work` in one transaction: the ending of sessions and the entry that records it. */
  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * The live user a token names, its session, and the signing key's generation (so that a key
   * replaced by another process ends the token here at once): one query over three primary keys,
   * made on every authenticated request. The session must be the user's own.
   */
  findSessionUser(userId: number, sessionId: string): Promise<SessionUserRow | undefined> {
    return this.db
      .selectFrom('users')
      .leftJoin('sessions', (join) =>
        join.on('sessions.session_id', '=', sessionId).onRef('sessions.user_id', '=', 'users.user_id'),
      )
      .leftJoin('settings as signing_key', (join) =>
        join.on((eb) => eb('signing_key.key', '=', KEY_GENERATION_SETTING)),
      )
      .select([
        'users.user_id',
        'users.user_type',
        'users.username',
        'users.is_active',
        'users.token_version',
        'users.password_change_required',
        'sessions.session_id',
        'sessions.ended_at',
        'sessions.last_seen_at as session_seen_at',
        'sessions.method',
        'signing_key.value as key_generation',
      ])
      .where('users.user_id', '=', userId)
      .where('users.is_deleted', '=', 0)
      .executeTakeFirst();
  }

  /**
   * Stores a new session in the sign-in's transaction, and deletes a batch of rows whose tokens have
   * expired anyway (by `tokenNow`). On PostgreSQL the delete skips rows another transaction holds, so
   * it never waits inside the login throttle's transaction.
   */
  async open(db: Executor, row: SessionRow, tokenNow: string): Promise<void> {
    await db
      .deleteFrom('sessions')
      .where('session_id', 'in', (eb) =>
        eb
          .selectFrom('sessions')
          .select('session_id')
          .where('expires_at', '<=', tokenNow)
          .orderBy('expires_at')
          .limit(SESSION_PRUNE_BATCH)
          .$if(this.database.dialect === 'postgres', (query) => query.forUpdate().skipLocked()),
      )
      .execute();
    await db.insertInto('sessions').values(row).execute();
  }

  /** The user's live sessions (not ended, not expired by `tokenNow`), newest first. */
  listLive(userId: number, tokenNow: string): Promise<SessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', tokenNow)
      .orderBy('created_at', 'desc')
      .orderBy('session_id')
      .limit(SESSION_LIST_MAX)
      .execute();
  }

  /**
   * Ends the user's live sessions: one (`only`), all but one (`except`), or all. Answers how many it
   * ended; a session of another user is never touched.
   */
  async end(
    db: Executor,
    userId: number,
    clock: SessionClock,
    which: { only: string } | { except: string } | 'all',
  ): Promise<number> {
    let query = db
      .updateTable('sessions')
      .set({ ended_at: clock.at })
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', clock.tokenNow);
    if (which !== 'all')
      query =
        'only' in which
          ? query.where('session_id', '=', which.only)
          : query.where('session_id', '!=', which.except);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Sets a live session's last_seen_at to `at` unless it is already later than `notBefore`: one
   * keyed update, none at all when another process wrote it within that window. True when it wrote.
   */
  async touch(sessionId: string, at: string, notBefore: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ last_seen_at: at })
      .where('session_id', '=', sessionId)
      .where('last_seen_at', '<', notBefore)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
