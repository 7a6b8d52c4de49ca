import { type Selectable, sql, type Updateable } from 'kysely';
import { countRows, type Database, type Executor, inLockedTransaction } from '../../db/database.js';
import type { UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Omit<
  UsersTable,
  'user_id' | 'is_deleted' | 'token_version' | 'last_seen_at' | 'password_change_required'
> & { password_change_required?: number };
export type UserPatch = Updateable<Omit<UsersTable, 'user_id' | 'is_deleted'>>;

/** Taken by every change that could leave no active admin, in every process. */
const ADMINS_LOCK = 'ghadi:active-admins';

export class UsersRepository {
  constructor(
    private readonly database: Database,
    /** Set on the repository handed to withAdminsLocked's work: its writes share that transaction. */
    private readonly inTransaction = false,
  ) {}

  private get db() {
    return this.database.db;
  }

  /**
   * Runs `work` with a repository bound to one transaction that holds the active-admins lock, so
   * that a check of the admins and the write that follows it cannot interleave with another's.
   */
  withAdminsLocked<T>(work: (users: UsersRepository, trx: Executor) => Promise<T>): Promise<T> {
    return inLockedTransaction(this.database, ADMINS_LOCK, (db) =>
      work(new UsersRepository({ ...this.database, db }, true), db),
    );
  }

  /** Runs `work` with a repository bound to one transaction, which the caller's other writes share. */
  withTransaction<T>(work: (users: UsersRepository, trx: Executor) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((db) => work(new UsersRepository({ ...this.database, db }, true), db));
  }

  private atomically(work: (db: Executor) => Promise<void>): Promise<void> {
    return this.inTransaction ? work(this.db) : this.db.transaction().execute(work);
  }

  findById(userId: number): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('user_id', '=', userId)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
  }

  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
  }

  list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('is_deleted', '=', 0).orderBy('user_id').execute();
  }

  async insert(row: NewUserRow): Promise<number> {
    const inserted = await this.db
      .insertInto('users')
      .values(row)
      .returning('user_id')
      .executeTakeFirstOrThrow();
    return inserted.user_id;
  }

  /** `revokeTokens`: every token of the user stops working, and its sessions end. */
  async update(userId: number, patch: UserPatch, revokeTokens: boolean): Promise<void> {
    await this.atomically(async (trx) => {
      await trx
        .updateTable('users')
        .set(patch)
        .$if(revokeTokens, (query) => query.set('token_version', sql`token_version + 1`))
        .where('user_id', '=', userId)
        .where('is_deleted', '=', 0)
        .execute();
      if (revokeTokens) await endSessions(trx, userId, new Date().toISOString());
    });
  }

  /**
   * The user's own new password, in the caller's transaction: it no longer needs changing. Their
   * sessions are the caller's to end (all but the one that changed it).
   */
  async changePassword(trx: Executor, userId: number, passwordHash: string, now: string): Promise<void> {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_change_required: 0, updated_at: now })
      .where('user_id', '=', userId)
      .where('is_deleted', '=', 0)
      .execute();
  }

  /** The account stays (its results keep their author); its assignments go and its tokens stop working. */
  async softDelete(userId: number, now: string): Promise<void> {
    await this.atomically(async (trx) => {
      await trx.deleteFrom('usermaps').where('user_id', '=', userId).execute();
      await trx
        .updateTable('users')
        .set({ is_deleted: 1, is_active: 0, updated_at: now, token_version: sql`token_version + 1` })
        .where('user_id', '=', userId)
        .execute();
      await endSessions(trx, userId, now);
    });
  }

  async countAgents(): Promise<number> {
    return countRows(
      this.db.selectFrom('users').where('user_type', '=', 'agent').where('is_deleted', '=', 0),
    );
  }

  async countActiveAdmins(): Promise<number> {
    return countRows(
      this.db
        .selectFrom('users')
        .where('user_type', '=', 'admin')
        .where('is_active', '=', 1)
        .where('is_deleted', '=', 0),
    );
  }

  async countAll(): Promise<number> {
    return countRows(this.db.selectFrom('users'));
  }
}

/**
 * Marks the user's sessions ended where a bumped token_version already refuses their tokens, so that
 * no session list shows them as live.
 */
async function endSessions(trx: Executor, userId: number, now: string): Promise<void> {
  await trx
    .updateTable('sessions')
    .set({ ended_at: now })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .execute();
}
